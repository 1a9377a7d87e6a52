// The recorder on a failing storage: no unhandled rejection, nothing lost, and the batch written once storage recovers.
import assert from 'node:assert/strict';
import { memoryStorage, Storage, type StorageAdapter } from '../../src/index.js';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { ChroniclesRecorder } from '../../src/chronicles/chronicles-recorder.js';

const entry = (id: string): ChronicleEntry => ({
  id, timestamp: new Date().toISOString(), application: 'app', kind: 'model', endpoint: '/v1/chat/completions', route: null, provider: null,
  model: null, status: 200, latency_ms: 1, stream: false, attempts: [], input: null, output: null, usage: null, guardrail_checks: [], tool_invocations: [], error: null,
});

describe('Chronicles recorder on failing storage', () => {
  it('keeps a batch whose append failed, reports it, and writes it with the next flush', async () => {
    const inner = memoryStorage();
    let failing = true;
    // appendJson left out: the facade then parses the recorder's texts and calls this append.
    const flaky: StorageAdapter = { ...inner, appendJson: undefined, append: (log, records) => (failing ? Promise.reject(new Error('disk full')) : inner.append(log, records)) };
    const storage = new Storage(flaky);
    await storage.init();
    const errors: string[] = [];
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 5, maxBatch: 2, onError: (error) => errors.push(error.message) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      recorder.record(entry('a'));
      recorder.record(entry('b'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      assert.deepEqual(errors, ['disk full']);
      assert.deepEqual(unhandled, []);
      failing = false;
      recorder.record(entry('c'));
      await recorder.flush();
      assert.deepEqual((await recorder.entries('app')).map((e) => e.id), ['a', 'b', 'c']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await recorder.close();
      await storage.close();
    }
  });

  it('14.5: entries kept while storage failed are written by themselves once it is back, with no new request and a full buffer', async () => {
    const inner = memoryStorage();
    let failing = true;
    let appends = 0;
    const flaky: StorageAdapter = { ...inner, appendJson: undefined, append: (log, records) => (appends++, failing ? Promise.reject(new Error('storage down')) : inner.append(log, records)) };
    const storage = new Storage(flaky);
    await storage.init();
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 5, maxBatch: 10, maxPending: 3, onError: () => undefined });
    try {
      for (const id of ['a', 'b', 'c', 'd', 'e']) recorder.record(entry(id));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(appends, 1, 'while storage fails, no flush per new entry: one retry timer');
      assert.equal(recorder.dropped, 2, 'beyond the bound, entries are dropped and counted');
      failing = false;
      const deadline = Date.now() + 5000;
      while ((await inner.readLog('chronicles/app')).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const written = (await inner.readLog('chronicles/app')) as Array<{ id: string }>;
      assert.equal(written.length, 3, 'the kept entries, up to the bound, written by the retry');
      assert.equal(recorder.dropped, 2);
    } finally {
      failing = false;
      await recorder.close();
      await storage.close();
    }
  });

  it('14.5: a usage-graph write failing after an append loses no entry of the other applications in the batch', async () => {
    const inner = memoryStorage();
    const flaky: StorageAdapter = { ...inner, set: (key, value) => (key === 'chronicles-graph/a' ? Promise.reject(new Error('storage down')) : inner.set(key, value)) };
    const storage = new Storage(flaky);
    await storage.init();
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, onError: () => undefined });
    try {
      recorder.record({ ...entry('a1'), application: 'a' });
      recorder.record({ ...entry('b1'), application: 'b' });
      await assert.rejects(recorder.flush(), /storage down/);
      assert.deepEqual(((await inner.readLog('chronicles/a')) as Array<{ id: string }>).map((e) => e.id), ['a1']);
      assert.deepEqual(((await inner.readLog('chronicles/b')) as Array<{ id: string }>).map((e) => e.id), ['b1']);
    } finally {
      await recorder.close().catch(() => undefined);
      await storage.close();
    }
  });
});

describe('Chronicles recorder on slow storage', () => {
  it('writes one batch at a time: what ends meanwhile waits (at most maxPending) and goes out in one append when the slow one ends', async () => {
    const inner = memoryStorage();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const appended: number[] = [];
    const slow: StorageAdapter = { ...inner, appendJson: undefined, append: async (log, records) => (appended.push(records.length), await gate, inner.append(log, records)) };
    const storage = new Storage(slow);
    await storage.init();
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, maxBatch: 2, maxPending: 10 });
    try {
      for (let index = 0; index < 30; index++) recorder.record(entry(`e${index}`));
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(appended, [2], 'one append in flight; the next batch waits for it instead of queueing behind it');
      assert.equal(recorder.dropped, 18, 'besides the 2 being written, 10 wait (the bound); the other 18 are dropped, not queued as more batches');
      assert.equal(recorder.queued, 12, 'the queue depth counts the 2 being written with the 10 waiting');
      release();
      const deadline = Date.now() + 5000;
      while (appended.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      await recorder.flush();
      assert.deepEqual(appended, [2, 10], 'everything recorded during the slow append goes out in one append');
      assert.equal(recorder.queued, 0, 'nothing waits once both are written');
      assert.deepEqual((await recorder.entries('app')).map((e) => e.id), Array.from({ length: 12 }, (_, index) => `e${index}`));
    } finally {
      release();
      await recorder.close();
      await storage.close();
    }
  });
});

describe('Chronicles recorder on an entry JSON cannot hold', () => {
  it('reports it and never throws into the request; the entries around it are written', async () => {
    const storage = new Storage(memoryStorage());
    await storage.init();
    const errors: string[] = [];
    const recorder = new ChroniclesRecorder(storage, { flushIntervalMs: 60_000, onError: (error) => errors.push(error.message) });
    try {
      const cyclic: Record<string, unknown> = { role: 'user' };
      cyclic.self = cyclic;
      recorder.record(entry('before'));
      assert.doesNotThrow(() => recorder.record({ ...entry('cyclic'), input: cyclic }));
      assert.doesNotThrow(() => recorder.record({ ...entry('bigint'), usage: { total_tokens: 10n } as unknown as Record<string, unknown> }));
      recorder.record(entry('after'));
      await recorder.flush();
      assert.deepEqual((await storage.readLog<ChronicleEntry>('chronicles/app')).map((e) => e.id), ['before', 'after']);
      assert.equal(errors.length, 2);
    } finally {
      await recorder.close();
    }
  });
});
