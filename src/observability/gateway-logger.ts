// Structured JSON logs with pino: secrets redacted by path and scrubbed by value; any GatewayLogger (pino, winston, console) can be wrapped.
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { SCRUBBED, scrubSecretsDeep } from '../secrets/secret-scrubber.js';

/** Field paths whose values pino replaces with `[REDACTED]` on every line, at the top level and one level down. */
export const REDACTED_PATHS: readonly string[] = [
  'authorization', 'api_key', 'apiKey', 'key', 'token', 'secret', 'password', 'cookie', 'authorization_token', 'api_key_secret_key',
  '*.authorization', '*.api_key', '*.apiKey', '*.key', '*.token', '*.secret', '*.password', '*.cookie', '*.authorization_token', '*.api_key_secret_key',
  'headers["x-api-key"]', 'headers["x-gateway-apikey"]', '*.headers.authorization', '*.headers["x-api-key"]', '*.headers["x-gateway-apikey"]',
];

/** Key-shaped text the gateway issues or forwards, removed from every logged string: developer keys, admin keys and `sk-` provider keys. */
const KEY_SHAPES = /\b(?:gwk_[A-Za-z0-9_-]{16,}|gwa_[A-Za-z0-9_-]{16,}|sk-[A-Za-z0-9_-]{16,})/g;

function scrubShapes<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined || !KEY_SHAPES.test(text)) return value;
  KEY_SHAPES.lastIndex = 0;
  return JSON.parse(text.replace(KEY_SHAPES, SCRUBBED)) as T;
}

/** Options of {@link createPinoLogger}. */
export interface PinoLoggerOptions {
  /** Lowest level written. Default `info` (LOG_LEVEL in the example server). */
  level?: string;
  /** Where lines go; default standard output. */
  destination?: NodeJS.WritableStream;
  /** More field paths to redact, in pino's path syntax. */
  redact?: string[];
}

/**
 * A pino logger writing JSON lines (ISO timestamps, level names), with the gateway's redact paths.
 * @example
 * const logger = pinoGatewayLogger(createPinoLogger({ level: 'info' }));
 * createGateway({ logger, logRequests: true });
 */
export function createPinoLogger(options: PinoLoggerOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    base: undefined,
    messageKey: 'message',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: [...REDACTED_PATHS, ...(options.redact ?? [])], censor: SCRUBBED },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

/** A pino logger as a GatewayLogger: `info(message, fields)` becomes `info(fields, message)`. */
export function pinoGatewayLogger(logger: Logger): GatewayLogger {
  return {
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
  };
}

/**
 * Wraps the host's logger so no line carries a secret: every stored provider key and registry token (`secrets()`,
 * the latest loaded set) in any encoding the scrubber knows, and key-shaped values (`gwk_`, `gwa_`, `sk-`).
 */
export function scrubbingLogger(logger: GatewayLogger, secrets: () => readonly string[]): GatewayLogger {
  const clean = (message: string, fields: Record<string, unknown> | undefined): [string, Record<string, unknown> | undefined] => {
    const known = secrets();
    const [text, rest] = scrubShapes([message, fields ?? null] as const);
    return [scrubSecretsDeep(text, known), rest === null ? undefined : scrubSecretsDeep(rest, known)];
  };
  return {
    info: (message, fields) => logger.info(...clean(message, fields)),
    warn: (message, fields) => logger.warn(...clean(message, fields)),
    error: (message, fields) => logger.error(...clean(message, fields)),
  };
}
