// Key locks shared by replicas on PostgreSQL: a second replica's locked work waits for the first's, a long wait is a 503, and concurrent creates of one name give one 201.
import assert from 'node:assert/strict';
import pg from 'pg';
import request from 'supertest';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { eventually } from '../helpers/eventually.js';
import { startFakeMcpServer } from '../helpers/fake-mcp-server.js';
import { dropSchema, keyLockWaiters, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Holds `key`'s lock through `storage` until `release()`; resolves once the lock is held. `done` settles when the work has ended. */
async function holdLock(storage: Storage, key: string): Promise<{ release: () => Promise<void> }> {
  const held = gate();
  const released = gate();
  const done = storage.locked(key, async () => {
    held.open();
    await released.opened;
  });
  await held.opened;
  return {
    release: async () => {
      released.open();
      await done;
    },
  };
}

describe('key locks shared by replicas on PostgreSQL', function () {
  requirePostgres();
  let schema: string;
  let pool: pg.Pool;
  const facades: Storage[] = [];

  /** One more replica's storage facade on the test schema. */
  async function replica(lockWaitMillis?: number): Promise<Storage> {
    const storage = new Storage(postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3, lockWaitMillis }));
    await storage.init();
    facades.push(storage);
    return storage;
  }

  /** Resolves once another replica is trying for the lock of `key` that one holds: its locked work is queued. */
  const someoneWaits = (key: string): Promise<void> =>
    eventually(async () => {
      assert.ok((await keyLockWaiters(pool, schema, key)) > 0, 'a replica waits for the lock');
    }, 5000);

  beforeEach(() => {
    schema = testSchemaName();
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  });
  afterEach(async () => {
    for (const storage of facades.splice(0)) await storage.close();
    await pool.end();
    await dropSchema(schema);
  });

  it("runs a second replica's locked work on a key only after the first replica's has ended", async () => {
    const [a, b] = [await replica(), await replica()];
    const held = gate();
    const release = gate();
    const order: string[] = [];
    const first = a.locked('applications/shop', async () => {
      order.push('a starts');
      held.open();
      await release.opened;
      await a.set('applications/shop', { name: 'shop', by: 'a' });
      order.push('a ends');
    });
    await held.opened;
    const second = b.update<{ name: string; by: string }>('applications/shop', (current) => {
      order.push(`b reads ${current?.by ?? 'nothing'}`);
      return { name: 'shop', by: `b after ${current?.by ?? 'nothing'}` };
    });
    try {
      // Wait until b is queued on the lock (seen in pg_locks), or has run ahead, which the order below then shows.
      await Promise.race([someoneWaits('applications/shop'), second]);
      assert.deepEqual(order, ['a starts'], 'b waits while a holds the lock');
    } finally {
      release.open();
      await Promise.all([first, second]);
    }
    assert.deepEqual(order, ['a starts', 'a ends', 'b reads a']);
    assert.deepEqual(await a.get('applications/shop'), { name: 'shop', by: 'b after a' });
  });

  it('lets locked work on other keys run at once', async () => {
    const [a, b] = [await replica(), await replica()];
    const first = await holdLock(a, 'applications/one');
    try {
      assert.equal(await b.locked('applications/two', async () => 'ran'), 'ran');
    } finally {
      await first.release();
    }
  });

  it('answers storage_busy (503) and runs nothing when the other replica holds the lock longer than lockWaitMillis', async () => {
    const a = await replica();
    const b = await replica(200);
    const first = await holdLock(a, 'routes/chat');
    let ran = false;
    try {
      await assert.rejects(
        b.locked('routes/chat', async () => {
          ran = true;
        }),
        (error: { code?: string; statusCode?: number; headers?: Record<string, string> }) => error.code === 'storage_busy' && error.statusCode === 503 && error.headers?.['Retry-After'] === '1',
      );
      assert.equal(ran, false);
    } finally {
      await first.release();
    }
    // The lock is free again, and b's connection went back to its pool.
    assert.equal(await b.locked('routes/chat', async () => 'ran'), 'ran');
  });

  it('nests locks without waiting for pool connections: a registry of three tools is created, and a key updated, on a pool of 3', async () => {
    // The change listener keeps one of the 3; the registry's lock and each tool pin's nested lock share one more.
    const mcp = await startFakeMcpServer();
    const t = await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3, connectionTimeoutMillis: 3000 }) });
    try {
      const admin = (method: 'post' | 'put' | 'get', path: string) => request(t.app)[method](path).set('x-api-key', TEST_KEYS.admin);
      await admin('post', '/v1/admin/mcp/registries').send({ name: 'tools', url: mcp.url }).expect(201);
      const tools = await admin('get', '/v1/admin/mcp/registries/tools/tools').expect(200);
      assert.equal(tools.body.length, 3);
      await admin('post', '/v1/admin/applications').send({ name: 'shop' }).expect(201);
      const key = await admin('post', '/v1/admin/applications/shop/keys').send({}).expect(201);
      await admin('put', `/v1/admin/applications/shop/keys/${key.body.id}`).send({ name: 'renamed' }).expect(200);
    } finally {
      await t.close();
      await mcp.close();
    }
  });

  describe('two gateways on one schema', () => {
    const gateways: TestGateway[] = [];
    afterEach(async () => {
      for (const gateway of gateways.splice(0)) await gateway.close();
    });

    it('answers one 201 and one 409 when both replicas create the same application at once', async () => {
      for (let index = 0; index < 2; index++) {
        gateways.push(await createTestGateway({ storage: postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 3 }) }));
      }
      const names = Array.from({ length: 8 }, (_, index) => `race-${index}`);
      for (const name of names) {
        const answers = await Promise.all(
          gateways.map((replica, index) =>
            request(replica.app)
              .post('/v1/admin/applications')
              .set('x-api-key', TEST_KEYS.admin)
              .send({ name, description: `made through replica ${index}` }),
          ),
        );
        assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409], `${name}: ${answers.map((answer) => answer.text).join(' / ')}`);
        const winner = answers.findIndex((answer) => answer.status === 201);
        const stored = await request(gateways[1 - winner]!.app).get(`/v1/admin/applications/${name}`).set('x-api-key', TEST_KEYS.admin).expect(200);
        assert.equal(stored.body.description, `made through replica ${winner}`, 'the record is the one whose create was answered 201');
      }
    });
  });
});
