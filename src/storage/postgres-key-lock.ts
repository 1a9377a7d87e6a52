// Key locks every replica on one PostgreSQL schema shares: a transaction-level advisory lock held while the facade's locked work runs.
import type pg from 'pg';
import { Errors } from '../errors/error-registry.js';
import { asStorageError, unavailableReason } from './postgres-sql.js';
import { keySegments } from './storage-key.js';

/** The lock's first key is this text and the schema: replicas of one schema share their locks, other schemas and other users of the database do not. */
const LOCK_NAMESPACE = 'gateway-service:key-lock:';
/** SQLSTATE lock_not_available: `lock_timeout` ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Runs work while holding one key's lock (see {@link postgresKeyLocks}). */
export type KeyLockRunner = <T>(key: string, work: () => Promise<T>) => Promise<T>;

/**
 * Locks keyed by storage key, shared by every process using `schema`: `pg_advisory_xact_lock` on a connection of
 * `pool`, in a transaction that stays open while `work` runs (on other connections) and is committed after it, which
 * releases the lock; a connection that breaks releases it too. A wait longer than `waitMillis` fails with
 * `storage_busy` (503) and runs nothing. Each lock held takes one connection of the pool for as long as its work runs.
 * A key no name could make runs its work without a lock: the work's own reads and writes refuse or miss it.
 */
export function postgresKeyLocks(pool: pg.Pool, schema: string, waitMillis: number): KeyLockRunner {
  const namespace = LOCK_NAMESPACE + schema;
  const wait = Math.max(1, Math.round(waitMillis));
  return async function withKeyLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    try {
      keySegments(key);
    } catch {
      return work();
    }
    const client = await pool.connect().catch(asStorageError);
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = ${wait}`);
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [namespace, key]);
    } catch (error) {
      const broken = unavailableReason(error) !== undefined;
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      client.release(broken);
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) throw Errors.storageBusy([wait], { cause: error, headers: { 'Retry-After': '1' } });
      return asStorageError(error);
    }
    try {
      return await work();
    } finally {
      // The work's writes are on other connections and already made: a failed COMMIT only means the lock went with its connection.
      const committed = await client.query('COMMIT').then(
        () => true,
        () => false,
      );
      client.release(!committed);
    }
  };
}
