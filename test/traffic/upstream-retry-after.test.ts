// A provider's Retry-After on its final failure reaches the client, on chat completions and /v1/messages, through the official clients.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

describe('an upstream Retry-After is answered to the client', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;

  before(async () => {
    f = await createTrafficFixture();
    await addTranslatedRoutes(f);
    await f.create('/v1/admin/routes', { name: 'via-openai', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
  });
  beforeEach(() => f.fake.reset());

  it('a 429 with Retry-After (longer than the gateway waits) reaches the openai client with that Retry-After', async () => {
    f.fake.script({ fail: { status: 429, retryAfter: 30 } });
    const openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-openai' } });
    await assert.rejects(openai.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError, String(error));
      assert.equal(error.headers?.get('retry-after'), '30');
      return true;
    });
  });

  it("Gemini's retryDelay (its error body's RetryInfo, with no Retry-After header) reaches the openai client as Retry-After", async () => {
    const details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '35s' }];
    f.fake.script({ fail: { status: 429, body: { error: { code: 429, message: 'Resource has been exhausted.', status: 'RESOURCE_EXHAUSTED', details } } } });
    const openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-gemini' } });
    await assert.rejects(openai.chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError, String(error));
      assert.equal(error.headers?.get('retry-after'), '35');
      return true;
    });
  });

  it('an Anthropic 429 or 529 with Retry-After reaches the Anthropic SDK on /v1/messages with that Retry-After, JSON and streamed', async () => {
    const anthropic = new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-anthropic' } });
    const body = { model: 'any', max_tokens: 16, messages: [{ role: 'user' as const, content: 'Hi' }] };
    for (const [status, kind] of [[429, Anthropic.RateLimitError], [529, Anthropic.InternalServerError]] as const) {
      f.fake.script({ fail: { status, retryAfter: 45 } });
      for (const call of [() => anthropic.messages.create(body), () => anthropic.messages.stream(body).finalMessage()]) {
        await assert.rejects(call(), (error: unknown) => {
          assert.ok(error instanceof kind, `${status}: ${String(error)}`);
          assert.equal((error as InstanceType<typeof Anthropic.APIError>).status, status);
          assert.equal((error as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after'), '45');
          return true;
        });
      }
    }
  });
});
