// A deleted and re-created application is a new tenant for the response cache: none of the old one's answers is served to it.
import assert from 'node:assert/strict';
import request from 'supertest';
import type { GatewayOptions } from '../../src/index.js';
import { sharedReplicaOptions } from '../helpers/shared-replica-options.js';
import { createTestGateway, TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const ask = (f: Pick<TrafficFixture, 'app'>, key: string) =>
  request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': 'cached' }).send(chatBody());

/** Deletes application `app` and creates it again through `f`; answers the new application's developer key. */
async function recreate(f: Pick<TrafficFixture, 'app'>): Promise<string> {
  await request(f.app).delete('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
  await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'app' }).expect(201);
  return (await request(f.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
}

async function cachedFixture(options: GatewayOptions = {}): Promise<TrafficFixture> {
  const f = await createTrafficFixture(options);
  await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { cache: { ttl_seconds: 600 } } });
  return f;
}

/** Polls (5 s deadline) until `predicate` holds. */
async function until(what: string, predicate: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await predicate())) {
    assert.ok(Date.now() < deadline, `${what} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('response cache of a re-created application', function () {
  this.timeout(20_000);

  it('15.6: in process, a re-created application is a miss for the old one\'s question, then caches its own answer', async () => {
    const f = await cachedFixture();
    try {
      f.fake.script({ text: 'Answer of the first application.' });
      assert.equal((await ask(f, f.developerKey).expect(200)).headers['x-gateway-cache'], 'miss');
      await until('the answer was stored', async () => (await ask(f, f.developerKey).expect(200)).headers['x-gateway-cache'] === 'hit');
      const key = await recreate(f);
      f.fake.script({ text: 'Answer of the second application.' });
      const fresh = await ask(f, key).expect(200);
      assert.equal(fresh.headers['x-gateway-cache'], 'miss');
      assert.equal(fresh.body.choices[0].message.content, 'Answer of the second application.');
      await until('the new answer was stored', async () => (await ask(f, key).expect(200)).headers['x-gateway-cache'] === 'hit');
      assert.equal((await ask(f, key).expect(200)).body.choices[0].message.content, 'Answer of the second application.');
    } finally {
      await f.close();
    }
  });

  describe('two replicas on one PostgreSQL schema and one Redis', function () {
    const { options } = sharedReplicaOptions();

    it('15.6: an application deleted and re-created on one replica is not served the old answers by the other', async () => {
      const a = await cachedFixture(options());
      const b = await createTestGateway(options());
      try {
        a.fake.script({ text: 'Answer of the first application.' });
        assert.equal((await ask(a, a.developerKey).expect(200)).headers['x-gateway-cache'], 'miss');
        await until('the answer is a hit on the other replica', async () => (await ask(b, a.developerKey).expect(200)).headers['x-gateway-cache'] === 'hit');
        const created = (await request(a.app).get('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.admin).expect(200)).body.created_at as string;
        const key = await recreate(a);
        const recreated = (await request(a.app).get('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.admin).expect(200)).body.created_at as string;
        assert.notEqual(recreated, created);
        // B learns of the new record through the storage change notices (its cached copy is dropped).
        await until('replica B sees the re-created application', () => b.gateway.storage.peekCached<{ created_at: string }>('applications/app')?.value?.created_at !== created);
        a.fake.script({ text: 'Answer of the second application.' });
        const fresh = await ask(b, key).expect(200);
        assert.equal(fresh.headers['x-gateway-cache'], 'miss');
        assert.equal(fresh.body.choices[0].message.content, 'Answer of the second application.');
        await until('the new answer is a hit on replica A', async () => (await ask(a, key).expect(200)).headers['x-gateway-cache'] === 'hit');
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
});
