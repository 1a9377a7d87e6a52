// The PostgreSQL adapter's connection pool (its own or the caller's), the server processes of its connections, and transactions on it.
import pg from 'pg';
import { asStorageError, unavailableReason } from './postgres-sql.js';
import type { PostgresStorageOptions } from './postgres-storage-options.js';

/** The pool an adapter queries. */
export interface AdapterPool {
  pool: pg.Pool;
  /** The adapter made the pool, and ends it on `close()`. */
  ownPool: boolean;
  /** The server process ids of the pool's open connections: notices of their writes are this replica's own. */
  ownBackends: ReadonlySet<number>;
}

/** Runs `work` in one transaction on one connection, and resolves what it resolves. */
export type Transaction = <T>(work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;

/**
 * The pool of the options: the caller's, or one of the adapter's own (ended on `close()`), which keeps connections
 * alive and bounds the wait for a connection and for each answer.
 */
export function adapterPool(options: PostgresStorageOptions): AdapterPool {
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
  const ownBackends = new Set<number>();
  pool.on('connect', (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid === undefined) return;
    ownBackends.add(pid);
    client.on('end', () => ownBackends.delete(pid));
  });
  return { pool, ownPool, ownBackends };
}

/** Transactions on `pool`; a connection that broke or timed out is destroyed, never handed out again. */
export function poolTransactions(pool: pg.Pool): Transaction {
  return async (work) => {
    const client = await pool.connect().catch(asStorageError);
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = unavailableReason(error) !== undefined;
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      return asStorageError(error);
    } finally {
      client.release(broken);
    }
  };
}
