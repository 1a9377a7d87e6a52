// PostgreSQL storage adapter on node-postgres: a key-value table and indexed append-only logs, migrated at init, for several replicas.
import pg from 'pg';
import { PostgresChangeListener } from './postgres-change-listener.js';
import { postgresCounts } from './postgres-counts.js';
import { postgresLogTrims } from './postgres-log-trim.js';
import { guardCte } from './postgres-guard.js';
import { Errors } from '../errors/error-registry.js';
import { keyedWriteQueue } from './keyed-write-queue.js';
import { MIGRATIONS } from './postgres-migrations/index.js';
import { runMigrations } from './postgres-migrator.js';
import { asStorageError, prefixPattern, quoteIdent, unavailableReason } from './postgres-sql.js';
import type { CounterValue, JsonValue, WriteGuard, LogMatchOptions, LogPage, LogRecord, StorageAdapter, StorageEntry, StorageWrite } from './storage-adapter.js';
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

/** Larger than any position: the default `from` of a newest-first read, and the default window. */
const NEWEST = '9223372036854775807';
/** Field names `readLogMatching` accepts: they are written into the SQL (so the expression indexes apply). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A page from rows read with one row more than `limit`. */
function pageOf(rows: Array<{ seq: string; value: JsonValue }>, limit: number): LogPage {
  const records: LogRecord[] = rows.slice(0, limit).map((row) => ({ position: Number(row.seq), value: row.value }));
  return rows.length > limit ? { records, next: Number(rows[limit]!.seq) } : { records };
}

/**
 * Creates a PostgreSQL storage adapter. `init()` runs the versioned migrations once (under an advisory lock,
 * so replicas starting together migrate once). Values live in `gateway_values` (JSON text as written), logs in
 * `gateway_logs` and `gateway_log_records`, whose primary key `(log_id, seq)` serves appends, newest-first pages
 * and trims; a record's position is its `seq`, dense per log. `readLogMatching` answers Chronicles lookups on
 * expression indexes. `batch()` writes several keys in one transaction. Writes are
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
  const COUNTERS = `${s}.gateway_counters`;
  const LOG_ID = `(SELECT id FROM ${LOGS} WHERE name = $1)`;
  const valueQueue = keyedWriteQueue();
  const logQueue = keyedWriteQueue();
  let closed = false;
  const watchers: Array<(key: string | undefined) => void> = [];
  // The server process ids of this pool's connections: notices of their writes are this replica's own.
  const ownBackends = new Set<number>();
  pool.on('connect', (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid === undefined) return;
    ownBackends.add(pid);
    client.on('end', () => ownBackends.delete(pid));
  });
  const changes = new PostgresChangeListener(
    pool,
    schema,
    (key) => {
      for (const watcher of watchers) watcher(key);
    },
    (pid) => ownBackends.has(pid),
  );

  const open = (): void => {
    if (closed) throw Errors.storageClosed();
  };
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> =>
    pool.query<R>(text, values).catch(asStorageError);
  const counts = postgresCounts(query, s, VALUES);
  const trims = postgresLogTrims(query, LOGS, RECORDS);
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

  /** Appends the records of the JSON array `text` (`count` of them) to `log`, only while `guard` holds when one is given; resolves whether it wrote. */
  const appendArray = (log: string, text: string, count: number, guard?: WriteGuard): Promise<boolean> => {
    open();
    keySegments(log);
    return logQueue.run(log, async () => {
      if (!guard) {
        await query(appendSql, [log, text, count]);
        return true;
      }
      const { sql, values } = guardedAppend(guard);
      const { rows } = await query<{ ok: number }>(sql, [log, text, count, ...values]);
      return rows.length > 0;
    });
  };

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
      if (watchers.length > 0) await changes.start();
    },
    watch(listener) {
      watchers.push(listener);
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
    async addCounts(set, changes, maxItems, guard) {
      open();
      keySegments(set);
      return counts.addCounts(set, changes, maxItems, guard);
    },
    async readCounts(set) {
      open();
      keySegments(set);
      return counts.readCounts(set);
    },
    async deleteCounts(set) {
      open();
      keySegments(set);
      return counts.deleteCounts(set);
    },
    async list(prefix) {
      open();
      const { rows } = await query<StorageEntry>(`SELECT key, value FROM ${VALUES} WHERE key LIKE $1 ESCAPE '\\' ORDER BY key`, [prefixPattern(prefix)]);
      return rows;
    },
    async append(log, records) {
      await appendArray(log, JSON.stringify(records), records.length);
    },
    async appendGuarded(log, records, guard) {
      return appendArray(log, JSON.stringify(records), records.length, guard);
    },
    async appendJson(log, texts, guard) {
      return appendArray(log, `[${texts.join(',')}]`, texts.length, guard);
    },
    async readLog(log) {
      open();
      keySegments(log);
      const { rows } = await query<{ value: JsonValue }>(`SELECT value FROM ${RECORDS} WHERE log_id = ${LOG_ID} ORDER BY seq`, [log]);
      return rows.map((row) => row.value);
    },
    async readLogBackward(log, { from, limit }) {
      open();
      keySegments(log);
      if (from !== undefined && (!Number.isSafeInteger(from) || from < 1)) return undefined;
      const { rows } = await query<{ seq: string; value: JsonValue }>(
        `SELECT seq, value FROM ${RECORDS} WHERE log_id = ${LOG_ID} AND seq <= $2 ORDER BY seq DESC LIMIT $3`,
        [log, from === undefined ? NEWEST : String(from), Math.max(0, limit) + 1],
      );
      if (from !== undefined && Number(rows[0]?.seq) !== from) return undefined;
      return pageOf(rows, limit);
    },
    async readLogMatching(log: string, { from, limit, match, window }: LogMatchOptions) {
      open();
      keySegments(log);
      if (from !== undefined && (!Number.isSafeInteger(from) || from < 1)) return undefined;
      const params: unknown[] = [log, from === undefined ? NEWEST : String(from), window === undefined ? NEWEST : String(Math.max(0, window)), Math.max(0, limit) + 1];
      const conditions: string[] = [];
      const fields = Object.entries(match);
      for (const [field, value] of fields) {
        if (!FIELD_NAME.test(field)) throw Errors.storageKeyInvalid(['a matched field name is not an identifier']);
        params.push(typeof value === 'string' ? value : JSON.stringify(value));
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
    async rewriteLog(log, records) {
      open();
      keySegments(log);
      const text = JSON.stringify(records);
      return logQueue.run(log, () =>
        transaction(async (client) => {
          // The append's upsert locks the log's row first, so concurrent appends wait for the rewrite.
          await client.query(`INSERT INTO ${LOGS} (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name`, [log]);
          await client.query(`DELETE FROM ${RECORDS} WHERE log_id = ${LOG_ID}`, [log]);
          await client.query(appendSql, [log, text, records.length]);
        }),
      );
    },
    async trimLog(log, keep) {
      open();
      keySegments(log);
      return logQueue.run(log, () => trims.trimLog(log, keep));
    },
    async trimLogBefore(log, position) {
      open();
      keySegments(log);
      return logQueue.run(log, () => trims.trimLogBefore(log, position));
    },
    async deleteLog(log) {
      open();
      keySegments(log);
      return logQueue.run(log, async () => ((await query(`DELETE FROM ${LOGS} WHERE name = $1`, [log])).rowCount ?? 0) > 0);
    },
    async addCounters(increments) {
      open();
      if (increments.length === 0) return;
      // One row per counter, in key order, so concurrent upserts of several replicas cannot deadlock.
      const merged = new Map<string, CounterValue>();
      for (const increment of increments) {
        const id = JSON.stringify([increment.bucket, increment.item, increment.field]);
        const known = merged.get(id);
        if (known) known.amount += increment.amount;
        else merged.set(id, { ...increment });
      }
      const rows = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
      await query(
        `INSERT INTO ${COUNTERS} AS c (bucket, item, field, value)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[])
         ON CONFLICT (bucket, item, field) DO UPDATE SET value = c.value + EXCLUDED.value`,
        [rows.map((r) => r.bucket), rows.map((r) => r.item), rows.map((r) => r.field), rows.map((r) => r.amount)],
      );
    },
    async readCounters(from, to) {
      open();
      const { rows } = await query<{ bucket: string; item: string; field: string; value: number }>(
        `SELECT bucket, item, field, value FROM ${COUNTERS} WHERE bucket >= $1 AND bucket <= $2`,
        [from, to],
      );
      return rows.map((row) => ({ bucket: row.bucket, item: row.item, field: row.field, amount: Number(row.value) }));
    },
    async deleteCounters(bucket) {
      open();
      await query(`DELETE FROM ${COUNTERS} WHERE bucket = $1`, [bucket]);
    },
    async listLogs(prefix) {
      open();
      const { rows } = await query<{ name: string }>(`SELECT name FROM ${LOGS} WHERE name LIKE $1 ESCAPE '\\' ORDER BY name`, [prefixPattern(prefix)]);
      return rows.map((row) => row.name);
    },
    async close() {
      if (closed) return;
      closed = true;
      changes.stop();
      await Promise.all([valueQueue.idle(), logQueue.idle()]);
      if (ownPool) await pool.end();
    },
  };
}
