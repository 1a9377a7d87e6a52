// Runs the storage contract against the file adapter, plus its on-disk behaviour: corruption, torn logs and kill -9.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileStorage } from '../../src/storage/file-storage.js';
import type { StorageAdapter } from '../../src/storage/storage-adapter.js';
import { payloadSum, WRITER_KEYS, WRITER_LOG } from '../helpers/storage-writer-child.js';
import { storageContract } from './storage-contract.js';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const childScript = fileURLToPath(new URL('../helpers/storage-writer-child.ts', import.meta.url));

function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'gateway-file-storage-'));
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => (error as { code?: unknown }).code === code);
}

storageContract('file', async () => {
  const dir = await tempDir();
  const made: StorageAdapter[] = [];
  const open = (): StorageAdapter => {
    const adapter = fileStorage({ dir });
    made.push(adapter);
    return adapter;
  };
  return {
    adapter: open(),
    reopen: async () => open(),
    cleanup: async () => {
      for (const adapter of made) await adapter.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('fileStorage on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores one JSON file per key under values/', async () => {
    const storage = fileStorage({ dir });
    await storage.init();
    await storage.set('providers/openai', { url: 'u' });
    await storage.set('providers', 1);
    await storage.close();
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'values/providers/openai.json'), 'utf8')), { url: 'u' });
    assert.equal(await readFile(path.join(dir, 'values/providers.json'), 'utf8'), '1\n');
  });

  it('11.7: creates data files 0600 and directories 0700, and closes an older data directory at init', async () => {
    await mkdir(path.join(dir, 'values'), { recursive: true, mode: 0o755 });
    const storage = fileStorage({ dir });
    await storage.init();
    await storage.set('applications/app', { name: 'app' });
    await storage.set('application-keys/app/k1', { id: 'k1' });
    await storage.append('chronicles/app', [{ n: 1 }]);
    await storage.rewriteLog('chronicles/other', [{ n: 2 }]);
    await storage.append('chronicles/third', [1, 2, 3]);
    await storage.trimLog('chronicles/third', 1);
    await storage.close();
    const mode = async (...parts: string[]): Promise<number> => (await stat(path.join(dir, ...parts))).mode & 0o777;
    assert.equal(await mode(), 0o700);
    for (const sub of ['values', 'logs', 'values/applications', 'values/application-keys/app', 'logs/chronicles']) assert.equal(await mode(sub), 0o700, sub);
    for (const file of ['values/applications/app.json', 'values/application-keys/app/k1.json', 'logs/chronicles/app.jsonl', 'logs/chronicles/other.jsonl', 'logs/chronicles/third.jsonl']) {
      assert.equal(await mode(file), 0o600, file);
    }
  });

  it('11.7: a delete removes the directories it leaves empty, and later writes recreate them', async () => {
    const storage = fileStorage({ dir });
    await storage.init();
    await storage.set('application-keys/app/k1', 1);
    await storage.set('application-keys/app/k2', 2);
    await storage.set('application-keys/other/k3', 3);
    await storage.append('chronicles/app', [1]);
    await storage.delete('application-keys/app/k1');
    assert.deepEqual(await readdir(path.join(dir, 'values/application-keys/app')), ['k2.json']);
    await storage.delete('application-keys/app/k2');
    assert.deepEqual(await readdir(path.join(dir, 'values/application-keys')), ['other']);
    await storage.deleteLog('chronicles/app');
    assert.deepEqual(await readdir(path.join(dir, 'logs')), []);
    // Deletes racing writes under the same directories never lose a write.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? storage.set(`race/d${i % 3}/k${i}`, i) : storage.delete(`race/d${(i - 1) % 3}/k${i - 1}`))),
    );
    await Promise.all(Array.from({ length: 20 }, (_, i) => storage.set(`race/d${i % 3}/k${i}`, i)));
    assert.equal((await storage.list('race/')).length, 20);
    await storage.close();
    const reopened = fileStorage({ dir });
    await reopened.init();
    assert.equal((await reopened.list('race/')).length, 20);
    await reopened.close();
  });

  it('11.7: keeps a 128-character upper-case name in a short file name, readable after a restart', async () => {
    const name = 'N'.repeat(128);
    const storage = fileStorage({ dir });
    await storage.init();
    await storage.set(`applications/${name}`, { name });
    await storage.set('applications/short', { name: 'short' });
    await storage.close();
    const files = await readdir(path.join(dir, 'values/applications'));
    assert.ok(files.every((file) => Buffer.byteLength(file) < 200), files.join(', '));
    assert.ok(files.includes('short.json'), 'short names keep their plain encoding, so existing data stays readable');
    const reopened = fileStorage({ dir });
    await reopened.init();
    assert.deepEqual((await reopened.list('applications/')).map((e) => e.key), [`applications/${name}`, 'applications/short']);
    await reopened.close();
  });

  it('refuses a corrupt value file at init and leaves it untouched', async () => {
    const file = path.join(dir, 'values/routes/chat.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{"model": "gpt');
    const before = await stat(file);
    await rejectsWithCode(fileStorage({ dir }).init(), 'storage_corrupt');
    const storage = fileStorage({ dir });
    await rejectsWithCode(storage.get('routes/chat'), 'storage_corrupt');
    await storage.close();
    assert.equal(await readFile(file, 'utf8'), '{"model": "gpt');
    assert.equal((await stat(file)).mtimeMs, before.mtimeMs);
  });

  it('removes temp files left by a crash and ignores foreign files', async () => {
    await mkdir(path.join(dir, 'values/a'), { recursive: true });
    await writeFile(path.join(dir, 'values/a/.b.json.123.1.ff.tmp'), '{"torn');
    await writeFile(path.join(dir, 'values/.DS_Store'), 'junk');
    await writeFile(path.join(dir, 'values/a/b.json'), '"ok"');
    const storage = fileStorage({ dir });
    await storage.init();
    assert.deepEqual(await storage.list(''), [{ key: 'a/b', value: 'ok' }]);
    assert.deepEqual(await readdir(path.join(dir, 'values/a')), ['b.json']);
    await storage.close();
  });

  it('skips a torn last log line, then cuts it away on the next append', async () => {
    const first = fileStorage({ dir });
    await first.init();
    await first.append('requests', [{ n: 1 }, { n: 2 }]);
    await first.close();
    const file = path.join(dir, 'logs/requests.jsonl');
    await appendFile(file, '{"n": 3, "half');
    const second = fileStorage({ dir });
    await second.init();
    assert.deepEqual(await second.readLog('requests'), [{ n: 1 }, { n: 2 }]);
    await second.append('requests', [{ n: 4 }]);
    assert.deepEqual(await second.readLog('requests'), [{ n: 1 }, { n: 2 }, { n: 4 }]);
    assert.equal(await readFile(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":4}\n');
    await second.close();
  });


  it('trims a log of many 64 KB chunks to exactly its newest records, with lines across chunk boundaries and a torn tail', async () => {
    const storage = fileStorage({ dir });
    await storage.init();
    // Records of varying length (17 to 316 bytes), so line ends fall at every offset of the 64 KB read chunks.
    const records = Array.from({ length: 3000 }, (_, n) => ({ n, pad: 'x'.repeat((n * 37) % 300) }));
    for (let from = 0; from < records.length; from += 500) await storage.append('big', records.slice(from, from + 500));
    await appendFile(path.join(dir, 'logs/big.jsonl'), '{"n": "torn');
    for (const keep of [2999, 1234, 1]) {
      await storage.trimLog('big', keep);
      const kept = (await storage.readLog('big')) as Array<{ n: number }>;
      assert.equal(kept.length, keep);
      assert.equal(kept[0]!.n, 3000 - keep, `the oldest record kept of ${keep}`);
      assert.equal(kept.at(-1)!.n, 2999);
    }
    assert.ok((await readFile(path.join(dir, 'logs/big.jsonl'), 'utf8')).endsWith('"}\n'), 'the torn tail is gone');
    await storage.close();
  });
  it('fails with storage_corrupt on a corrupt line that is not the last', async () => {
    await mkdir(path.join(dir, 'logs'), { recursive: true });
    await writeFile(path.join(dir, 'logs/requests.jsonl'), '{"n":1}\n{"n":\n{"n":3}\n');
    const storage = fileStorage({ dir });
    await storage.init();
    await rejectsWithCode(storage.readLog('requests'), 'storage_corrupt');
    await storage.close();
  });

  it('survives kill -9 at random moments: every key and the log hold complete, acknowledged data', async function () {
    this.timeout(15_000);
    for (let generation = 1; generation <= 4; generation++) {
      const acked = await runAndKill(dir, generation, 40 + Math.floor(Math.random() * 260));
      const storage = fileStorage({ dir });
      await storage.init();
      for (const key of WRITER_KEYS) {
        const value = (await storage.get(key)) as { key: string; generation: number; round: number; payload: string; sum: string };
        if (value === undefined) {
          assert.equal(acked.has(key), false, `${key} was acknowledged but is missing`);
          continue;
        }
        assert.equal(value.key, key);
        assert.equal(payloadSum(value.payload), value.sum, `${key} holds a torn value`);
        const last = acked.get(key);
        if (last !== undefined) {
          assert.equal(value.generation, generation);
          assert.ok(value.round >= last, `${key} lost acknowledged round ${last}, holds ${value.round}`);
        }
      }
      const records = (await storage.readLog(WRITER_LOG)) as Array<{ generation: number; round: number; payload: string; sum: string }>;
      for (const record of records) assert.equal(payloadSum(record.payload), record.sum, 'the log holds a torn record');
      const lastLog = acked.get(WRITER_LOG);
      if (lastLog !== undefined) {
        assert.ok(records.some((r) => r.generation === generation && r.round === lastLog), 'an acknowledged append was lost');
      }
      await storage.close();
    }
  });
});

/** Runs the writer child, kills it with SIGKILL `delayMs` after it started, and returns the last round acknowledged per key. */
function runAndKill(dir: string, generation: number, delayMs: number): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, dir, String(generation)], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked = new Map<string, number>();
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'started') setTimeout(() => ((killed = true), child.kill('SIGKILL')), delayMs).unref();
        const [word, key, gen, round] = line.split(' ');
        if (word === 'ack' && key !== undefined && Number(gen) === generation) acked.set(key, Number(round));
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (killed && signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`the writer child exited on its own (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}
