// Issue 14: the Chronicles usage graph on PostgreSQL is one atomic UPSERT per batch: two replicas recording tool calls at once lose no count.
import assert from 'node:assert/strict';
import pg from 'pg';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { ChroniclesRecorder } from '../../src/chronicles/chronicles-recorder.js';
import { MIGRATIONS } from '../../src/storage/postgres-migrations/index.js';
import { runMigrations } from '../../src/storage/postgres-migrator.js';
import { postgresStorage } from '../../src/storage/postgres-storage.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';

const toolCall = (id: string, tools: string[], timestamp: string): ChronicleEntry => ({
  id, timestamp, application: 'app', kind: 'tool', endpoint: '/v1/mcp/tools', route: null, provider: 'tools', model: null, status: 200,
  latency_ms: 1, stream: false, attempts: [], input: null, output: null, usage: null, guardrail_checks: [], error: null,
  tool_invocations: tools.map((tool) => ({ tool, registry: 'tools', arguments: {}, latency_ms: 1, guardrail_checks: [] })),
});

describe('14.2 usage graph on PostgreSQL', function () {
  this.timeout(30_000);
  requirePostgres();
  let schema: string;
  const opened: Storage[] = [];
  const replica = async (): Promise<Storage> => {
    const storage = new Storage(postgresStorage({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4 }));
    await storage.init();
    opened.push(storage);
    return storage;
  };
  beforeEach(() => {
    schema = testSchemaName();
  });
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
    await dropSchema(schema);
  });

  it('14.2: two replicas recording tool calls at once lose no count, and last_used is the newest of both', async () => {
    const [one, two] = [await replica(), await replica()];
    // A flush per entry: many small read-modify-writes of the same graph from both replicas, interleaved.
    const recorders = [one, two].map((storage) => new ChroniclesRecorder(storage, { flushIntervalMs: 1, maxBatch: 1 }));
    try {
      for (let i = 0; i < 150; i++) {
        for (const [r, recorder] of recorders.entries()) {
          const second = String(i % 60).padStart(2, '0');
          recorder.record(toolCall(`${r}-${i}`, i % 3 === 0 ? ['lookup', 'add'] : ['lookup'], `2030-01-01T00:${r === 0 ? '01' : '02'}:${second}.000Z`));
        }
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(recorders.map((recorder) => recorder.flush()));
      for (const recorder of recorders) {
        const nodes = Object.fromEntries((await recorder.graph('app')).nodes.map((node) => [node.tool, node]));
        assert.deepEqual(nodes.lookup, { tool: 'lookup', server: 'tools', requests: 300, last_used: '2030-01-01T00:02:59.000Z' });
        assert.deepEqual(nodes.add, { tool: 'add', server: 'tools', requests: 100, last_used: '2030-01-01T00:02:57.000Z' });
      }
    } finally {
      for (const recorder of recorders) await recorder.close();
    }
  });

  it('14.2: a count set keeps its most recently seen items within the bound; deleting the application forgets its graph', async () => {
    const storage = await replica();
    await storage.addCounts('chronicles-graph/app', [{ item: '["s","a"]', add: 1, seen: '2030-01-01T00:00:01.000Z' }, { item: '["s","b"]', add: 2, seen: '2030-01-01T00:00:02.000Z' }], 2);
    await storage.addCounts('chronicles-graph/app', [{ item: '["s","c"]', add: 1, seen: '2030-01-01T00:00:03.000Z' }, { item: '["s","b"]', add: 1, seen: '2030-01-01T00:00:00.000Z' }], 2);
    assert.deepEqual(await storage.readCounts('chronicles-graph/app'), [
      { item: '["s","c"]', count: 1, seen: '2030-01-01T00:00:03.000Z' },
      { item: '["s","b"]', count: 3, seen: '2030-01-01T00:00:02.000Z' },
    ]);
    const recorder = new ChroniclesRecorder(storage);
    await recorder.forget('app');
    assert.deepEqual(await storage.readCounts('chronicles-graph/app'), []);
    await recorder.close();
  });

  it('14.2: a graph stored as a value before migration 3 becomes its count set', async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    try {
      await runMigrations(pool, schema, MIGRATIONS.slice(0, 2));
      await pool.query(`INSERT INTO "${schema}".gateway_values (key, value) VALUES ('chronicles-graph/app', $1::json)`, [
        JSON.stringify({ nodes: [{ tool: 'lookup', server: 'tools', requests: 7, last_used: '2030-01-01T00:00:09.000Z' }] }),
      ]);
    } finally {
      await pool.end();
    }
    const storage = await replica();
    const recorder = new ChroniclesRecorder(storage);
    assert.deepEqual(await recorder.graph('app'), { nodes: [{ tool: 'lookup', server: 'tools', requests: 7, last_used: '2030-01-01T00:00:09.000Z' }] });
    assert.equal(await storage.get('chronicles-graph/app'), undefined);
    await recorder.close();
  });
});
