// A whole answer from a provider is read up to upstream.maxAnswerBytes: past it, 502 upstream_invalid_response (or the fallback's answer), never held whole.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import request from 'supertest';
import { createGateway } from '../../src/index.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback, type RawLoopbackServer } from '../helpers/loopback-server.js';

const LIMIT = 64 * 1024;

describe('upstream.maxAnswerBytes: the most of a whole answer read from a provider', () => {
  let f: TrafficFixture;
  let huge: RawLoopbackServer;
  let sentBytes = 0;
  before(async () => {
    f = await createTrafficFixture({ upstream: { maxAnswerBytes: LIMIT } });
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

  it('a limit that is not a positive integer is refused when the gateway is created', () => {
    for (const maxAnswerBytes of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => createGateway({ upstream: { maxAnswerBytes } }), (error: { code?: string }) => error.code === 'config_invalid', String(maxAnswerBytes));
    }
  });
});
