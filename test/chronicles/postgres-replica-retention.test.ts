// Chronicles retention with two replicas appending to one PostgreSQL log: the maxEntries bound holds, and the age sweep never drops fresh entries.
import assert from 'node:assert/strict';
import pg from 'pg';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import type { ChroniclesOptions } from '../../src/chronicles/chronicles-options.js';
import { ChroniclesRecorder } from '../../src/chronicles/chronicles-recorder.js';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import type { StorageAdapter } from '../../src/storage/storage-adapter.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';

const entryAt = (id: string, at: number): ChronicleEntry => ({
  id, timestamp: new Date(at).toISOString(), application: 'app', kind: 'model', endpoint: '/v1/chat/completions', route: null, provider: null,
  model: null, status: 200, latency_ms: 1, stream: false, attempts: [], input: null, output: null, usage: null, guardrail_checks: [], tool_invocations: [], error: null,
});

describe('Chronicles retention on PostgreSQL with two replicas', function () {
  this.timeout(20_000);
  requirePostgres();
  let schema: string;
  let pool: pg.Pool;
  const opened: Array<{ recorder: ChroniclesRecorder; storage: Storage }> = [];

  /** A replica's recorder on its own adapter (its own pool) over the shared schema; `wrap` may hook the adapter's calls. */
  async function replica(options: ChroniclesOptions, wrap: (adapter: StorageAdapter) => StorageAdapter = (adapter) => adapter): Promise<ChroniclesRecorder> {
    const storage = new Storage(wrap(postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 2 })));
    await storage.init();
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, ...options });
    opened.push({ recorder, storage });
    return recorder;
  }

  const stored = async (): Promise<string[]> =>
    (await pool.query<{ id: string }>(`SELECT r.value->>'id' AS id FROM "${schema}".gateway_log_records r ORDER BY r.seq`)).rows.map((row) => row.id);

  beforeEach(() => {
    schema = testSchemaName();
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  });
  afterEach(async () => {
    for (const { recorder, storage } of opened.splice(0)) {
      await recorder.close();
      await storage.close();
    }
    await pool.end();
    await dropSchema(schema);
  });

  it('14.2: maxEntries holds over both replicas\' appends: the log never holds more than the documented 2 x maxEntries (at least maxEntries + 100)', async () => {
    const maxEntries = 10;
    const bound = maxEntries + Math.max(100, maxEntries);
    const [a, b] = [await replica({ retention: { maxEntries } }), await replica({ retention: { maxEntries } })];
    for (let i = 0; i < 240; i++) {
      const recorder = i % 2 === 0 ? a : b;
      recorder.record(entryAt(`e${i}`, Date.now()));
      await recorder.flush();
      const count = (await stored()).length;
      assert.ok(count <= bound, `after ${i + 1} appends the log holds ${count} records, over ${bound}`);
    }
    assert.deepEqual((await a.entries('app')).map((entry) => entry.id), Array.from({ length: maxEntries }, (_, k) => `e${230 + k}`));
  });

  it('14.2: the age sweep of one replica keeps the fresh entries another replica appends while it counts', async () => {
    const now = Date.now();
    const maxAgeMs = 3_600_000;
    const b = await replica({ retention: { maxAgeMs } });
    // Replica A's trim waits for B to append a fresh entry first: the moment between the sweep's count and its trim.
    let beforeTrim: (() => Promise<void>) | undefined;
    const hooked = (adapter: StorageAdapter): StorageAdapter => {
      const trim = async (run: () => Promise<void>): Promise<void> => {
        const hook = beforeTrim;
        beforeTrim = undefined;
        await hook?.();
        await run();
      };
      return {
        ...adapter,
        trimLog: (log, keep) => trim(() => adapter.trimLog(log, keep)),
        ...(adapter.trimLogBefore ? { trimLogBefore: (log: string, position: number) => trim(() => adapter.trimLogBefore!(log, position)) } : {}),
      };
    };
    const a = await replica({ retention: { maxAgeMs } }, hooked);
    for (let i = 0; i < 3; i++) a.record(entryAt(`stale${i}`, now - 2 * maxAgeMs));
    for (let i = 0; i < 3; i++) a.record(entryAt(`fresh${i}`, now));
    await a.flush();
    beforeTrim = async () => {
      b.record(entryAt('fresh-from-b', now));
      await b.flush();
    };
    await a.sweep();
    assert.equal(beforeTrim, undefined, 'the sweep trimmed');
    assert.deepEqual(await stored(), ['fresh0', 'fresh1', 'fresh2', 'fresh-from-b']);
    assert.ok((await a.entries('app')).some((entry) => entry.id === 'fresh-from-b'));
  });
});
