// The start-up repair of one replica never deletes what another replica's create in progress has written before its record (a registry's pins, a provider's keys): it waits for that record's lock and looks again.
import assert from 'node:assert/strict';
import pg from 'pg';
import request from 'supertest';
import type { StorageAdapter } from '../../src/index.js';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { eventually } from '../helpers/eventually.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { dropSchema, keyLockWaiters, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

/** An adapter that holds the write of one key until released, so a test can act while a create is midway. */
function holdingWrites(inner: StorageAdapter): { adapter: StorageAdapter; hold(key: string): { reached: Promise<void>; release(): void } } {
  const holds = new Map<string, { arrived(): void; released: Promise<void> }>();
  const adapter = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== 'set') return method;
      return async (key: string, stored: unknown) => {
        const held = holds.get(key);
        if (held) {
          holds.delete(key);
          held.arrived();
          await held.released;
        }
        return method(key, stored);
      };
    },
  });
  return {
    adapter,
    hold(key) {
      let arrived!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(key, { arrived, released });
      return { reached, release };
    },
  };
}

describe('start-up repair while another replica creates (PostgreSQL)', function () {
  requirePostgres();
  this.timeout(30_000);
  let schema: string;
  let pool: pg.Pool;
  let mcp: FakeMcpServer;
  const gateways: TestGateway[] = [];

  beforeEach(async () => {
    schema = testSchemaName();
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    mcp = await startFakeMcpServer();
  });
  afterEach(async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    await mcp.close();
    await pool.end();
    await dropSchema(schema);
  });

  // As the replicas' own options do elsewhere: every key lock of a process is on one connection, so 3 are enough.
  const storageOptions = () => ({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3 });
  const admin = (t: TestGateway, method: 'get' | 'post', path: string) => request(t.app)[method](path).set('x-api-key', TEST_KEYS.admin);

  /** Resolves once some session on this schema is trying for the key lock of `key` (held by gateway A's create). */
  const waitsForLock = (key: string): Promise<void> =>
    eventually(async () => {
      assert.ok((await keyLockWaiters(pool, schema, key)) > 0, `a replica waits for the lock of ${key}`);
    }, 10_000);

  /**
   * Starts a create on gateway A and holds it at the write of its record (what it writes first is stored by then),
   * starts gateway B (its start-up repair runs) and lets A go once B waits for the record's lock, or has started.
   * Returns A's answer and gateway B.
   */
  async function startBDuringCreate(recordKey: string, create: (a: TestGateway) => Promise<request.Response>): Promise<{ created: request.Response; b: TestGateway }> {
    const holding = holdingWrites(postgresStorage(storageOptions()));
    const a = await createTestGateway({ storage: holding.adapter });
    gateways.push(a);
    const held = holding.hold(recordKey);
    const creating = create(a);
    await held.reached;
    const starting = createTestGateway({ storage: postgresStorage(storageOptions()) });
    starting.then((b) => gateways.push(b), () => undefined);
    try {
      await Promise.race([waitsForLock(recordKey), starting]);
    } finally {
      held.release();
    }
    return { created: await creating, b: await starting };
  }

  it("keeps the pins of a registry another replica is creating: the repair waits for the registry's lock", async () => {
    const { created, b } = await startBDuringCreate('mcp-registries/tools', (a) => admin(a, 'post', '/v1/admin/mcp/registries').send({ name: 'tools', url: mcp.url }).then((res) => res));
    assert.equal(created.status, 201, created.text);
    const tools = await admin(b, 'get', '/v1/admin/mcp/registries/tools/tools').expect(200);
    assert.deepEqual(tools.body.map((tool: { name: string }) => tool.name).sort(), ['add', 'echo', 'lookup']);
    for (const tool of tools.body as Array<{ name: string; pinned_fingerprint: string | null; pinned_at: string | null }>) {
      assert.ok(tool.pinned_fingerprint !== null && tool.pinned_at !== null, `${tool.name} is still pinned`);
    }
  });

  it('keeps the keys of a provider another replica is creating: the repair waits for the provider\'s lock', async () => {
    const body = { name: 'p1', type: 'openai', config: { models: ['m1'] }, api_keys: [{ api_key_secret_name: 'main', api_key: 'sk-race-0123456789' }] };
    const { created, b } = await startBDuringCreate('providers/p1', (a) => admin(a, 'post', '/v1/admin/providers').send(body).then((res) => res));
    assert.equal(created.status, 201, created.text);
    const keys = await admin(b, 'get', '/v1/admin/providers/p1/keys').set('x-gateway-namespace', 'default').expect(200);
    assert.deepEqual(keys.body.map((key: { api_key_secret_name: string }) => key.api_key_secret_name), ['main']);
  });

  it('still removes the pins of a registry that is missing, once no create holds its lock', async () => {
    const a = await createTestGateway({ storage: postgresStorage(storageOptions()) });
    gateways.push(a);
    await a.gateway.storage.set('mcp-tools/gone/add', { name: 'add', enabled: true });
    await a.gateway.storage.set('mcp-policies/gone', {});
    const b = await createTestGateway({ storage: postgresStorage(storageOptions()) });
    gateways.push(b);
    assert.deepEqual(await b.gateway.storage.list('mcp-tools/'), []);
    assert.equal(await b.gateway.storage.get('mcp-policies/gone'), undefined);
  });
});
