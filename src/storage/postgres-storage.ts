// PostgreSQL storage adapter on node-postgres: a key-value table and indexed append-only logs, migrated at init, for several replicas.
import type pg from 'pg';
import { Errors } from '../errors/error-registry.js';
import { PostgresChangeListener } from './postgres-change-listener.js';
import { postgresCounters } from './postgres-counters.js';
import { postgresCounts } from './postgres-counts.js';
import { postgresLogReads } from './postgres-log-reads.js';
import { postgresLogWrites } from './postgres-log-writes.js';
import { MIGRATIONS } from './postgres-migrations/index.js';
import { runMigrations } from './postgres-migrator.js';
import { postgresKeyLocks } from './postgres-key-lock.js';
import { adapterPool, poolTransactions } from './postgres-pool.js';
import { asStorageError, postgresTables, type Query } from './postgres-sql.js';
import type { PostgresStorageOptions } from './postgres-storage-options.js';
import { postgresValues } from './postgres-values.js';
import type { StorageAdapter } from './storage-adapter.js';
import { keySegments } from './storage-key.js';

/**
 * Creates a PostgreSQL storage adapter. `init()` runs the versioned migrations once (under an advisory lock,
 * so replicas starting together migrate once). Values live in `gateway_values` (JSON text as written), logs in
 * `gateway_logs` and `gateway_log_records`, whose primary key `(log_id, seq)` serves appends, newest-first pages
 * and trims; a record's position is its `seq`, dense per log. `readLogMatching` answers Chronicles lookups on
 * expression indexes. `batch()` writes several keys in one transaction. `withKeyLock()` (an advisory lock per key)
 * serialises the facade's read-modify-write of one key across replicas. Writes are
 * applied in call order per key and per log; an append to a log is serialised with other appends to that log
 * across replicas (a row lock on the log), so batches never interleave. When PostgreSQL cannot be reached,
 * calls fail with `storage_unavailable` (503) and work again once it is back.
 * @example
 * const gateway = createGateway({ storage: postgresStorage({ connectionString: process.env.GATEWAY_DATABASE_URL }) });
 */
export function postgresStorage(options: PostgresStorageOptions): StorageAdapter {
  if (!options.pool && !options.connectionString) throw Errors.configInvalid(['postgresStorage needs a connectionString or a pool']);
  const schema = options.schema ?? 'public';
  const { pool, ownPool, ownBackends } = adapterPool(options);
  const tables = postgresTables(schema);
  let closed = false;
  const watchers: Array<(key: string | undefined) => void> = [];
  const changes = new PostgresChangeListener(
    pool,
    schema,
    (key) => {
      for (const watcher of watchers) watcher(key);
    },
    (pid) => ownBackends.has(pid),
    options.listenCheckMillis,
  );

  const open = (): void => {
    if (closed) throw Errors.storageClosed();
  };
  const query: Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => pool.query<R>(text, values).catch(asStorageError);
  const transaction = poolTransactions(pool);
  const values = postgresValues(query, transaction, tables.values);
  const logWrites = postgresLogWrites(query, transaction, tables);
  const logReads = postgresLogReads(query, tables);
  const counts = postgresCounts(query, tables.schema, tables.values);
  const counters = postgresCounters(query, tables);
  /** `method` of a module, called once the adapter is checked open. */
  const opened =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      open();
      return method(...args);
    };
  /** `method` of a module, called once the adapter is checked open and its first argument (a key, a log or a count set) valid. */
  const keyed =
    <A extends unknown[], R>(method: (name: string, ...rest: A) => Promise<R>) =>
    async (name: string, ...rest: A): Promise<R> => {
      open();
      keySegments(name);
      return method(name, ...rest);
    };
  const append = keyed(logWrites.append);
  const withKeyLock = postgresKeyLocks(pool, schema, options.lockWaitMillis ?? 8000);

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
    withKeyLock(key, work) {
      open();
      return withKeyLock(key, work);
    },
    get: keyed(values.get),
    set: keyed(values.set),
    delete: keyed(values.delete),
    async batch(writes) {
      open();
      for (const write of writes) keySegments(write.key);
      return values.batch(writes);
    },
    addCounts: keyed(counts.addCounts),
    readCounts: keyed(counts.readCounts),
    deleteCounts: keyed(counts.deleteCounts),
    list: opened(values.list),
    async append(log, records) {
      await append(log, JSON.stringify(records), records.length);
    },
    async appendGuarded(log, records, guard) {
      return append(log, JSON.stringify(records), records.length, guard);
    },
    async appendJson(log, texts, guard) {
      return append(log, `[${texts.join(',')}]`, texts.length, guard);
    },
    readLog: keyed(logReads.readLog),
    readLogBackward: keyed(logReads.readLogBackward),
    readLogMatching: keyed(logReads.readLogMatching),
    rewriteLog: keyed(logWrites.rewrite),
    trimLog: keyed(logWrites.trimLog),
    trimLogBefore: keyed(logWrites.trimLogBefore),
    deleteLog: keyed(logWrites.deleteLog),
    addCounters: opened(counters.addCounters),
    readCounters: opened(counters.readCounters),
    deleteCounters: opened(counters.deleteCounters),
    listLogs: opened(logReads.listLogs),
    async close() {
      if (closed) return;
      closed = true;
      changes.stop();
      await Promise.all([values.idle(), logWrites.idle()]);
      if (ownPool) await pool.end();
    },
  };
}
