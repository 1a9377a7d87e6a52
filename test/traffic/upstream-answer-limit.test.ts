// A provider's answer is read up to upstream.maxAnswerBytes (whole) or maxStreamBytes (streamed): past it, 502 upstream_invalid_response (or the fallback's answer) or a stream cut with an error event; never held on.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import request from 'supertest';
import { createGateway } from '../../src/index.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback, type RawLoopbackServer } from '../helpers/loopback-server.js';

const LIMIT = 64 * 1024;

describe('upstream.maxAnswerBytes and maxStreamBytes: the most of an answer read from a provider', () => {
  let f: TrafficFixture;
  let huge: RawLoopbackServer;
  let endless: RawLoopbackServer;
  let sentBytes = 0;
  let streamedBytes = 0;
  before(async () => {
    f = await createTrafficFixture({ upstream: { maxAnswerBytes: LIMIT, maxStreamBytes: LIMIT } });
    // An OpenAI-format upstream whose stream goes on for 16 MiB of ordinary chunks.
    endless = await listenRawOnLoopback(createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = Buffer.from(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'more text '.repeat(50) }, finish_reason: null }] })}\n\n`);
      let open = true;
      const more = (): void => {
        while (open && streamedBytes < 16 * 1024 * 1024) {
          streamedBytes += event.length;
          if (!res.write(event)) return void res.once('drain', more);
        }
        if (open) res.end('data: [DONE]\n\n');
      };
      res.on('close', () => (open = false));
      more();
    }));
    await f.create('/v1/admin/providers', { name: 'endless', type: 'openai', config: { api_base: `${endless.url}/v1` }, api_keys: [{ api_key: 'sk-endless-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'endless', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'm', provider: 'endless' }] });
    // An OpenAI-format upstream whose 200 answer goes on for 16 MiB, in 64 KiB writes.
    huge = await listenRawOnLoopback(createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const piece = Buffer.alloc(64 * 1024, 'a');
      let left = 256;
      const more = (): void => {
        while (left > 0) {
          left -= 1;
          sentBytes += piece.length;
          if (!res.write(left === 255 ? Buffer.concat([Buffer.from('{"pad":"'), piece]) : piece)) return void res.once('drain', more);
        }
        res.end('"}');
      };
      res.on('close', () => (left = 0));
      more();
    }));
    await f.create('/v1/admin/providers', { name: 'huge', type: 'openai', config: { api_base: `${huge.url}/v1` }, api_keys: [{ api_key: 'sk-huge-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'huge', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'm', provider: 'huge' }] });
    await f.create('/v1/admin/routes', {
      name: 'huge-then-fake',
      type: 'chat',
      config: { settings: { retries: 0 } },
      models: [
        { name: 'm', provider: 'huge', weight: 1, fallback_enabled: true, fallback_codes: [502] },
        { name: 'gpt-4o-mini', provider: 'fake', weight: 0 },
      ],
    });
  });
  after(async () => {
    await f.close();
    await huge.close();
    await endless.close();
  });
  const chat = (route: string) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(chatBody());

  it('an answer over the limit is 502 upstream_invalid_response naming the limit, and the gateway stops reading it', async () => {
    const res = await chat('huge').expect(502);
    assert.equal(res.body.error.code, 'upstream_invalid_response');
    assert.ok(res.body.error.message.includes(String(LIMIT)), res.text);
    assert.ok(sentBytes < 16 * 1024 * 1024, `the upstream wrote all ${sentBytes} bytes: the gateway read the answer whole`);
  });

  it('it counts as a 502 for fallback, and an answer under the limit passes', async () => {
    const res = await chat('huge-then-fake').expect(200);
    assert.equal(res.headers['x-gateway-model'], 'gpt-4o-mini');
    assert.equal(res.body.choices[0].message.content, 'Hello from the fake provider.');
  });

  it('a stream over maxStreamBytes is cut with an error event, and the gateway stops reading it', async () => {
    const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'endless' }).send(chatBody({ stream: true }));
    assert.equal(res.status, 200);
    assert.ok(res.text.includes('event: error') && res.text.includes('upstream_stream_error') && res.text.includes(String(LIMIT)), res.text.slice(-400));
    assert.ok(!res.text.includes('[DONE]'), 'the cut stream ended as a finished one');
    assert.ok(res.text.length < 2 * LIMIT, `the client got ${res.text.length} characters`);
    assert.ok(streamedBytes < 16 * 1024 * 1024, `the upstream wrote all ${streamedBytes} bytes: the gateway read the stream to its end`);
  });

  it('a limit that is not a positive integer is refused when the gateway is created', () => {
    for (const value of [0, -1, 1.5, Number.NaN]) {
      for (const name of ['maxAnswerBytes', 'maxStreamBytes']) {
        assert.throws(() => createGateway({ upstream: { [name]: value } }), (error: { code?: string }) => error.code === 'config_invalid', `${name} ${value}`);
      }
    }
  });
});
