// The official openai client, pointed at the gateway, completes chat, streaming chat and embeddings.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('the official openai client through the gateway', () => {
  let f: TrafficFixture;
  let server: Server;
  let client: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await f.create('/v1/admin/routes', { name: 'embed', type: 'embeddings', models: [{ name: 'text-embedding-3-small', provider: 'fake' }] });
    server = f.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = new OpenAI({
      apiKey: 'sk-client-bearer-for-provider',
      baseURL: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
      defaultHeaders: { 'X-Gateway-Apikey': f.developerKey, 'X-Gateway-route': 'chat' },
      maxRetries: 0,
    });
  });
  after(async () => {
    server.close();
    await f.close();
  });

  it('completes a chat', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(completion.choices[0]?.message.content, 'Hello from the fake provider.');
    // With X-Gateway-Apikey present, the SDK's Bearer is ignored: the stored provider key is sent.
    assert.equal(f.fake.requests.at(-1)?.headers.authorization, 'Bearer sk-stored-provider-key-0001');
  });

  it('streams a chat chunk by chunk', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const deltas: string[] = [];
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
    assert.ok(deltas.filter((d) => d !== '').length >= 2, 'several content chunks');
    assert.equal(deltas.join(''), 'Hello from the fake provider.');
  });

  it('surfaces a mid-stream failure as an error, not a clean end', async () => {
    f.fake.script([{ chunks: 4, failAfterChunks: 1 }]);
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    await assert.rejects(async () => {
      for await (const _chunk of stream) void _chunk;
    }, OpenAI.APIError);
  });

  it('creates embeddings', async () => {
    const embeddings = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' }, { headers: { 'X-Gateway-route': 'embed' } });
    assert.equal(embeddings.data.length, 2);
    assert.ok(embeddings.data[0]!.embedding.length > 0);
  });

  it('receives gateway errors as APIError with the OpenAI error fields', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'X-Gateway-route': 'missing' } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.NotFoundError);
    assert.equal(error.code, 'not_found');
  });
});
