// Streamed image generations with the official client: the upstream gets OpenAI's images body, and the events come back whole.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

const USAGE = { input_tokens: 12, output_tokens: 272, total_tokens: 284, input_tokens_details: { image_tokens: 0, text_tokens: 12 } };

describe('streamed image generations', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  const bodies: Array<Record<string, unknown>> = [];

  before(async () => {
    f = await createTrafficFixture();
    // As OpenAI's images API does, an unknown member (chat's stream_options) is refused.
    upstream = await listenJsonUpstream((res, body) => {
      bodies.push(body);
      if ('stream_options' in body) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: "Unknown parameter: 'stream_options'.", type: 'invalid_request_error', param: 'stream_options', code: 'unknown_parameter' } }));
      }
      const event = (data: object) => `event: ${(data as { type: string }).type}\ndata: ${JSON.stringify(data)}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ type: 'image_generation.partial_image', b64_json: Buffer.from('part').toString('base64'), created_at: 1, partial_image_index: 0, size: '1024x1024', quality: 'low', background: 'opaque', output_format: 'png' }));
      res.end(event({ type: 'image_generation.completed', b64_json: Buffer.from('whole').toString('base64'), created_at: 2, size: '1024x1024', quality: 'low', background: 'opaque', output_format: 'png', usage: USAGE }));
    });
    await f.create('/v1/admin/providers', { name: 'images', type: 'openai', config: { api_base: `${upstream.url}/v1` }, api_keys: [{ api_key: 'sk-image-stream-000001' }] });
    await f.create('/v1/admin/routes', { name: 'img', type: 'images', models: [{ name: 'gpt-image-1', provider: 'images' }] });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await upstream.close();
    await f.close();
  });

  it('images.generate({stream: true}) sends no stream_options, and the completed event keeps its usage', async () => {
    const client = new OpenAI({ apiKey: f.developerKey, baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'img' } });
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk', stream: true, partial_images: 1 });
    const events = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(events.map((event) => event.type), ['image_generation.partial_image', 'image_generation.completed']);
    const completed = events[1] as OpenAI.Images.ImageGenCompletedEvent;
    assert.equal(Buffer.from(completed.b64_json, 'base64').toString(), 'whole');
    assert.deepEqual(completed.usage, USAGE);
    assert.equal(bodies.length, 1);
    assert.equal(bodies[0]!.stream, true);
    assert.equal('stream_options' in bodies[0]!, false);
    const entry = (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
    assert.equal(entry.endpoint, '/v1/images/generations');
    assert.equal(entry.status, 200);
    assert.deepEqual(entry.usage, USAGE, 'the request log keeps the usage of the completed event');
  });
});
