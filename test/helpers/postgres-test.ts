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
