// Log reads on PostgreSQL: a whole log, newest-first pages by position, pages of records matching fields on the expression indexes, and log names.
import { Errors } from '../errors/error-registry.js';
import { prefixPattern, type PostgresTables, type Query } from './postgres-sql.js';
import type { JsonValue, LogMatchOptions, LogPage, LogRecord, StorageAdapter } from './storage-adapter.js';

/** Larger than any position: the default `from` of a newest-first read, and the default window. */
const NEWEST = '9223372036854775807';
/** Field names `readLogMatching` accepts: they are written into the SQL (so the expression indexes apply). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A page from rows read with one row more than `limit`. */
function pageOf(rows: Array<{ seq: string; value: JsonValue }>, limit: number): LogPage {
  const records: LogRecord[] = rows.slice(0, limit).map((row) => ({ position: Number(row.seq), value: row.value }));
  return rows.length > limit ? { records, next: Number(rows[limit]!.seq) } : { records };
}

/** Whether `from` cannot be a record's position (positions are whole numbers from 1). */
const invalidFrom = (from: number | undefined): boolean => from !== undefined && (!Number.isSafeInteger(from) || from < 1);

/**
 * The `readLog`, `readLogBackward`, `readLogMatching` and `listLogs` of the PostgreSQL adapter. Pages are read on the primary key
 * `(log_id, seq)` with one row more than asked, which gives `next`; `readLogMatching` writes each field name into
 * the SQL as a literal so that the expression indexes on `id`, `route`, `model` and `status` apply. The adapter
 * checks that it is open and that log names are valid before it calls them.
 */
export function postgresLogReads(query: Query, tables: PostgresTables): Required<Pick<StorageAdapter, 'readLog' | 'readLogBackward' | 'readLogMatching' | 'listLogs'>> {
  const { logs: LOGS, records: RECORDS, logId: LOG_ID } = tables;
  return {
    async readLog(log) {
      const { rows } = await query<{ value: JsonValue }>(`SELECT value FROM ${RECORDS} WHERE log_id = ${LOG_ID} ORDER BY seq`, [log]);
      return rows.map((row) => row.value);
    },
    async readLogBackward(log, { from, limit }) {
      if (invalidFrom(from)) return undefined;
      const { rows } = await query<{ seq: string; value: JsonValue }>(
        `SELECT seq, value FROM ${RECORDS} WHERE log_id = ${LOG_ID} AND seq <= $2 ORDER BY seq DESC LIMIT $3`,
        [log, from === undefined ? NEWEST : String(from), Math.max(0, limit) + 1],
      );
      if (from !== undefined && Number(rows[0]?.seq) !== from) return undefined;
      return pageOf(rows, limit);
    },
    async readLogMatching(log: string, { from, limit, match, window }: LogMatchOptions) {
      if (invalidFrom(from)) return undefined;
      const params: unknown[] = [log, from === undefined ? NEWEST : String(from), window === undefined ? NEWEST : String(Math.max(0, window)), Math.max(0, limit) + 1];
      const conditions: string[] = [];
      const fields = Object.entries(match);
      for (const [field, value] of fields) {
        if (!FIELD_NAME.test(field)) throw Errors.storageKeyInvalid(['a matched field name is not an identifier']);
        // A NUL is written as U+FFFD (see postgresJsonText), and PostgreSQL's text cannot hold one: it is matched as written.
        params.push(typeof value === 'string' ? value.replaceAll('\u0000', '\ufffd') : JSON.stringify(value));
        // The field name is written as a literal so that PostgreSQL can use the expression index on it. The JSON
        // type is checked below, not in SQL: a type condition there skews the row estimate into a sort of every match.
        conditions.push(`r.value->>'${field}' = $${params.length}`);
      }
      if (from !== undefined) {
        const found = await query(`SELECT 1 FROM ${RECORDS} WHERE log_id = ${LOG_ID} AND seq = $2`, [log, String(from)]);
        if (found.rowCount === 0) return undefined;
      }
      const { rows } = await query<{ seq: string; value: JsonValue }>(
        `SELECT r.seq, r.value FROM ${RECORDS} r
         WHERE r.log_id = ${LOG_ID} AND r.seq <= $2 AND r.seq > (SELECT last_seq FROM ${LOGS} WHERE name = $1) - $3::bigint${conditions.map((c) => ` AND ${c}`).join('')}
         ORDER BY r.seq DESC LIMIT $4`,
        params,
      );
      const page = pageOf(rows, limit);
      const sameType = (value: JsonValue): boolean =>
        fields.every(([field, expected]) => typeof (value as Record<string, unknown>)[field] === typeof expected);
      return { ...page, records: page.records.filter((record) => sameType(record.value)) };
    },
    async listLogs(prefix) {
      const { rows } = await query<{ name: string }>(`SELECT name FROM ${LOGS} WHERE name LIKE $1 ESCAPE '\\' ORDER BY name`, [prefixPattern(prefix)]);
      return rows.map((row) => row.name);
    },
  };
}
