// createExpressServer: requests arrive with the app's prototypes already, and the gateway behaves as under app.listen.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import OpenAI from 'openai';
import { createExpressServer } from '../../src/index.js';
import { chatBody } from '../helpers/traffic-fixture.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createExpressServer', () => {
  let f: TrafficFixture;
  let server: Server;
  let base: string;
  const arrived: boolean[] = [];
  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    server = createExpressServer(f.app);
    // Runs before Express sees the request: was it created with the app's prototype?
    arrived.length = 0;
    server.prependListener('request', (req: IncomingMessage) => arrived.push(Object.getPrototypeOf(req) === f.app.request));
    base = await listen(server);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  it('creates each request and response with the app prototypes before Express handles them', async () => {
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(arrived, [true]);
    const plain = express();
    const listened = plain.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => listened.once('listening', resolve));
      let before: boolean | undefined;
      listened.prependListener('request', (req: IncomingMessage) => (before = Object.getPrototypeOf(req) === plain.request));
      await fetch(`http://127.0.0.1:${(listened.address() as AddressInfo).port}/`);
      assert.equal(before, false, 'app.listen hands Express plain node:http objects, which it re-prototypes');
    } finally {
      listened.close();
    }
  });

  it('serves model traffic to the openai client, streamed and not, with the request id and the error shape', async () => {
    const client = new OpenAI({ apiKey: f.developerKey, baseURL: `${base}/v1`, defaultHeaders: { 'x-gateway-route': 'chat' }, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(answer.choices[0]?.message.content, 'Hello from the fake provider.');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'Hello from the fake provider.');
    const res = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'req-express-server-1' }, body: '{}' });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('x-request-id'), 'req-express-server-1');
    const body = (await res.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
    const missing = await fetch(`${base}/no/such/path`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { type: string } }).error.type, 'not_found_error');
    const routes = await fetch(`${base}/v1/admin/routes`, { headers: { 'x-api-key': TEST_KEYS.viewer } });
    assert.equal(routes.status, 200);
    assert.ok(arrived.length >= 5 && arrived.every(Boolean));
  });

  it("answers requests Node's parser refuses (431, 400) in the error shape, not with an empty body, and keeps serving", async () => {
    const { port } = server.address() as AddressInfo;
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        let answer = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk)).on('end', () => resolve(answer)).on('error', reject);
      });
    const cases: Array<[string, string, string]> = [
      [`GET /v1/models/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`, '431', 'headers_too_large'],
      [`GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`, '431', 'headers_too_large'],
      ['NOT HTTP AT ALL\r\n\r\n', '400', 'malformed_request'],
      ['GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', '400', 'malformed_request'],
      ['GET /healthz HTTP/1.1\r\n\r\n', '400', 'missing_header'],
      ['POST /v1/chat/completions HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}', '417', 'expectation_failed'],
    ];
    for (const [request, status, code] of cases) {
      const answer = await raw(request);
      assert.equal(answer.split(' ')[1], status, answer.slice(0, 200));
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: Record<string, unknown> };
      assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(body.error.code, code);
      assert.ok(!String(body.error.message).includes('xxxx'), 'the request is not quoted back');
    }
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  it('answers Expect: 100-continue with 100 only when the body is read: a bad key gets its 401 and the body is never sent', async () => {
    const { port } = server.address() as AddressInfo;
    const body = JSON.stringify(chatBody({ messages: [{ role: 'user', content: 'x'.repeat(100_000) }] }));
    /** Sends the headers alone and waits for what comes back before any body is sent. */
    const headersOnly = async (key: string, extra = '') => {
      const socket = connect(port, '127.0.0.1');
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: a\r\n${extra}Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
      const [first] = (await once(socket, 'data')) as [Buffer];
      return { socket, first: first.toString('utf8') };
    };
    const refused = await headersOnly('gwk_not-a-key');
    assert.match(refused.first, /^HTTP\/1\.1 401 /, refused.first.slice(0, 80));
    assert.match(refused.first, /\r\nConnection: close\r\n/i);
    await once(refused.socket, 'close');
    assert.equal(f.fake.requests.length, 0);

    const accepted = await headersOnly(f.developerKey, 'Connection: close\r\n');
    assert.match(accepted.first, /^HTTP\/1\.1 100 Continue\r\n\r\n/);
    let answer = accepted.first.slice(accepted.first.indexOf('\r\n\r\n') + 4);
    accepted.socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    accepted.socket.write(body);
    await once(accepted.socket, 'close');
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.ok(answer.includes('Hello from the fake provider.'), answer.slice(0, 300));
    assert.equal(f.fake.requests.length, 1);
  });

  it('adds one property of its own to a model or admin request (its record), so hosts on app.listen pay for one new hidden class, not one per step', async () => {
    const app = express();
    let seen: Record<symbol, unknown> | undefined;
    app.use((req, _res, next) => {
      seen = req as unknown as Record<symbol, unknown>;
      next();
    });
    app.use(f.gateway.router);
    await request(app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).set('x-gateway-route', 'chat').send(chatBody()).expect(200);
    const own = Object.getOwnPropertySymbols(seen!).map((symbol) => symbol.description).filter((name) => name?.startsWith('gateway.'));
    assert.deepEqual(own, ['gateway.request']);
    // An admin request keeps its principal in the same record.
    await request(app).get('/v1/admin/routes').set('x-api-key', TEST_KEYS.viewer).expect(200);
    const adminOwn = Object.getOwnPropertySymbols(seen!).map((symbol) => symbol.description).filter((name) => name?.startsWith('gateway.'));
    assert.deepEqual(adminOwn, ['gateway.request']);
  });

  it('keeps Express semantics for an app mounted inside the app: its own req.app inside, the outer one after', async () => {
    const app = express();
    const inner = express();
    inner.get('/inner', (req, res, next) => {
      res.setHeader('x-inner-app', String(req.app === inner));
      next();
    });
    app.use(inner);
    app.get('/inner', (req, res) => {
      res.json({ outer: req.app === app, locals: typeof res.locals });
    });
    const own = createExpressServer(app);
    const url = await listen(own);
    try {
      const res = await fetch(`${url}/inner`);
      assert.equal(res.headers.get('x-inner-app'), 'true');
      assert.deepEqual(await res.json(), { outer: true, locals: 'object' });
    } finally {
      own.close();
    }
  });
});
