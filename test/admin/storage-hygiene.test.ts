// Storage hygiene through the admin API: path-like and long names, and multi-record writes cut short at every step.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import type { GatewayLogger } from '../../src/errors/error-middleware.js';
import { fileStorage } from '../../src/storage/file-storage.js';
import { failingStorage } from '../helpers/failing-storage.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { CHURN_ADMIN_KEY } from './app-churn-child.js';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const churnScript = fileURLToPath(new URL('./app-churn-child.ts', import.meta.url));

/** Runs the churn child on `dir`, kills it with SIGKILL `delayMs` after it started, and answers the keys it printed. */
function churnAndKill(dir: string, delayMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', churnScript, dir], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const keys: string[] = [];
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
        if (line.startsWith('key ')) keys.push(line.slice(4));
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (killed && signal === 'SIGKILL') resolve(keys);
      else reject(new Error(`the churn child exited on its own (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

function recordingLogger(): GatewayLogger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info: () => undefined, warn: () => undefined, error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`) };
}

describe('Storage hygiene through the admin API', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-hygiene-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('11.7: path-like names answer 404 on reads and 400 on writes, without the internal key and without an error log line', async () => {
    const logger = recordingLogger();
    const t = await createTestGateway({ storage: fileStorage({ dir }), logger });
    try {
      const admin = (method: 'get' | 'put' | 'delete' | 'post', url: string) => request(t.app)[method](url).set('x-api-key', TEST_KEYS.superAdmin);
      for (const name of ['a%2F..%2Fx', '%00', 'a%5Cb', '..', 'x%2F..%2F..%2Fetc']) {
        for (const res of [
          await admin('get', `/v1/admin/applications/${name}`),
          await admin('delete', `/v1/admin/applications/${name}`),
          await admin('get', `/v1/admin/routes/${name}`),
          await admin('get', `/v1/admin/applications/${name}/keys`),
          await admin('get', `/v1/admin/applications/${name}/chronicles`),
          await admin('post', `/v1/admin/applications/${name}/keys`).send({}),
          await admin('put', `/v1/admin/applications/${name}/policy`).send({ mode: 'inspect' }),
        ]) {
          assert.ok([400, 404].includes(res.status), `${name}: ${res.status} ${JSON.stringify(res.body)}`);
          assert.equal(typeof res.body.error?.message, 'string');
          assert.doesNotMatch(res.body.error.message, /applications\/|application-keys|routes\//);
        }
      }
      assert.deepEqual(logger.errors, []);
      assert.deepEqual((await readdir(dir)).sort(), ['logs', 'values']);
    } finally {
      await t.close();
    }
  });

  it('11.7: an application with a 128-character upper-case name works end to end and survives a restart', async () => {
    const name = `A${'B'.repeat(127)}`;
    let t = await createTestGateway({ storage: fileStorage({ dir }) });
    const admin = (method: 'get' | 'put' | 'delete' | 'post', url: string) => request(t.app)[method](url).set('x-api-key', TEST_KEYS.superAdmin);
    try {
      await admin('post', '/v1/admin/applications').send({ name }).expect(201);
      await admin('post', `/v1/admin/applications/${name}/keys`).send({}).expect(201);
      await admin('put', `/v1/admin/applications/${name}/policy`).send({ mode: 'inspect' }).expect(200);
    } finally {
      await t.close();
    }
    t = await createTestGateway({ storage: fileStorage({ dir }) });
    try {
      assert.equal((await admin('get', `/v1/admin/applications/${name}`).expect(200)).body.name, name);
      assert.equal((await admin('get', `/v1/admin/applications/${name}/keys`).expect(200)).body.length, 1);
      assert.equal((await admin('get', `/v1/admin/applications/${name}/policy`).expect(200)).body.mode, 'inspect');
      await admin('delete', `/v1/admin/applications/${name}`).expect(200);
      await admin('get', `/v1/admin/applications/${name}`).expect(404);
    } finally {
      await t.close();
    }
  });

  it('11.7: deleting an application leaves no empty key directory and no log file', async () => {
    const t = await createTestGateway({ storage: fileStorage({ dir }) });
    try {
      const admin = (method: 'post' | 'delete', url: string) => request(t.app)[method](url).set('x-api-key', TEST_KEYS.superAdmin);
      await admin('post', '/v1/admin/applications').send({ name: 'shop' }).expect(201);
      await admin('post', '/v1/admin/applications/shop/keys').send({}).expect(201);
      await t.gateway.storage.append('chronicles/shop', [{ id: 'x' }]);
      await admin('delete', '/v1/admin/applications/shop').expect(200);
      const left = async (sub: string): Promise<string[]> => readdir(path.join(dir, sub)).catch(() => []);
      assert.deepEqual(await left('values/application-keys'), []);
      assert.deepEqual(await left('logs/chronicles'), []);
    } finally {
      await t.close();
    }
  });

  describe('multi-record writes cut short at every step', () => {
    const apply = (t: TestGateway, key: string) =>
      request(t.app).post('/v1/guardrail/promptinjectiondetection/apply').set('x-gateway-apikey', key).send({ input: { text: 'hello' } });

    /** Creates `shop` with one key and a policy, deletes it with write number `failAt` failing, then checks the invariants. */
    async function crashDuringDelete(failAt: number, restart: boolean): Promise<{ steps: number }> {
      const storage = failingStorage(fileStorage({ dir }));
      let t = await createTestGateway({ storage });
      const admin = (method: 'get' | 'put' | 'delete' | 'post', url: string) => request(t.app)[method](url).set('x-api-key', TEST_KEYS.superAdmin);
      await admin('post', '/v1/admin/applications').send({ name: 'shop' }).expect(201);
      const oldKey = (await admin('post', '/v1/admin/applications/shop/keys').send({}).expect(201)).body.key as string;
      await admin('post', '/v1/admin/applications/shop/keys').send({}).expect(201);
      await admin('put', '/v1/admin/applications/shop/policy').send({ mode: 'reject' }).expect(200);
      await apply(t, oldKey).expect(200);
      storage.arm(failAt);
      const failed = await admin('delete', '/v1/admin/applications/shop');
      const steps = storage.writes();
      if (restart) {
        await t.close();
        t = await createTestGateway({ storage: fileStorage({ dir }) });
      }
      // Whatever was cut, a key that still answers belongs to an application that still exists and lists it.
      if ((await apply(t, oldKey)).status === 200) {
        await admin('get', '/v1/admin/applications/shop').expect(200);
        assert.ok((await admin('get', '/v1/admin/applications/shop/keys').expect(200)).body.length > 0);
      }
      if (failed.status !== 200) await admin('delete', '/v1/admin/applications/shop').expect(200);
      else await admin('delete', '/v1/admin/applications/shop').expect(404);
      await apply(t, oldKey).expect(401);
      await admin('post', '/v1/admin/applications').send({ name: 'shop' }).expect(201);
      await apply(t, oldKey).expect(401);
      assert.deepEqual((await admin('get', '/v1/admin/applications/shop/keys').expect(200)).body, []);
      assert.notEqual((await admin('get', '/v1/admin/applications/shop/policy').expect(200)).body.mode, 'reject');
      const leftovers = (await t.gateway.storage.list('')).map((e) => e.key).filter((key) => /^(developer-keys|application-keys|application-policies)\//.test(key));
      assert.deepEqual(leftovers, []);
      await t.close();
      await rm(dir, { recursive: true, force: true });
      return { steps };
    }

    it('11.7: an application delete failing at any write, with or without a restart, leaves no key that grants access, and a re-created application inherits nothing', async function () {
      this.timeout(60_000);
      const total = (await crashDuringDelete(1000, false)).steps; // no failure: counts the writes of a delete
      assert.ok(total >= 5, `a delete makes ${total} writes`);
      for (let failAt = 1; failAt <= total; failAt++) {
        for (const restart of [false, true]) {
          try {
            await crashDuringDelete(failAt, restart);
          } catch (error) {
            throw new Error(`failing write ${failAt} of ${total} (restart: ${restart}): ${(error as Error).message}`, { cause: error });
          }
        }
      }
    });

    it('11.7: kill -9 at random moments of application create/key/policy/delete churn: afterwards no key grants access unless its application exists and lists it, and a re-created application inherits nothing', async function () {
      this.timeout(120_000);
      const allKeys: string[] = [];
      for (let round = 0; round < 3; round++) {
        allKeys.push(...(await churnAndKill(dir, 150 + Math.floor(Math.random() * 600))));
        const t = await createTestGateway({ storage: fileStorage({ dir }), adminKeys: [{ key: CHURN_ADMIN_KEY, role: 'super_admin', name: 'check' }] });
        try {
          const admin = (method: 'get', url: string) => request(t.app)[method](url).set('x-api-key', CHURN_ADMIN_KEY);
          const exists = (await admin('get', '/v1/admin/applications/shop')).status === 200;
          const listed = exists ? ((await admin('get', '/v1/admin/applications/shop/keys').expect(200)).body as Array<{ masked: string }>) : [];
          for (const key of allKeys) {
            if ((await apply(t, key)).status !== 200) continue;
            assert.ok(exists, `round ${round}: a key of a deleted application answers 200`);
            assert.ok(listed.some((record) => key.endsWith(record.masked.slice(-4))), `round ${round}: a key answers 200 but is not listed`);
          }
          // Nothing is left that a re-created application could inherit.
          const apps = new Set((await t.gateway.storage.list<{ name: string }>('applications/')).map((e) => e.value.name));
          for (const { value } of await t.gateway.storage.list<{ application: string }>('developer-keys/')) assert.ok(apps.has(value.application));
          for (const { value } of await t.gateway.storage.list<{ application: string }>('application-keys/')) assert.ok(apps.has(value.application));
        } finally {
          await t.close();
        }
      }
      assert.ok(allKeys.length > 0, 'the child created keys before it was killed');
    });

    it('11.7: a developer key create failing at any write grants nothing, and no half-made key stays listed after a restart', async () => {
      for (const failAt of [1, 2]) {
        const storage = failingStorage(fileStorage({ dir }));
        let t = await createTestGateway({ storage });
        const admin = (method: 'get' | 'post', url: string) => request(t.app)[method](url).set('x-api-key', TEST_KEYS.superAdmin);
        await admin('post', '/v1/admin/applications').send({ name: 'shop' }).expect(201);
        storage.arm(failAt);
        await admin('post', '/v1/admin/applications/shop/keys').send({}).expect(500);
        await t.close();
        t = await createTestGateway({ storage: fileStorage({ dir }) });
        assert.deepEqual((await admin('get', '/v1/admin/applications/shop/keys').expect(200)).body, [], `failing write ${failAt}`);
        assert.deepEqual(await t.gateway.storage.list('developer-keys/'), []);
        await t.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('11.7: a key index entry, provider key, policy, log or graph left without its owner grants nothing and is removed at start', async () => {
      let t = await createTestGateway({ storage: fileStorage({ dir }) });
      const admin = (method: 'get' | 'post' | 'delete', url: string) => request(t.app)[method](url).set('x-api-key', TEST_KEYS.superAdmin);
      await admin('post', '/v1/admin/applications').send({ name: 'shop' }).expect(201);
      const key = (await admin('post', '/v1/admin/applications/shop/keys').send({}).expect(201)).body;
      await admin('post', '/v1/admin/providers').send({ name: 'p', type: 'openai', config: { api_base: 'http://127.0.0.1:9/v1' }, api_keys: [{ api_key_secret_name: 'k', api_key: 'sk-orphan-provider-key-123456' }] }).expect(201);
      const storage = t.gateway.storage;
      // What a crash can leave: the index of a key whose record is gone, and a provider's keys without the provider.
      const [index] = await storage.list<{ id: string }>('developer-keys/');
      await storage.delete(`application-keys/shop/${key.id}`);
      await storage.delete('providers/p');
      await storage.set('chronicles-graph/ghost', { nodes: [{ tool: 't', server: 's', requests: 9, last_used: '' }] });
      await storage.append('chronicles/ghost', [{ id: 'old' }]);
      await storage.set('application-policies/ghost', { mode: 'reject' });
      await apply(t, key.key).expect(401);
      await t.close();
      t = await createTestGateway({ storage: fileStorage({ dir }) });
      assert.equal(await t.gateway.storage.get(index!.key), undefined);
      assert.deepEqual(await t.gateway.storage.list('provider-keys/'), []);
      // A re-created `ghost` would not inherit its old policy, request log or usage graph.
      assert.equal(await t.gateway.storage.get('chronicles-graph/ghost'), undefined);
      assert.equal(await t.gateway.storage.get('application-policies/ghost'), undefined);
      assert.deepEqual(await t.gateway.storage.listLogs('chronicles/'), []);
      await t.close();
    });
  });
});
