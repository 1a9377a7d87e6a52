// PostgreSQL for tests: the test database URL, a probe, and throw-away schemas named gw_test_<random>.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requireService } from './require-service.js';

/** The database tests use: `GATEWAY_TEST_DATABASE_URL`, default the local `test` database. */
export const TEST_DATABASE_URL = process.env.GATEWAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Connects once and runs `SELECT 1`, failing within a few seconds when the server is not there. */
export async function probePostgres(url = TEST_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Declares that the enclosing `describe` needs PostgreSQL (see {@link requireService}). */
export function requirePostgres(url = TEST_DATABASE_URL): void {
  requireService('postgres', url, () => probePostgres(url));
}

/** A fresh schema name, `gw_test_<16 hex>`. */
export function testSchemaName(): string {
  return `gw_test_${randomBytes(8).toString('hex')}`;
}

/** Drops a schema made by a test, with everything in it. */
export async function dropSchema(schema: string, url = TEST_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * How many other sessions are trying for the key lock of `key` on `schema` (src/storage/postgres-key-lock.ts) while
 * one session holds it: sessions whose last query is the lock's try and that hold no key lock of that schema
 * themselves (a replica polling for a lock is such a session between two tries). 0 when nobody holds the lock.
 */
export async function keyLockWaiters(pool: pg.Pool, schema: string, key: string): Promise<number> {
  const { rows } = await pool.query<{ waiting: number }>(
    `WITH holder AS (
       SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND classid = hashtext($1)::oid AND objid = hashtext($2)::oid
     )
     SELECT count(*)::int AS waiting FROM pg_stat_activity activity
      WHERE activity.datname = current_database() AND activity.query LIKE 'SELECT pg_try_advisory_lock(%'
        AND EXISTS (SELECT 1 FROM holder) AND activity.pid NOT IN (SELECT pid FROM holder)
        AND NOT EXISTS (SELECT 1 FROM pg_locks mine WHERE mine.pid = activity.pid AND mine.locktype = 'advisory' AND mine.granted AND mine.classid = hashtext($1)::oid)`,
    [`gateway-service:key-lock:${schema}`, key],
  );
  return rows[0]!.waiting;
}
