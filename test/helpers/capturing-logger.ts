// A GatewayLogger that keeps every line in an array, for tests that check what the gateway logs.
import type { GatewayLogger } from '../../src/errors/error-middleware.js';

/** One captured log line. */
export interface LoggedLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/**
 * A logger that pushes each line (level, message, fields) onto `into`.
 * @example
 * const lines: LoggedLine[] = [];
 * const f = await createTrafficFixture({ logger: capturingLogger(lines) });
 * assert.ok(!lines.some((line) => line.level === 'error'));
 */
export function capturingLogger(into: LoggedLine[]): GatewayLogger {
  const log = (level: LoggedLine['level']) => (message: string, fields?: Record<string, unknown>) => void into.push({ level, message, fields });
  return { info: log('info'), warn: log('warn'), error: log('error') };
}
