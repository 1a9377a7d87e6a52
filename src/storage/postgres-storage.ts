// PostgreSQL storage adapter on node-postgres: a key-value table and indexed append-only logs, migrated at init, for several replicas.
import pg from 'pg';
import { Errors } from '../errors/error-registry.js';
import { keyedWriteQueue } from './keyed-write-queue.js';
import { MIGRATIONS } from './postgres-migrations/index.js';
import { runMigrations } from './postgres-migrator.js';
import { asStorageError, prefixPattern, quoteIdent, unavailableReason } from './postgres-sql.js';
import type { JsonValue, LogRecord, StorageAdapter, StorageEntry, StorageWrite } from './storage-adapter.js';
import { keySegments } from './storage-key.js';

/** Options of {@link postgresStorage}: a connection string or a pool of your own. */
export interface PostgresStorageOptions {
  /** `postgres://user@host:5432/db`; the adapter makes (and on `close()` ends) its own pool. */
  connectionString?: string;
  /** A `pg.Pool` you own: the adapter uses it and leaves it open on `close()`. */
  pool?: pg.Pool;
  /** The schema holding the gateway's tables; created if missing. Default `public`. */
  schema?: string;
  /** Connections of the adapter's own pool. Default 10. */
  maxConnections?: number;
  /** How long a query waits for a connection before it fails with `storage_unavailable`, in ms. Default 5000. */
  connectionTimeoutMillis?: number;
  /** How long a query may wait for its answer before it fails with `storage_unavailable` (a hung server), in ms. Default 10,000. */
  queryTimeoutMillis?: number;
}

/** Rows deleted per statement when a log is trimmed, so a large trim never holds one long lock. */
const TRIM_BATCH = 10_000;
/** Larger than any record id: the default `from` of a newest-first read. */
const NEWEST = '9223372036854775807';

/**
 * Creates a PostgreSQL storage adapter. `init()` runs the versioned migrations once (under an advisory lock,
 * so replicas starting together migrate once). Values live in `gateway_values` (JSON text as written), logs in
 * `gateway_logs` and `gateway_log_records`, whose primary key `(log_id, id)` serves appends, newest-first pages
 * and trims; a record's position is its row id. `batch()` writes several keys in one transaction. Writes are
 * applied in call order per key and per log; an append to a log is serialised with other appends to that log
 * across replicas (a row lock on the log), so batches never interleave. When PostgreSQL cannot be reached,
 * calls fail with `storage_unavailable` (503) and work again once it is back.
 * @example
 * const gateway = createGateway({ storage: postgresStorage({ connectionString: process.env.GATEWAY_DATABASE_URL }) });
 */
export function postgresStorage(options: PostgresStorageOptions): StorageAdapter {
  if (!options.pool && !options.connectionString) throw Errors.configInvalid(['postgresStorage needs a connectionString or a pool']);
  const schema = options.schema ?? 'public';
  const ownPool = options.pool === undefined;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
      query_timeout: options.queryTimeoutMillis ?? 10_000,
      keepAlive: true,
      application_name: 'gateway-service',
    });
  // An idle connection that breaks (server restart) emits here; without a listener it would end the process.
  if (ownPool) pool.on('error', () => undefined);
  const s = quoteIdent(schema);
  const VALUES = `${s}.gateway_values`;
  const LOGS = `${s}.gateway_logs`;
  const RECORDS = `${s}.gateway_log_records`;
  const LOG_ID = `(SELECT id FROM ${LOGS} WHERE name = $1)`;
  const valueQueue = keyedWriteQueue();
  const logQueue = keyedWriteQueue();
  let closed = false;

  const open = (): void => {
    if (closed) throw Errors.storageClosed();
  };
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> =>
    pool.query<R>(text, values).catch(asStorageError);
  /** Runs `work` in one transaction on one connection. */
  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect().catch(asStorageError);
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection that broke or timed out is destroyed, never handed out again.
      broken = unavailableReason(error) !== undefined;
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      return asStorageError(error);
    } finally {
      client.release(broken);
    }
  };
  /** Inserts `records` at the end of a log, creating it; locks the log's row until the transaction ends. */
  const appendSql = `
    WITH log AS (INSERT INTO ${LOGS} (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id)
    INSERT INTO ${RECORDS} (log_id, value)
    SELECT log.id, r.value FROM log, json_array_elements($2::json) WITH ORDINALITY AS r(value, n) ORDER BY r.n`;

  /** Runs a write after earlier writes to the same keys, in call order (keys taken in sorted order, so batches cannot deadlock). */
  const inKeyOrder = <T>(keys: string[], task: () => Promise<T>): Promise<T> => {
    const sorted = [...new Set(keys)].sort();
    const take = (index: number): Promise<T> => (index === sorted.length ? task() : valueQueue.run(sorted[index]!, () => take(index + 1)));
    return take(0);
  };

  return {
    name: 'postgres',
    async init() {
      open();
      await runMigrations(pool, schema, MIGRATIONS).catch(asStorageError);
    },
    async get(key) {
      open();
      keySegments(key);
      const { rows } = await query<{ value: JsonValue }>(`SELECT value FROM ${VALUES} WHERE key = $1`, [key]);
      return rows[0]?.value;
    },
    async set(key, value) {
      open();
      keySegments(key);
      const text = JSON.stringify(value);
      return valueQueue.run(key, async () => {
        await query(
          `INSERT INTO ${VALUES} (key, value) VALUES ($1, $2::json) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          [key, text],
        );
      });
    },
    async delete(key) {
      open();
      keySegments(key);
      return valueQueue.run(key, async () => ((await query(`DELETE FROM ${VALUES} WHERE key = $1`, [key])).rowCount ?? 0) > 0);
    },
    async batch(writes: StorageWrite[]) {
      open();
      for (const write of writes) keySegments(write.key);
      const texts = writes.map((write) => (write.op === 'set' ? JSON.stringify(write.value) : undefined));
      return inKeyOrder(
        writes.map((write) => write.key),
        () =>
          transaction(async (client) => {
            for (const [index, write] of writes.entries()) {
              if (write.op === 'delete') await client.query(`DELETE FROM ${VALUES} WHERE key = $1`, [write.key]);
              else {
                await client.query(
                  `INSERT INTO ${VALUES} (key, value) VALUES ($1, $2::json) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
                  [write.key, texts[index]],
                );
              }
            }
          }),
      );
    },
    async list(prefix) {
      open();
      const { rows } = await query<StorageEntry>(`SELECT key, value FROM ${VALUES} WHERE key LIKE $1 ESCAPE '\\' ORDER BY key`, [prefixPattern(prefix)]);
      return rows;
    },
    async append(log, records) {
      open();
      keySegments(log);
      const text = JSON.stringify(records);
      return logQueue.run(log, async () => {
        await query(appendSql, [log, text]);
      });
    },
    async readLog(log) {
      open();
      keySegments(log);
      const { rows } = await query<{ value: JsonValue }>(`SELECT value FROM ${RECORDS} WHERE log_id = ${LOG_ID} ORDER BY id`, [log]);
      return rows.map((row) => row.value);
    },
    async readLogBackward(log, { from, limit }) {
      open();
      keySegments(log);
      if (from !== undefined && (!Number.isSafeInteger(from) || from < 1)) return undefined;
      const { rows } = await query<{ id: string; value: JsonValue }>(
        `SELECT id, value FROM ${RECORDS} WHERE log_id = ${LOG_ID} AND id <= $2 ORDER BY id DESC LIMIT $3`,
        [log, from === undefined ? NEWEST : String(from), Math.max(0, limit) + 1],
      );
      if (from !== undefined && Number(rows[0]?.id) !== from) return undefined;
      const records: LogRecord[] = rows.slice(0, limit).map((row) => ({ position: Number(row.id), value: row.value }));
      return rows.length > limit ? { records, next: Number(rows[limit]!.id) } : { records };
    },
    async rewriteLog(log, records) {
      open();
      keySegments(log);
      const text = JSON.stringify(records);
      return logQueue.run(log, () =>
        transaction(async (client) => {
          // The append's upsert locks the log's row first, so concurrent appends wait for the rewrite.
          await client.query(`INSERT INTO ${LOGS} (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name`, [log]);
          await client.query(`DELETE FROM ${RECORDS} WHERE log_id = ${LOG_ID}`, [log]);
          await client.query(appendSql, [log, text]);
        }),
      );
    },
    async trimLog(log, keep) {
      open();
      keySegments(log);
      return logQueue.run(log, async () => {
        // The newest record to drop, found on the primary key; then drop it and everything older, a bounded batch at a time.
        const { rows } = await query<{ log_id: string; id: string }>(
          `SELECT log_id, id FROM ${RECORDS} WHERE log_id = ${LOG_ID} ORDER BY id DESC OFFSET $2 LIMIT 1`,
          [log, Math.max(0, keep)],
        );
        const cut = rows[0];
        if (cut === undefined) return;
        for (;;) {
          const deleted = await query(
            `DELETE FROM ${RECORDS} WHERE log_id = $1 AND id IN (SELECT id FROM ${RECORDS} WHERE log_id = $1 AND id <= $2 ORDER BY id LIMIT $3)`,
            [cut.log_id, cut.id, TRIM_BATCH],
          );
          if ((deleted.rowCount ?? 0) < TRIM_BATCH) return;
        }
      });
    },
    async deleteLog(log) {
      open();
      keySegments(log);
      return logQueue.run(log, async () => ((await query(`DELETE FROM ${LOGS} WHERE name = $1`, [log])).rowCount ?? 0) > 0);
    },
    async listLogs(prefix) {
      open();
      const { rows } = await query<{ name: string }>(`SELECT name FROM ${LOGS} WHERE name LIKE $1 ESCAPE '\\' ORDER BY name`, [prefixPattern(prefix)]);
      return rows.map((row) => row.name);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([valueQueue.idle(), logQueue.idle()]);
      if (ownPool) await pool.end();
    },
  };
}
