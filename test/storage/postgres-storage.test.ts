// Runs the storage contract against the PostgreSQL adapter on a fresh schema per test, plus migrations, batches and an unreachable server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATIONS } from '../../src/storage/postgres-migrations/index.js';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import type { StorageAdapter } from '../../src/storage/storage-adapter.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { storageContract } from './storage-contract.js';

describe('postgresStorage', () => {
  requirePostgres();

  storageContract('postgres', async () => {
    const schema = testSchemaName();
    const made: StorageAdapter[] = [];
    const open = (): StorageAdapter => {
      const adapter = postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 });
      made.push(adapter);
      return adapter;
    };
    return {
      adapter: open(),
      reopen: async () => open(),
      cleanup: async () => {
        for (const adapter of made) await adapter.close();
        await dropSchema(schema);
      },
    };
  });

  describe('on PostgreSQL', () => {
    let schema: string;
    let pool: pg.Pool;
    beforeEach(() => {
      schema = testSchemaName();
      pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 8 });
    });
    afterEach(async () => {
      await pool.end();
      await dropSchema(schema);
    });

    it('14.1: replicas starting together run each migration once (advisory lock), recorded in gateway_migrations', async () => {
      const replicas = Array.from({ length: 4 }, () => postgresStorage({ pool, schema }));
      await Promise.all(replicas.map((replica) => replica.init()));
      const { rows } = await pool.query(`SELECT version, name FROM "${schema}".gateway_migrations ORDER BY version`);
      assert.deepEqual(rows, MIGRATIONS.map(({ version, name }) => ({ version, name })));
      await replicas[0]!.set('k', 1);
      assert.equal(await replicas[3]!.get('k'), 1);
      for (const replica of replicas) await replica.close();
      // The caller's pool stays open.
      assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1);
    });

    it('14.1: refuses a schema migrated by a newer gateway', async () => {
      const storage = postgresStorage({ pool, schema });
      await storage.init();
      await pool.query(`INSERT INTO "${schema}".gateway_migrations (version, name) VALUES (999, 'future')`);
      await assert.rejects(postgresStorage({ pool, schema }).init(), /migration 999/);
      await storage.close();
    });

    it('14.1: a batch of writes is one transaction: all applied, or none when one fails', async () => {
      const adapter = postgresStorage({ pool, schema });
      await adapter.init();
      const storage = new Storage(adapter);
      await storage.set('applications/app', { name: 'app' });
      await storage.batch([
        { op: 'set', key: 'application-keys/app/k1', value: { id: 'k1' } },
        { op: 'set', key: 'developer-key-index/h1', value: { application: 'app', id: 'k1' } },
        { op: 'delete', key: 'applications/app' },
      ]);
      assert.deepEqual((await storage.list('')).map((entry) => entry.key), ['application-keys/app/k1', 'developer-key-index/h1']);
      // A key that may not exist fails the whole batch before anything is written.
      await assert.rejects(
        storage.batch([
          { op: 'set', key: 'developer-key-index/h2', value: { application: 'app', id: 'k2' } },
          { op: 'set', key: 'application-keys/app/k2\u0000', value: 1 },
        ]),
        (error: { code?: string }) => error.code === 'storage_key_invalid',
      );
      // A key too long for PostgreSQL's index fails the second write inside the transaction: the first is rolled back.
      await assert.rejects(
        storage.batch([
          { op: 'set', key: 'developer-key-index/h2', value: { application: 'app', id: 'k2' } },
          { op: 'set', key: `application-keys/app/${randomBytes(8000).toString('base64url')}`, value: 1 },
        ]),
        /index row/,
      );
      assert.equal(await storage.get('developer-key-index/h2'), undefined);
      await storage.close();
    });
  });

  describe('readLogMatching', () => {
    let schema: string;
    let storage: StorageAdapter;
    beforeEach(async () => {
      schema = testSchemaName();
      storage = postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2 });
      await storage.init();
      const records = Array.from({ length: 30 }, (_, i) => ({ id: `e${i}`, route: i % 3 === 0 ? 'a' : 'b', status: i % 5 === 0 ? 429 : 200, model: i % 2 === 0 ? 'm' : '429' }));
      await storage.append('chronicles/app', records.slice(0, 10));
      await storage.append('chronicles/app', records.slice(10));
      await storage.append('chronicles/other', [{ id: 'e0', route: 'a', status: 429, model: 'm' }]);
    });
    afterEach(async () => {
      await storage.close();
      await dropSchema(schema);
    });
    const ids = (page: { records: Array<{ value: unknown }> } | undefined) => page!.records.map((r) => (r.value as { id: string }).id);

    it('14.2: answers the newest matching records of one log, page by page, by route, status (a number) and id', async () => {
      const first = await storage.readLogMatching!('chronicles/app', { limit: 3, match: { route: 'a', status: 429 } });
      assert.deepEqual(ids(first), ['e15', 'e0']);
      assert.equal(first!.next, undefined);
      const byRoute = await storage.readLogMatching!('chronicles/app', { limit: 4, match: { route: 'a' } });
      assert.deepEqual(ids(byRoute), ['e27', 'e24', 'e21', 'e18']);
      const next = await storage.readLogMatching!('chronicles/app', { from: byRoute!.next, limit: 4, match: { route: 'a' } });
      assert.deepEqual(ids(next), ['e15', 'e12', 'e9', 'e6']);
      assert.deepEqual(ids(await storage.readLogMatching!('chronicles/app', { limit: 5, match: { id: 'e7' } })), ['e7']);
      // A number does not match the same text: model '429' is a string, status 429 a number.
      assert.deepEqual(ids(await storage.readLogMatching!('chronicles/app', { limit: 50, match: { model: 429 } })), []);
      assert.equal((await storage.readLogMatching!('chronicles/app', { limit: 50, match: { model: '429' } }))!.records.length, 15);
    });

    it('14.2: stays within the newest `window` records, refuses a position that is not a record, and refuses odd field names', async () => {
      assert.deepEqual(ids(await storage.readLogMatching!('chronicles/app', { limit: 10, match: { route: 'a' }, window: 7 })), ['e27', 'e24']);
      assert.deepEqual(ids(await storage.readLogMatching!('chronicles/app', { limit: 10, match: { id: 'e3' }, window: 20 })), []);
      const page = await storage.readLogBackward('chronicles/app', { limit: 2 });
      // `from` may name a record that does not match: the read starts there.
      assert.deepEqual(ids(await storage.readLogMatching!('chronicles/app', { from: page!.records[0]!.position, limit: 1, match: { route: 'a' } })), ['e27']);
      assert.equal(await storage.readLogMatching!('chronicles/app', { from: 10 ** 9, limit: 1, match: { route: 'a' } }), undefined);
      await storage.trimLog('chronicles/app', 5);
      assert.equal(await storage.readLogMatching!('chronicles/app', { from: 1, limit: 1, match: { route: 'a' } }), undefined);
      await assert.rejects(storage.readLogMatching!('chronicles/app', { limit: 1, match: { "route' OR 1=1 --": 'a' } }), (error: { code?: string }) => error.code === 'storage_key_invalid');
    });
  });

  describe('text PostgreSQL cannot read: U+0000 and lone surrogates', () => {
    let schema: string;
    let storage: StorageAdapter;
    beforeEach(async () => {
      schema = testSchemaName();
      storage = postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2 });
      await storage.init();
    });
    afterEach(async () => {
      await storage.close();
      await dropSchema(schema);
    });

    it('is written as U+FFFD in log records, count items and values, which stay readable, matchable and guardable', async () => {
      // A NUL and half a surrogate pair deep inside records, beside text that only looks like an escape and a whole pair.
      await storage.append('chronicles/app', [{ id: 'e1', route: 'r', input: [{ content: 'a\u0000b\ud800c' }], note: 'c:\\u0000 \\ud800 \ud83d\ude00' }]);
      await storage.appendJson!('chronicles/app', [JSON.stringify({ id: 'e2', route: 'r\u0000', input: '\udc00x' })]);
      await storage.append('chronicles/app', [{ id: 'e3', route: 'r', input: 'after' }]);
      await storage.rewriteLog('chronicles/other', [{ id: 'e4', input: '\u0000\udbff' }]);
      await storage.addCounts!('graph/app', [{ item: 'tool\u0000\ud800', add: 1, seen: '2026-01-01T00:00:00.000Z' }], 10);
      await storage.set('applications/a1', { created_at: 't1', description: 'x\ud800\u0000' });
      const page = await storage.readLogBackward('chronicles/app', { limit: 10 });
      assert.deepEqual(page!.records.map((record) => record.value), [
        { id: 'e3', route: 'r', input: 'after' },
        { id: 'e2', route: 'r\ufffd', input: '\ufffdx' },
        { id: 'e1', route: 'r', input: [{ content: 'a\ufffdb\ufffdc' }], note: 'c:\\u0000 \\ud800 \ud83d\ude00' },
      ]);
      const matching = async (match: Record<string, string>) => (await storage.readLogMatching!('chronicles/app', { limit: 10, match }))!.records.map((record) => (record.value as { id: string }).id);
      assert.deepEqual(await matching({ route: 'r' }), ['e3', 'e1']);
      // A NUL asked for is matched as it was written.
      assert.deepEqual(await matching({ route: 'r\u0000' }), ['e2']);
      assert.deepEqual(await storage.readLog('chronicles/other'), [{ id: 'e4', input: '\ufffd\ufffd' }]);
      assert.deepEqual((await storage.readCounts!('graph/app')).map((row) => row.item), ['tool\ufffd\ufffd']);
      assert.deepEqual(await storage.get('applications/a1'), { created_at: 't1', description: 'x\ufffd\ufffd' });
      // A guard reads the value it guards on with PostgreSQL's json operators.
      assert.equal(await storage.appendGuarded!('chronicles/a1', [{ id: 'g1' }], { key: 'applications/a1', equals: { created_at: 't1' } }), true);
    });
  });

  describe('unreachable', () => {
    it('14.5: answers storage_unavailable (503) when PostgreSQL cannot be reached, and works once it is reachable', async () => {
      const schema = testSchemaName();
      const down = postgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/test', schema, connectionTimeoutMillis: 1000 });
      const calls = [() => down.init(), () => down.get('k'), () => down.set('k', 1), () => down.append('l', [1]), () => down.readLogBackward('l', { limit: 1 })];
      for (const call of calls) {
        await assert.rejects(call(), (error: { code?: string; statusCode?: number }) => error.code === 'storage_unavailable' && error.statusCode === 503);
      }
      await down.close();
      const up = postgresStorage({ connectionString: TEST_DATABASE_URL, schema });
      try {
        await up.init();
        await up.set('k', 1);
        assert.equal(await up.get('k'), 1);
      } finally {
        await up.close();
        await dropSchema(schema);
      }
    });
  });
});
