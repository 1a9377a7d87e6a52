// Model endpoints and /v1/responses check the developer key from the headers before reading any of the body.
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const ANNOUNCED = 19 * 1024 * 1024;
const SENT = 64 * 1024;

/**
 * Announces a 19 MB JSON body, sends only its first 64 KB and waits for the answer. A server that
 * reads the body before checking the key never answers, since the rest of the body never comes.
 */
function postPartialBody(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(ANNOUNCED), ...headers } });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.write(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${'x'.repeat(SENT)}`);
  });
}

describe('bounded work before authentication', function () {
  this.timeout(5000); // the old code never answers: fail fast
  let f: TrafficFixture;
  let server: Server;
  let port: number;
  before(async () => {
    f = await createTrafficFixture();
    server = f.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await f.close();
  });

  for (const path of ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/responses']) {
    it(`11.3: ${path} answers 401 to an unknown key before the 19 MB body is read`, async () => {
      const res = await postPartialBody(port, path, { 'x-gateway-apikey': 'gwk_not-a-real-key' });
      assert.equal(res.status, 401);
      assert.equal(JSON.parse(res.body).error.code, 'invalid_api_key');
    });
  }

  it('11.3: a missing key, or a Bearer that is not a developer key, is refused 401 before the body is read', async () => {
    const missing = await postPartialBody(port, '/v1/chat/completions', {});
    assert.equal(missing.status, 401);
    assert.equal(JSON.parse(missing.body).error.code, 'missing_api_key');
    const bearer = await postPartialBody(port, '/v1/chat/completions', { authorization: 'Bearer sk-anything-at-all' });
    assert.equal(bearer.status, 401);
  });

  it('11.3: an admin key is refused on model endpoints before the body is read', async () => {
    const res = await postPartialBody(port, '/v1/chat/completions', { 'x-gateway-apikey': 'test-super-admin-key-0123456789' });
    assert.equal(res.status, 401);
  });
});
