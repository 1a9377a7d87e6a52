// Log writes on PostgreSQL: appends (guarded or not), rewrites, trims and deletes, applied in call order per log and serialised across replicas.
import { keyedWriteQueue } from './keyed-write-queue.js';
import { guardCte } from './postgres-guard.js';
import { postgresLogTrims } from './postgres-log-trim.js';
import type { Transaction } from './postgres-pool.js';
import { postgresJsonText, type PostgresTables, type Query } from './postgres-sql.js';
import type { JsonValue, WriteGuard } from './storage-adapter.js';

/** The log writes of the PostgreSQL adapter (see {@link postgresLogWrites}). */
export interface PostgresLogWrites {
  /** Appends the records of the JSON array `text` (`count` of them) to `log`, only while `guard` holds when one is given; resolves whether it wrote. */
  append(log: string, text: string, count: number, guard?: WriteGuard): Promise<boolean>;
  /** Replaces every record of `log` with `records`, in one transaction. */
  rewrite(log: string, records: JsonValue[]): Promise<void>;
  /** Keeps the newest `keep` records of `log`. */
  trimLog(log: string, keep: number): Promise<void>;
  /** Drops the record at `position` of `log` and every older one. */
  trimLogBefore(log: string, position: number): Promise<void>;
  /** Deletes `log` and its records; resolves whether it existed. */
  deleteLog(log: string): Promise<boolean>;
  /** Resolves once no log write is queued or running. */
  idle(): Promise<void>;
}

/**
 * The log writes of the PostgreSQL adapter on `gateway_logs` and `gateway_log_records`, queued per log in call order.
 * A record's position is its `seq`, dense per log. An append to a log is serialised with other appends to that log
 * across replicas (the upsert of the log's row locks it until the transaction ends), so batches never interleave.
 * The adapter checks that it is open and that log names are valid before it calls them.
 */
export function postgresLogWrites(query: Query, transaction: Transaction, tables: PostgresTables): PostgresLogWrites {
  const { values: VALUES, logs: LOGS, records: RECORDS, logId: LOG_ID } = tables;
  const queue = keyedWriteQueue();
  const trims = postgresLogTrims(query, LOGS, RECORDS);
  /**
   * Inserts `$3` records (the JSON array `$2`) at the end of log `$1`, creating it. Positions continue the log's
   * `last_seq`; the upsert locks the log's row until the transaction ends, so appends never interleave.
   */
  const appendSql = `
    WITH log AS (
      INSERT INTO ${LOGS} AS lg (name, last_seq) VALUES ($1, $3::bigint)
      ON CONFLICT (name) DO UPDATE SET last_seq = lg.last_seq + EXCLUDED.last_seq RETURNING id, last_seq)
    INSERT INTO ${RECORDS} (log_id, seq, value)
    SELECT log.id, log.last_seq - $3::bigint + r.n, r.value FROM log, json_array_elements($2::json) WITH ORDINALITY AS r(value, n)`;

  /** {@link appendSql} only when the guard holds: the log's row is upserted from the guard's row, so no guard, no write. */
  const guardedAppend = (guard: WriteGuard): { sql: string; values: unknown[] } => {
    const cte = guardCte(VALUES, guard, 4);
    return {
      sql: `
    WITH ${cte.sql},
    log AS (
      INSERT INTO ${LOGS} AS lg (name, last_seq) SELECT $1, $3::bigint FROM guard
      ON CONFLICT (name) DO UPDATE SET last_seq = lg.last_seq + EXCLUDED.last_seq RETURNING id, last_seq),
    written AS (
      INSERT INTO ${RECORDS} (log_id, seq, value)
      SELECT log.id, log.last_seq - $3::bigint + r.n, r.value FROM log, json_array_elements($2::json) WITH ORDINALITY AS r(value, n))
    SELECT 1 AS ok FROM log`,
      values: cte.values,
    };
  };

  return {
    append(log, raw, count, guard) {
      const text = postgresJsonText(raw);
      return queue.run(log, async () => {
        if (!guard) {
          await query(appendSql, [log, text, count]);
          return true;
        }
        const { sql, values } = guardedAppend(guard);
        const { rows } = await query<{ ok: number }>(sql, [log, text, count, ...values]);
        return rows.length > 0;
      });
    },
    rewrite(log, records) {
      const text = postgresJsonText(JSON.stringify(records));
      return queue.run(log, () =>
        transaction(async (client) => {
          // The append's upsert locks the log's row first, so concurrent appends wait for the rewrite.
          await client.query(`INSERT INTO ${LOGS} (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name`, [log]);
          await client.query(`DELETE FROM ${RECORDS} WHERE log_id = ${LOG_ID}`, [log]);
          await client.query(appendSql, [log, text, records.length]);
        }),
      );
    },
    trimLog: (log, keep) => queue.run(log, () => trims.trimLog(log, keep)),
    trimLogBefore: (log, position) => queue.run(log, () => trims.trimLogBefore(log, position)),
    deleteLog: (log) => queue.run(log, async () => ((await query(`DELETE FROM ${LOGS} WHERE name = $1`, [log])).rowCount ?? 0) > 0),
    idle: () => queue.idle(),
  };
}
