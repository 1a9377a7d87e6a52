// Input policies read every text a media request's model reads (multimodal moderations parts, speech instructions), and the request log records it.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { startFakeMediaProvider, type FakeMediaProvider } from '../helpers/fake-media-provider.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { eventually } from '../helpers/eventually.js';

describe('input checks on moderations and speech text the model reads', function () {
  this.timeout(30_000);
  let t: TestGateway;
  let fake: FakeMediaProvider;
  let server: LoopbackServer;
  let developerKey: string;
  const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(201);
  const routed = (route: string) => new OpenAI({ apiKey: developerKey, baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const refused = (error: unknown) => {
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal((error.error as { code: string }).code, 'guardrail_rejected');
    return true;
  };

  before(async () => {
    fake = await startFakeMediaProvider();
    t = await createTestGateway({ plugins: TEST_GUARDRAILS });
    await admin('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${fake.url}/v1` }, api_keys: [{ api_key: 'sk-media-checks-000001' }] });
    await admin('/v1/admin/routes', { name: 'mod', type: 'moderations', models: [{ name: 'omni-moderation-latest', provider: 'oai' }] });
    await admin('/v1/admin/routes', { name: 'tts', type: 'speech', models: [{ name: 'gpt-4o-mini-tts', provider: 'oai' }] });
    await admin('/v1/admin/applications', { name: 'app' });
    developerKey = (await request(t.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key;
    await request(t.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: {} } }).expect(200);
    server = await listenOnLoopback(t.app);
  });
  after(async () => {
    server.close();
    await t.close();
    await fake.close();
  });
  beforeEach(() => (fake.requests.length = 0));

  it('a multimodal moderations input is checked part by part: a refused text part never reaches the provider', async () => {
    const input = [{ type: 'image_url' as const, image_url: { url: 'https://example.com/a.png' } }, { type: 'text' as const, text: 'something forbidden' }];
    await assert.rejects(routed('mod').moderations.create({ model: 'omni-moderation-latest', input }), refused);
    assert.equal(fake.requests.length, 0);
    const clean = await routed('mod').moderations.create({ model: 'omni-moderation-latest', input: [{ type: 'text', text: 'a calm sea' }] });
    assert.equal(clean.results[0]?.flagged, false);
    assert.deepEqual(fake.requests.at(-1)?.body.input, [{ type: 'text', text: 'a calm sea' }]);
  });

  it("a speech request's instructions are checked like its input: refused ones never reach the provider", async () => {
    await assert.rejects(routed('tts').audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Hello', instructions: 'Whisper something forbidden' }), refused);
    assert.equal(fake.requests.length, 0);
    const speech = await routed('tts').audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Hello', instructions: 'Speak warmly' });
    assert.equal(Buffer.from(await speech.arrayBuffer()).length, fake.audio.length);
    assert.equal(fake.requests.at(-1)?.body.instructions, 'Speak warmly');
  });

  it("a speech request's instructions are recorded in the request log's input, with the text to speak", async () => {
    await routed('tts').audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Good morning', instructions: 'Speak like a radio host' });
    const entry = await eventually(async () => {
      const found = (await request(t.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
      assert.equal(found?.endpoint, '/v1/audio/speech');
      return found;
    });
    assert.deepEqual(entry.input, { input: 'Good morning', instructions: 'Speak like a radio host' });
    // Without instructions, the input is recorded as before: the text itself.
    await routed('tts').audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Good night' });
    await eventually(async () => {
      const found = (await request(t.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
      assert.equal(found?.input, 'Good night');
    });
  });
  it('under unreadable_content "reject", a moderations image part is refused with 400 naming it, before any provider call', async () => {
    const policy = (unreadable: string) => request(t.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: {} }, unreadable_content: unreadable }).expect(200);
    await policy('reject');
    try {
      const input = [{ type: 'text' as const, text: 'a calm sea' }, { type: 'image_url' as const, image_url: { url: 'https://example.com/a.png' } }];
      const error = await routed('mod').moderations.create({ model: 'omni-moderation-latest', input }).then(
        () => assert.fail('answered'),
        (caught: unknown) => caught as InstanceType<typeof OpenAI.BadRequestError>,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'input[1]');
      assert.equal(error.code, 'invalid_value');
      assert.equal(fake.requests.length, 0);
      await routed('mod').moderations.create({ model: 'omni-moderation-latest', input: [{ type: 'text', text: 'a calm sea' }] });
      assert.equal(fake.requests.length, 1);
    } finally {
      await policy('allow');
    }
  });
});
