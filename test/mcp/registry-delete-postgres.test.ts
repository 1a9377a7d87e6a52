// On PostgreSQL an MCP registry's delete is one transaction: a delete failing after its record's row leaves the registry whole, pins and all.
import assert from 'node:assert/strict';
import pg from 'pg';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('MCP registry delete on PostgreSQL', function () {
  this.timeout(30_000);
  requirePostgres();
  let schema: string;
  let pool: pg.Pool;
  let tools: FakeMcpServer;
  let t: TestGateway | undefined;
  beforeEach(async () => {
    schema = testSchemaName();
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    tools = await startFakeMcpServer({ token: REGISTRY_TOKEN });
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    await tools.close();
    await pool.end();
    await dropSchema(schema);
  });

  const admin = (method: 'get' | 'post' | 'put' | 'delete', url: string) => request(t!.app)[method](`/v1/admin${url}`).set('x-api-key', TEST_KEYS.superAdmin);
  const rows = async (): Promise<string[]> =>
    (await pool.query<{ key: string }>(`SELECT key FROM "${schema}".gateway_values WHERE key LIKE 'mcp-%' ORDER BY key`)).rows.map((row) => row.key);

  it('11.7: a delete whose transaction fails at a tool pin (after the record\'s row) answers 500 and leaves the record, every pin and the policies; a retry deletes them all', async () => {
    t = await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema }) });
    await admin('post', '/mcp/registries').send({ name: 'tools', url: tools.url, authorization_token: REGISTRY_TOKEN }).expect(201);
    await admin('put', '/mcp/registries/tools/policies').send({ tool_injection: { enabled: true } }).expect(200);
    const before = await rows();
    assert.deepEqual(before, ['mcp-policies/tools', 'mcp-registries/tools', 'mcp-tools/tools/add', 'mcp-tools/tools/echo', 'mcp-tools/tools/lookup']);
    // PostgreSQL itself refuses to delete one pin, inside the delete's transaction.
    await pool.query(`CREATE FUNCTION "${schema}".refuse_pin_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.key = 'mcp-tools/tools/echo' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN OLD; END $$`);
    await pool.query(`CREATE TRIGGER refuse_pin_delete BEFORE DELETE ON "${schema}".gateway_values FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_pin_delete()`);

    const failed = await admin('delete', '/mcp/registries/tools');
    assert.equal(failed.status, 500, failed.text);
    assert.equal(failed.body.error.code, 'mcp_registry_not_deleted');
    assert.deepEqual(await rows(), before, 'the transaction rolled back the record\'s delete');
    await admin('get', '/mcp/registries/tools').expect(200);

    await pool.query(`DROP TRIGGER refuse_pin_delete ON "${schema}".gateway_values`);
    await admin('delete', '/mcp/registries/tools').expect(200);
    assert.deepEqual(await rows(), []);
  });
});
