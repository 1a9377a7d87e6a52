// The example server with GATEWAY_DATABASE_URL: PostgreSQL storage, data kept across a restart, secrets sealed in the table.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import pg from 'pg';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';

const ADMIN_KEY = 'example-server-admin-key-0123456789';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    env: { ...process.env, PORT: String(port), GATEWAY_DATA_DIR: '/nonexistent/never-used', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, output: () => output };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`the example server did not start:\n${output}`);
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}

describe('examples/server.ts on PostgreSQL', function () {
  this.timeout(60_000);
  requirePostgres();
  let schema: string;
  before(() => {
    schema = testSchemaName();
  });
  after(() => dropSchema(schema));

  it('14.4: uses postgresStorage when GATEWAY_DATABASE_URL is set, keeps data across a restart, and stores provider keys sealed', async () => {
    const env = { GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATABASE_URL: TEST_DATABASE_URL, GATEWAY_DATABASE_SCHEMA: schema, GATEWAY_SECRET: 'example-secret' };
    const headers = { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' };
    let server = await startServer(env);
    assert.match(server.output(), /"storage":"postgres"/);
    const provider = { name: 'local', type: 'openai', config: { api_base: 'http://127.0.0.1:1/v1' }, api_keys: [{ api_key: 'sk-example-pg-secret-123456789' }] };
    assert.equal((await fetch(`${server.base}/v1/admin/providers`, { method: 'POST', headers, body: JSON.stringify(provider) })).status, 201);
    assert.equal(await stop(server.child), 0);

    server = await startServer(env);
    const stored = (await (await fetch(`${server.base}/v1/admin/providers/local`, { headers })).json()) as { api_keys: Array<{ api_key: string }> };
    assert.equal(stored.api_keys[0]?.api_key, 'sk-...6789');
    assert.equal(await stop(server.child), 0);

    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ value: string }>(`SELECT value::text AS value FROM "${schema}".gateway_values`);
      assert.ok(rows.length > 0);
      for (const row of rows) assert.ok(!row.value.includes('sk-example-pg-secret-123456789'), 'a provider key is stored in clear');
    } finally {
      await client.end();
    }
  });
});
