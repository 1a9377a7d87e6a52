// Small SQL helpers of the PostgreSQL adapter: the query type, table names, identifier quoting, LIKE escaping, and the errors that mean "unreachable".
import type pg from 'pg';
import { Errors } from '../errors/error-registry.js';

/** A query on the adapter's pool; an unreachable server fails it with `storage_unavailable` (see {@link asStorageError}). */
export type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

/** The quoted, schema-qualified names of the adapter's tables. */
export interface PostgresTables {
  /** The quoted schema. */
  schema: string;
  /** Key-value pairs: `(key, value, updated_at)`. */
  values: string;
  /** One row per log: `(id, name, last_seq)`. */
  logs: string;
  /** Log records: `(log_id, seq, value)`. */
  records: string;
  /** Numeric counters: `(bucket, item, field, value)`. */
  counters: string;
  /** A subquery: the id of the log named `$1`. */
  logId: string;
}

/** The tables of the adapter in `schema` (unquoted, as the options give it). */
export function postgresTables(schema: string): PostgresTables {
  const s = quoteIdent(schema);
  const logs = `${s}.gateway_logs`;
  return { schema: s, values: `${s}.gateway_values`, logs, records: `${s}.gateway_log_records`, counters: `${s}.gateway_counters`, logId: `(SELECT id FROM ${logs} WHERE name = $1)` };
}

/** Quotes an SQL identifier (a schema name from the options). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A `LIKE` pattern matching every text that starts with `prefix` (used with `ESCAPE '\'`). */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * An escape in JSON text: an escaped backslash (taken whole, so what follows it is not read as an escape), U+0000, or a
 * surrogate, high (with the low one after it, if any) or low.
 */
const PG_UNREADABLE_ESCAPE = /\\(\\|u0000|u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2})/g;

/**
 * JSON text PostgreSQL accepts and its json functions can read: the escapes it refuses written as `\ufffd`, the
 * replacement character. A lone surrogate (`\ud800` with no low surrogate after it, which `JSON.stringify` writes for
 * a string holding half a pair) is refused as `json` input ("invalid input syntax for type json"); U+0000 (`\u0000`)
 * is stored, but every json operator and function that reads the value (`->>`, `->`, `json_to_recordset`) refuses all
 * of it ("unsupported Unicode escape sequence"), and a log record's index expressions read every record. Either way,
 * one such character in a prompt failed the append of its whole batch of Chronicles entries, and every batch after
 * it. The text is JSON as `JSON.stringify` writes it: an escaped backslash (`\\u0000`, text that only looks like
 * the escape) and an escaped surrogate pair are left as they are. Text without such an escape is returned as it is.
 */
export function postgresJsonText(text: string): string {
  if (!text.includes('\\u0000') && !/\\u[dD][89a-fA-F]/.test(text)) return text;
  return text.replace(PG_UNREADABLE_ESCAPE, (escape, body: string) => (body === '\\' || body.length === 11 ? escape : '\\ufffd'));
}

/** Node socket errors that mean the server cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** SQLSTATEs that mean the server is unreachable or not accepting work now: connection exceptions, shutdown, too many connections, read-only. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
/** Messages node-postgres throws without a code when a connection ends, cannot be made in time, or a query gets no answer in time. */
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|Query read timeout/i;

/** A short reason for an error that means PostgreSQL cannot be reached now, or `undefined` for any other error. */
export function unavailableReason(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code))) return `SQLSTATE ${code}`;
  if (error instanceof AggregateError) return error.errors.map(unavailableReason).find((reason) => reason !== undefined);
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return 'connection lost';
  return undefined;
}

/** Rethrows an unreachable-server error as `storage_unavailable` (503, keeping the cause for logs); any other error as is. */
export function asStorageError(error: unknown): never {
  const reason = unavailableReason(error);
  if (reason !== undefined) throw Errors.storageUnavailable([`PostgreSQL: ${reason}`], { cause: error });
  throw error;
}
