// A host app's express.json() runs before the gateway: the gateway's own body size and nesting limits still apply.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { errorMiddleware } from '../../src/index.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

describe('bodies a host app parsed first', () => {
  let f: TrafficFixture;
  let host: express.Express;
  before(async () => {
    f = await createTrafficFixture({ modelBodyLimitBytes: 4096, bodyLimitBytes: 2048, maxJsonDepth: 8 });
    host = express();
    host.use(express.json({ limit: '50mb' }));
    host.use(f.gateway.router);
    host.use(errorMiddleware());
  });
  after(() => f.close());

  const chat = (body: unknown) => request(host).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(body as object);

  it('15.8: a model body over modelBodyLimitBytes is 413 even though the host parser allowed 50 MB', async () => {
    const res = await chat(chatBody({ messages: [{ role: 'user', content: 'x'.repeat(10_000) }] })).expect(413);
    assert.equal(res.body.error.code, 'body_too_large');
    assert.equal(f.fake.requests.length, 0);
    await chat(chatBody()).expect(200);
  });

  it('15.8: an admin body over bodyLimitBytes is 413, and one nested deeper than maxJsonDepth is 400 json_too_deep', async () => {
    const big = await request(host).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.admin).send({ name: 'big', description: 'x'.repeat(5000) }).expect(413);
    assert.equal(big.body.error.code, 'body_too_large');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = [deep];
    const res = await chat(chatBody({ metadata: { deep } })).expect(400);
    assert.equal(res.body.error.code, 'json_too_deep');
  });

  it('15.8: a chunked body the host parsed is measured by its JSON text', async () => {
    const server = host.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const req = httpRequest({
        host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/v1/chat/completions', method: 'POST',
        headers: { 'x-gateway-apikey': f.developerKey, 'content-type': 'application/json' },
      });
      const body = JSON.stringify(chatBody({ messages: [{ role: 'user', content: 'y'.repeat(10_000) }] }));
      req.write(body.slice(0, 100));
      req.end(body.slice(100));
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      let text = '';
      for await (const chunk of res) text += String(chunk);
      assert.equal(res.statusCode, 413);
      assert.equal(JSON.parse(text).error.code, 'body_too_large');
    } finally {
      server.close();
    }
  });
});
