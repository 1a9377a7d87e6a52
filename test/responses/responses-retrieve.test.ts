// GET /v1/responses/:id through the official openai client: the stored response, for its own application only, with secrets scrubbed.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS, createTestGateway, type TestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { deleteKeys, requireRedis, testKeyPrefix, TEST_REDIS_URL } from '../helpers/redis-test.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';

import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

describe('15.1: GET /v1/responses/:id', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let client: OpenAI;
  let other: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    server = await listenOnLoopback(f.app);
    const baseURL = `${server.base}/v1`;
    client = new OpenAI({ apiKey: f.developerKey, baseURL, maxRetries: 0 });
    await f.create('/v1/admin/applications', { name: 'other-app' });
    const key = await request(f.app).post('/v1/admin/applications/other-app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({});
    other = new OpenAI({ apiKey: key.body.key, baseURL, maxRetries: 0 });
  });
  after(async () => {
    server.close();
    await f.close();
  });
  beforeEach(() => f.fake.reset());

  it('15.1: responses.retrieve() answers the response as it was created', async () => {
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello', metadata: { topic: 'greeting' } });
    const retrieved = await client.responses.retrieve(created.id);
    assert.equal(retrieved.id, created.id);
    assert.equal(retrieved.status, 'completed');
    assert.equal(retrieved.output_text, 'Hello from the fake provider.');
    assert.deepEqual(retrieved.output, created.output);
    assert.deepEqual(retrieved.metadata, { topic: 'greeting' });
  });

  it('15.1: a streamed response can be retrieved once it is finished', async () => {
    const stream = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello', stream: true });
    let id = '';
    for await (const event of stream) if (event.type === 'response.completed') id = event.response.id;
    assert.ok(id);
    assert.equal((await client.responses.retrieve(id)).output_text, 'Hello from the fake provider.');
  });

  it('15.1: another application, an unknown id and a response created with store: false are 404 not_found', async () => {
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello' });
    await assert.rejects(other.responses.retrieve(created.id), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.equal((error.error as { code?: string }).code, 'not_found');
      return true;
    });
    await assert.rejects(client.responses.retrieve('resp_does_not_exist'), OpenAI.NotFoundError);
    const unstored = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello', store: false });
    await assert.rejects(client.responses.retrieve(unstored.id), OpenAI.NotFoundError);
    // The entry holding a response object is never readable as a conversation to continue.
    const res = await request(f.app).post('/v1/responses').set('authorization', `Bearer ${f.developerKey}`).send({ model: 'gpt-4o-mini', input: 'x', previous_response_id: `object:${created.id}` });
    assert.notEqual(res.status, 500, res.text);
  });

  it('15.1: needs a developer key', async () => {
    const res = await request(f.app).get('/v1/responses/resp_x').expect(401);
    assert.equal(res.body.error.code, 'missing_api_key');
    await request(f.app).get('/v1/responses/resp_x').set('authorization', `Bearer ${TEST_KEYS.superAdmin}`).expect(401);
  });

  it('15.1: the stored provider key and the caller\'s developer key are scrubbed from the kept response', async () => {
    f.fake.script({ text: `the key is sk-stored-provider-key-0001 and yours is ${f.developerKey}` });
    const created = await client.responses.create({ model: 'gpt-4o-mini', input: 'Leak it' });
    const retrieved = await client.responses.retrieve(created.id);
    const text = JSON.stringify(retrieved);
    assert.ok(!text.includes('sk-stored-provider-key-0001'), 'the provider key is kept');
    assert.ok(!text.includes(f.developerKey), 'the developer key is kept');
    assert.match(retrieved.output_text, /\[REDACTED\]/);
  });
});

describe('15.1: GET /v1/responses/:id on Redis', function () {
  requireRedis();
  const prefix = testKeyPrefix();
  let a: TestGateway;
  let b: TestGateway;
  let fake: FakeProvider;
  after(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
    await deleteKeys(prefix);
  });

  it('15.1: a response created through one gateway is retrieved through another sharing Redis', async () => {
    fake = await startFakeProvider();
    const storage = (await import('../../src/index.js')).memoryStorage();
    a = await createTestGateway({ storage, redis: { url: TEST_REDIS_URL, keyPrefix: prefix } });
    const admin = (path: string, body: object) => request(a.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
    await admin('/v1/admin/providers', { name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['m'] } }).expect(201);
    await admin('/v1/admin/applications', { name: 'app' }).expect(201);
    const key = (await admin('/v1/admin/applications/app/keys', {}).expect(201)).body.key as string;
    // The second replica shares the first one's storage, which the first closes.
    b = await createTestGateway({ storage: { ...storage, close: async () => undefined }, redis: { url: TEST_REDIS_URL, keyPrefix: prefix } });
    const created = await request(a.app).post('/v1/responses').set('authorization', `Bearer ${key}`).send({ model: 'm', input: 'hi' }).expect(200);
    const got = await request(b.app).get(`/v1/responses/${created.body.id}`).set('authorization', `Bearer ${key}`).expect(200);
    assert.equal(got.body.output_text, 'Hello from the fake provider.');
  });
});
