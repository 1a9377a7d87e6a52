// The example server's settings read from the environment (PORT, GATEWAY_DRAIN_SECONDS, GATEWAY_STOP_TIMEOUT_SECONDS, LOG_LEVEL), strictly, so a typo stops the start with one clear line.

/**
 * Reads a listen port: a whole number from 0 to 65535 (0 lets the system choose); unset or empty is 8080.
 * Throws, naming the variable, for anything else.
 * @example
 * listenPort(process.env.PORT); // 8080 when unset
 */
export function listenPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new Error('PORT must be a whole number from 0 to 65535');
  return port;
}

/** Reads `value` of the variable `name` as milliseconds: a number of seconds from `min` to 3600; unset or empty is `fallback` seconds. */
function secondsSetting(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback * 1000;
  const seconds = value.trim() === '' ? Number.NaN : Number(value);
  if (!(seconds >= min && seconds <= 3600)) throw new Error(`${name} must be a number of seconds from ${min} to 3600`);
  return seconds * 1000;
}

/**
 * Reads GATEWAY_DRAIN_SECONDS as milliseconds: a number of seconds from 0 to 3600; unset or empty is 0.
 * Throws, naming the variable, for anything else.
 * @example
 * drainMillis('2.5'); // 2500
 */
export function drainMillis(value: string | undefined): number {
  return secondsSetting('GATEWAY_DRAIN_SECONDS', value, 0, 0);
}

/**
 * Reads GATEWAY_STOP_TIMEOUT_SECONDS as milliseconds: how long closing may take after the drain (in-flight answers,
 * the last Chronicles and usage flush, storage and Redis closed) before the process exits anyway, with code 1. A number
 * of seconds from 1 to 3600; unset or empty is 20, so the drain plus this fits a 30-second termination grace period
 * when the drain is under 10 s. Throws, naming the variable, for anything else.
 * @example
 * stopTimeoutMillis(undefined); // 20000
 */
export function stopTimeoutMillis(value: string | undefined): number {
  return secondsSetting('GATEWAY_STOP_TIMEOUT_SECONDS', value, 20, 1);
}

/** The levels of the JSON log lines, lowest last; `silent` writes none. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Reads LOG_LEVEL: one of pino's levels; unset or empty is `info`. Throws, naming the variable and the levels, for
 * anything else (pino itself would stop the process with a stack trace about custom levels).
 * @example
 * logLevel('debug'); // 'debug'
 */
export function logLevel(value: string | undefined): string {
  if (value === undefined || value === '') return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return value;
}
