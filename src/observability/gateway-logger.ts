// Structured JSON logs with pino: secrets redacted by path and scrubbed by value; any GatewayLogger (pino, winston, console) can be wrapped.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { scrubSecretShapes } from '../secrets/secret-shapes.js';
import { SCRUBBED, secretScrubber, type SecretScrubber } from '../secrets/secret-scrubber.js';

/** Field paths whose values pino replaces with `[REDACTED]` on every line, at the top level and one level down. */
export const REDACTED_PATHS: readonly string[] = [
  'authorization', 'api_key', 'apiKey', 'key', 'token', 'secret', 'password', 'cookie', 'authorization_token', 'api_key_secret_key',
  '*.authorization', '*.api_key', '*.apiKey', '*.key', '*.token', '*.secret', '*.password', '*.cookie', '*.authorization_token', '*.api_key_secret_key',
  'headers["x-api-key"]', 'headers["x-gateway-apikey"]', '*.headers.authorization', '*.headers["x-api-key"]', '*.headers["x-gateway-apikey"]',
];

/** Options of {@link createPinoLogger}. */
export interface PinoLoggerOptions {
  /** Lowest level written. Default `info` (LOG_LEVEL in the example server). */
  level?: string;
  /** Where lines go; default standard output. */
  destination?: DestinationStream;
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
  const logger = options.destination ? pino(config, options.destination) : pino(config);
  redactedBy.set(logger, [...REDACTED_PATHS, ...(options.redact ?? [])]);
  return logger;
}

/** The redact paths of each logger made by {@link createPinoLogger} (a host's own pino logger is not listed). */
const redactedBy = new WeakMap<Logger, readonly string[]>();

/**
 * The first segments of `paths` (`headers["x-api-key"]` → `headers`), or undefined when a path redacts every
 * top-level field (`*`). A line whose fields are all plain values under none of these names holds nothing any of
 * the paths can reach (a path that starts with `*` reaches only into objects).
 */
function redactedFieldNames(paths: readonly string[]): ReadonlySet<string> | undefined {
  const names = new Set<string>();
  for (const path of paths) {
    const first = /^(?:\[\s*(["'`])(.*?)\1\s*\]|([^.[]+))/.exec(path);
    const name = first ? (first[2] ?? first[3]!) : path;
    if (name === '*') {
      if (path === '*') return undefined;
      continue;
    }
    names.add(name);
  }
  return names;
}

/** True when `fields` are plain values (no object or array) under names no redact path starts with. */
function beyondRedaction(fields: Record<string, unknown>, names: ReadonlySet<string>): boolean {
  for (const name in fields) {
    const value = fields[name];
    if ((typeof value === 'object' && value !== null) || names.has(name)) return false;
  }
  return true;
}

/**
 * A pino logger as a GatewayLogger: `info(message, fields)` becomes `info(fields, message)`.
 *
 * pino's redaction walks every field of every line against every path (about 20 µs a line with the gateway's
 * paths, more than the rest of a request). For a logger made by {@link createPinoLogger}, a line whose fields are
 * all plain values under names no redact path starts with (the per-request line, for one) is written through a
 * twin of the logger without redaction: the paths could not have changed it, so it is the same line. Any other line,
 * and every line of a host's own pino logger, goes through redaction as usual.
 */
export function pinoGatewayLogger(logger: Logger): GatewayLogger {
  const paths = redactedBy.get(logger);
  const names = paths && redactedFieldNames(paths);
  const plain = names ? logger.child({}, { redact: [] }) : undefined;
  const pick = (fields: Record<string, unknown> | undefined): Logger => (plain && (fields === undefined || beyondRedaction(fields, names!)) ? plain : logger);
  return {
    info: (message, fields) => pick(fields).info(fields ?? {}, message),
    warn: (message, fields) => pick(fields).warn(fields ?? {}, message),
    error: (message, fields) => pick(fields).error(fields ?? {}, message),
  };
}

/**
 * Wraps the host's logger so no line carries a secret: every stored provider key and registry token (`secrets()`,
 * the latest loaded set) in any encoding the scrubber knows, and key-shaped values (`gwk_`, `gwa_`, `sk-`).
 * A line is serialized once and searched as text; only a line that held something is rebuilt.
 */
export function scrubbingLogger(logger: GatewayLogger, secrets: () => readonly string[]): GatewayLogger {
  // The scrubber is compiled once per set of secrets (the set is a new array only when it was reloaded).
  let compiledFor: readonly string[] | undefined;
  let scrubber: SecretScrubber | undefined;
  const clean = (message: string, fields: Record<string, unknown> | undefined): [string, Record<string, unknown> | undefined] => {
    const known = secrets();
    if (known !== compiledFor) {
      compiledFor = known;
      scrubber = secretScrubber(known);
    }
    const text = JSON.stringify([message, fields ?? null]);
    const shaped = scrubSecretShapes(text);
    const scrubbed = scrubber!.text(shaped);
    if (scrubbed === text) return [message, fields];
    const [cleanMessage, cleanFields] = JSON.parse(scrubbed) as [string, Record<string, unknown> | null];
    return [cleanMessage, cleanFields ?? undefined];
  };
  return {
    info: (message, fields) => logger.info(...clean(message, fields)),
    warn: (message, fields) => logger.warn(...clean(message, fields)),
    error: (message, fields) => logger.error(...clean(message, fields)),
  };
}
