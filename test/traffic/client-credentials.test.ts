// Client credentials on model endpoints: a client's credential never reaches a provider, and Bearer gwk_… authenticates.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const STORED = 'sk-stored-adapter-key-0001';
const CLIENT = 'sk-client-credential-0001';

/** Every header through which a client could try to pass its own provider credential. */
const CLIENT_CREDENTIALS = {
  authorization: `Bearer ${CLIENT}`,
  'x-api-key': CLIENT,
  'api-key': CLIENT,
  'x-goog-api-key': CLIENT,
};

const ADAPTERS = [
  { type: 'openai', model: 'gpt-test', header: 'authorization', stored: `Bearer ${STORED}`, config: (url: string) => ({ api_base: `${url}/v1` }) },
  { type: 'azure', model: 'azure-test', header: 'api-key', stored: STORED, config: (url: string) => ({ api_base: url }) },
  { type: 'anthropic', model: 'claude-test', header: 'x-api-key', stored: STORED, config: (url: string) => ({ api_base: url }) },
  { type: 'gemini', model: 'gemini-test', header: 'x-goog-api-key', stored: STORED, config: (url: string) => ({ api_base: url }) },
] as const;

describe('client credentials on model endpoints', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    for (const adapter of ADAPTERS) {
      await f.create('/v1/admin/providers', { name: `p-${adapter.type}`, type: adapter.type, config: adapter.config(f.fake.url), api_keys: [{ api_key: STORED }] });
      await f.create('/v1/admin/routes', { name: `r-${adapter.type}`, type: 'chat', models: [{ name: adapter.model, provider: `p-${adapter.type}` }] });
    }
  });
  after(() => f.close());
  beforeEach(() => f.fake.reset());

  for (const adapter of ADAPTERS) {
    it(`11.8: the ${adapter.type} adapter always sends the stored key, never the client's credential`, async () => {
      await request(f.app)
        .post('/v1/chat/completions')
        .set({ ...CLIENT_CREDENTIALS, 'x-gateway-apikey': f.developerKey, 'x-gateway-route': `r-${adapter.type}` })
        .send(chatBody())
        .expect(200);
      const received = f.fake.requests[0]!;
      assert.equal(received.headers[adapter.header], adapter.stored);
      assert.ok(!JSON.stringify(received.headers).includes(CLIENT), 'no client credential in any upstream header');
      assert.ok(!received.url.includes(CLIENT), 'nor in the URL');
    });
  }

  it('11.8: a provider without a stored key gets no key, not the client Bearer', async () => {
    await f.create('/v1/admin/providers', { name: 'keyless', type: 'openai', config: { api_base: `${f.fake.url}/v1` } });
    await f.create('/v1/admin/routes', { name: 'keyless', type: 'chat', models: [{ name: 'gpt-test', provider: 'keyless' }] });
    await request(f.app)
      .post('/v1/chat/completions')
      .set({ authorization: `Bearer ${CLIENT}`, 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'keyless' })
      .send(chatBody())
      .expect(200);
    assert.equal(f.fake.requests[0]!.headers.authorization, undefined);
  });

  it('11.8: a Bearer that is not a developer key is refused 401 without X-Gateway-Apikey, and never forwarded', async () => {
    const res = await request(f.app).post('/v1/chat/completions').set({ authorization: `Bearer ${CLIENT}`, 'x-gateway-route': 'r-openai' }).send(chatBody()).expect(401);
    assert.equal(res.body.error.code, 'invalid_api_key');
    assert.ok(!res.text.includes(CLIENT));
    assert.equal(f.fake.requests.length, 0);
  });

  it('11.8: Authorization: Bearer gwk_… authenticates the developer key on every model endpoint', async () => {
    const bearer = { authorization: `Bearer ${f.developerKey}` };
    await request(f.app).post('/v1/chat/completions').set({ ...bearer, 'x-gateway-route': 'r-openai' }).send(chatBody()).expect(200);
    await request(f.app).post('/v1/completions').set(bearer).send({ model: 'fake/gpt-test', prompt: 'Hi' }).expect(200);
    await request(f.app).post('/v1/embeddings').set(bearer).send({ model: 'fake/text-embedding-3-small', input: 'Hi' }).expect(200);
    for (const received of f.fake.requests) assert.ok(!JSON.stringify(received.headers).includes(f.developerKey), 'the developer key is never forwarded');
  });
});

describe('11.8: the official openai client with only baseURL and apiKey (the developer key)', () => {
  let f: TrafficFixture;
  let server: Server;
  let client: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    server = f.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, maxRetries: 0 });
  });
  after(async () => {
    server.close();
    await f.close();
  });

  it('11.8: completes a chat and embeddings with apiKey = developer key; the provider sees only the stored key', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(completion.choices[0]?.message.content, 'Hello from the fake provider.');
    const embeddings = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'a', encoding_format: 'float' });
    assert.equal(embeddings.data.length, 1);
    for (const received of f.fake.requests) assert.equal(received.headers.authorization, 'Bearer sk-stored-provider-key-0001');
  });

  it('an apiKey that is not a developer key gets 401 as an AuthenticationError', async () => {
    const stranger = new OpenAI({ apiKey: 'sk-anything', baseURL: client.baseURL, maxRetries: 0 });
    const error = await stranger.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.AuthenticationError);
  });
});
