// Secrets: sealed at rest with GATEWAY_SECRET, masked in every answer, kept when a mask is echoed back, and disabled keys unused.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { fileStorage } from '../../src/index.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { ENDPOINTS, PROVIDER_SECRET, sampleKey } from './admin-fixtures.js';
import { seedAll } from './admin-seed.js';

const NAMESPACED_SECRET = sampleKey().api_key as string;

async function allFileText(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

describe('admin secrets', () => {
  let dir: string;
  let t: TestGateway;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-secrets-'));
  });
  afterEach(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('no answer of any endpoint contains a provider key or developer key in clear', async () => {
    t = await createTestGateway({ storage: fileStorage({ dir }), secret: 'a-test-secret-for-encryption' });
    const { developerKey } = await seedAll(t.app);
    for (const endpoint of ENDPOINTS.filter((e) => e.method === 'get')) {
      let req = request(t.app).get(endpoint.path).set('x-api-key', TEST_KEYS.admin);
      if (endpoint.namespace) req = req.set('x-gateway-namespace', 'team-a');
      const text = (await req.expect(200)).text;
      for (const secret of [PROVIDER_SECRET, NAMESPACED_SECRET, developerKey]) assert.ok(!text.includes(secret), `${endpoint.path} leaks a secret`);
    }
    const provider = (await request(t.app).get('/v1/admin/providers/openai-main').set('x-api-key', TEST_KEYS.admin)).body;
    assert.equal(provider.api_keys[0].api_key, 'sk-...wxyz');
  });

  it('encrypts provider keys at rest when a secret is configured, and stores developer keys only hashed', async () => {
    t = await createTestGateway({ storage: fileStorage({ dir }), secret: 'a-test-secret-for-encryption' });
    const { developerKey } = await seedAll(t.app);
    await t.close();
    const onDisk = await allFileText(dir);
    for (const secret of [PROVIDER_SECRET, NAMESPACED_SECRET, developerKey]) assert.ok(!onDisk.includes(secret));
    assert.match(onDisk, /"api_key":"enc:v1:/);

    t = await createTestGateway({ storage: fileStorage({ dir }), secret: 'a-test-secret-for-encryption' });
    const keys = await t.gateway.services.providerKeys.usable('openai-main', 'default');
    assert.deepEqual(keys.map((k) => k.value), [PROVIDER_SECRET]);
  });

  it('refuses to open sealed keys under another secret, with a coded error', async () => {
    t = await createTestGateway({ storage: fileStorage({ dir }), secret: 'first-secret-value' });
    await seedAll(t.app);
    await t.close();
    t = await createTestGateway({ storage: fileStorage({ dir }), secret: 'second-secret-value' });
    await assert.rejects(t.gateway.services.providerKeys.usable('openai-main', 'default'), { code: 'secret_unavailable' });
    const shown = (await request(t.app).get('/v1/admin/providers/openai-main').set('x-api-key', TEST_KEYS.admin).expect(200)).body;
    assert.equal(shown.api_keys[0].api_key, '...(encrypted)');
  });

  it('keeps the stored key when a client echoes the masked value back, and replaces it when given a new one', async () => {
    t = await createTestGateway({ secret: 'a-test-secret-for-encryption' });
    await seedAll(t.app);
    const read = (await request(t.app).get('/v1/admin/providers/openai-main').set('x-api-key', TEST_KEYS.admin)).body;
    await request(t.app)
      .put('/v1/admin/providers/openai-main')
      .set('x-api-key', TEST_KEYS.admin)
      .send({ api_keys: read.api_keys, enabled: true })
      .expect(200);
    assert.deepEqual((await t.gateway.services.providerKeys.usable('openai-main', 'default')).map((k) => k.value), [PROVIDER_SECRET]);

    const path = '/v1/admin/providers/openai-main/keys/team-key';
    const key = (await request(t.app).get(path).set('x-api-key', TEST_KEYS.admin).set('x-gateway-namespace', 'team-a')).body;
    await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).set('x-gateway-namespace', 'team-a').send({ api_key: key.api_key }).expect(200);
    assert.deepEqual((await t.gateway.services.providerKeys.usable('openai-main', 'team-a')).map((k) => k.value), [NAMESPACED_SECRET]);
    await request(t.app).put(path).set('x-api-key', TEST_KEYS.admin).set('x-gateway-namespace', 'team-a').send({ api_key: 'sk-rotated-0000-1111' }).expect(200);
    assert.deepEqual((await t.gateway.services.providerKeys.usable('openai-main', 'team-a')).map((k) => k.value), ['sk-rotated-0000-1111']);
  });

  it('never offers a disabled provider key for use', async () => {
    t = await createTestGateway();
    await seedAll(t.app);
    await request(t.app)
      .put('/v1/admin/providers/openai-main/keys/team-key')
      .set('x-api-key', TEST_KEYS.admin)
      .set('x-gateway-namespace', 'team-a')
      .send({ enabled: false })
      .expect(200);
    assert.deepEqual(await t.gateway.services.providerKeys.usable('openai-main', 'team-a'), []);
  });

  it('does not echo a secret in a validation error', async () => {
    t = await createTestGateway();
    await seedAll(t.app);
    const res = await request(t.app)
      .post('/v1/admin/providers')
      .set('x-api-key', TEST_KEYS.admin)
      .send({ name: 'p9', type: 'openai', api_keys: [{ api_key: PROVIDER_SECRET, header_key: 'bad header' }] })
      .expect(400);
    assert.ok(!res.text.includes(PROVIDER_SECRET));
  });
});

describe('admin data survives a restart on file storage', () => {
  it('re-reads every resource after the gateway is closed and created again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-restart-'));
    try {
      let t = await createTestGateway({ storage: fileStorage({ dir }) });
      const { developerKey } = await seedAll(t.app);
      await request(t.app).put('/v1/admin/applications/shop/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject' }).expect(200);
      const snapshot = async () => {
        const out: Record<string, unknown> = {};
        for (const endpoint of ENDPOINTS.filter((e) => e.method === 'get')) {
          let req = request(t.app).get(endpoint.path).set('x-api-key', TEST_KEYS.admin);
          if (endpoint.namespace) req = req.set('x-gateway-namespace', 'team-a');
          out[endpoint.path] = (await req.expect(200)).body;
        }
        return out;
      };
      const before = await snapshot();
      await t.close();
      t = await createTestGateway({ storage: fileStorage({ dir }) });
      assert.deepEqual(await snapshot(), before);
      assert.equal((await t.gateway.services.developerKeys.identify(developerKey))?.application, 'shop');
      await t.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
