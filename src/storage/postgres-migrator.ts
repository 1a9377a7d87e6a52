// Runs the PostgreSQL migrations once per schema, under an advisory lock so replicas starting together do not race.
import type { Pool } from 'pg';
import type { Migration } from './postgres-migrations/index.js';
import { quoteIdent } from './postgres-sql.js';

/** The advisory lock's first key: the same for every gateway, so unrelated advisory locks of the database do not collide. */
const LOCK_NAMESPACE = 'gateway-service:migrations';

/**
 * Applies the migrations `schema` has not recorded yet, in one transaction: it takes a transaction-level
 * advisory lock keyed by the schema name, creates the schema and the `gateway_migrations` table if missing,
 * then runs and records each pending migration in order. A second replica waits on the lock and then finds
 * nothing to do. Refuses a schema migrated by a newer gateway (an unknown version). Returns the versions applied.
 * @example
 * await runMigrations(pool, 'public', MIGRATIONS);
 */
export async function runMigrations(pool: Pool, schema: string, migrations: readonly Migration[]): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  let failure: unknown;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [LOCK_NAMESPACE, schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS gateway_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM gateway_migrations');
    const done = new Set(rows.map((row) => row.version));
    const known = new Set(migrations.map((migration) => migration.version));
    const unknown = [...done].filter((version) => !known.has(version));
    if (unknown.length > 0) {
      throw new Error(`The schema ${schema} holds migration ${Math.max(...unknown)}, which this gateway does not know: it was migrated by a newer version.`);
    }
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO gateway_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    failure = error;
    throw error;
  } finally {
    client.release(failure instanceof Error ? failure : undefined);
  }
}
