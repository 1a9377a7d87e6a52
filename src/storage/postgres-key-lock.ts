// Key locks every replica on one PostgreSQL schema shares: session advisory locks, all on one connection per process, taken by polling.
import type pg from 'pg';
import { Errors } from '../errors/error-registry.js';
import { asStorageError, unavailableReason } from './postgres-sql.js';
import { keySegments } from './storage-key.js';

/** The lock's first key is this text and the schema: replicas of one schema share their locks, other schemas and other users of the database do not. */
const LOCK_NAMESPACE = 'gateway-service:key-lock:';
/** How long to wait between two tries of a lock another replica holds, in ms (at most; the last wait ends at the deadline). */
const RETRY_MS = 25;

/** Runs work while holding one key's lock (see {@link postgresKeyLocks}). */
export type KeyLockRunner = <T>(key: string, work: () => Promise<T>) => Promise<T>;

/** The one connection that holds this process's key locks, and how many locks are held or asked for on it. */
interface LockSession {
  client: pg.PoolClient;
  users: number;
  broken: boolean;
}

/**
 * Locks keyed by storage key, shared by every process using `schema`: `pg_try_advisory_lock` on (the schema, the key),
 * tried every few ms until it is granted or `waitMillis` have passed (then `storage_busy`, 503, and `work` does not
 * run), and `pg_advisory_unlock` once `work` has settled. Every lock of this process is taken on one connection of
 * `pool`, checked out while any lock is held or asked for and returned when none is: a lock never waits for a pool
 * connection that the work under another lock holds, however deep locks nest (a developer key's under its
 * application) or many keys are locked at once. `work` itself runs its queries on the pool's other connections. A
 * connection that breaks releases its locks on the server; the work already running goes on. A key no name could
 * make runs its work without a lock: the work's own reads and writes refuse or miss it.
 */
export function postgresKeyLocks(pool: pg.Pool, schema: string, waitMillis: number): KeyLockRunner {
  const namespace = LOCK_NAMESPACE + schema;
  const wait = Math.max(1, Math.round(waitMillis));
  /** The session locks are taken on now, and the connection being made for it when there is none. */
  let active: LockSession | undefined;
  let connecting: Promise<LockSession> | undefined;

  const join = async (): Promise<LockSession> => {
    if (!active) {
      connecting ??= pool.connect().then(
        (client) => {
          connecting = undefined;
          return (active = { client, users: 0, broken: false });
        },
        (error) => {
          connecting = undefined;
          return asStorageError(error);
        },
      );
      await connecting;
    }
    const joined = active;
    // The session broke (and was let go) between the connection and this turn: take a new one.
    if (!joined) return join();
    joined.users++;
    return joined;
  };
  const leave = (joined: LockSession): void => {
    if (--joined.users > 0) return;
    if (active === joined) active = undefined;
    joined.client.release(joined.broken);
  };
  /** Runs one query on the session; a broken connection ends the session: later locks are taken on a new one. */
  const query = async (joined: LockSession, text: string, values: unknown[]): Promise<pg.QueryResult> => {
    try {
      return await joined.client.query(text, values);
    } catch (error) {
      if (unavailableReason(error) !== undefined) {
        joined.broken = true;
        if (active === joined) active = undefined;
      }
      return asStorageError(error);
    }
  };

  return async function withKeyLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    try {
      keySegments(key);
    } catch {
      return work();
    }
    const joined = await join();
    const args = [namespace, key];
    try {
      const deadline = performance.now() + wait;
      for (;;) {
        const { rows } = await query(joined, 'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked', args);
        if (rows[0]?.locked === true) break;
        const left = deadline - performance.now();
        if (left <= 0) throw Errors.storageBusy([wait], { headers: { 'Retry-After': '1' } });
        await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, left)));
      }
      try {
        return await work();
      } finally {
        // The work's writes are on other connections and already made: an unlock that fails means the lock went with its connection.
        if (!joined.broken) await query(joined, 'SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', args).catch(() => undefined);
      }
    } finally {
      leave(joined);
    }
  };
}
