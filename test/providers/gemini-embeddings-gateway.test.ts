// Gemini embeddings through the gateway with the official openai client: base64 by default, and broken answers refused.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

describe('Gemini embeddings through the gateway (openai client)', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let client: OpenAI;
  const bodies: Array<Record<string, unknown>> = [];
  /** How the fake Gemini answers the next call: the vectors of each request, or a scripted answer. */
  let answer: (requests: unknown[]) => unknown = (requests) => ({ embeddings: requests.map((_, index) => ({ values: [index + 0.5, -1, 0.25] })) });

  before(async () => {
    f = await createTrafficFixture();
    upstream = await listenJsonUpstream((res, body) => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(body.requests as unknown[])));
    });
    await f.create('/v1/admin/providers', { name: 'gem', type: 'gemini', config: { api_base: upstream.url }, api_keys: [{ api_key: 'AIzaGeminiEmbeddingsKey0001' }] });
    await f.create('/v1/admin/routes', { name: 'emb', type: 'embeddings', models: [{ name: 'text-embedding-004', provider: 'gem' }] });
    server = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'emb' } });
  });
  after(async () => {
    server.close();
    await upstream.close();
    await f.close();
  });

  it('embeddings.create() (which asks for base64) gets its vectors in order, with dimensions as outputDimensionality', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-004', input: ['first', 'second'], dimensions: 3 });
    assert.deepEqual(result.data.map((item) => [item.index, item.embedding]), [[0, [0.5, -1, 0.25]], [1, [1.5, -1, 0.25]]]);
    assert.deepEqual(result.usage, { prompt_tokens: 0, total_tokens: 0 });
    const sent = bodies.at(-1)!.requests as Array<Record<string, unknown>>;
    assert.deepEqual(sent.map((item) => [item.content, item.outputDimensionality]), [[{ parts: [{ text: 'first' }] }, 3], [{ parts: [{ text: 'second' }] }, 3]]);
  });

  it('an answer with fewer embeddings than inputs, or one without numbers, is 502 upstream_invalid_response', async () => {
    const broken: Array<(requests: unknown[]) => unknown> = [
      () => ({ embeddings: [{ values: [1, 2] }] }),
      (requests) => ({ embeddings: requests.map(() => ({})) }),
      (requests) => ({ embeddings: requests.map(() => ({ values: ['1', null] })) }),
    ];
    try {
      for (const script of broken) {
        answer = script;
        await assert.rejects(client.embeddings.create({ model: 'text-embedding-004', input: ['a', 'b'], encoding_format: 'float' }), (error: unknown) => {
          assert.ok(error instanceof OpenAI.APIError, String(error));
          assert.equal(error.status, 502);
          assert.equal((error.error as { code: string }).code, 'upstream_invalid_response');
          return true;
        });
      }
    } finally {
      answer = (requests) => ({ embeddings: requests.map((_, index) => ({ values: [index + 0.5, -1, 0.25] })) });
    }
  });
});
