// The example server with GATEWAY_DATABASE_URL: PostgreSQL storage, data kept across a restart, secrets sealed in the table.
import assert from 'node:assert/strict';
import pg from 'pg';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { startExampleServer, stopExampleServer } from '../helpers/example-server-process.js';

const ADMIN_KEY = 'example-server-admin-key-0123456789';

const startServer = (env: Record<string, string>) => startExampleServer({ GATEWAY_DATA_DIR: '/nonexistent/never-used', ...env });
const stop = stopExampleServer;

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
