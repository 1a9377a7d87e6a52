// A body sent with a transfer coding other than chunked (`gzip, chunked`) is 501 after authentication and before it is read, on every body-reading endpoint.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** A parsed HTTP/1.1 answer: status, lower-cased headers, body, and whether the server closed the connection. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Interim answers (`100 Continue`) seen before the final one. */
  interim: number[];
}

/** Sends `head` then each of `chunks` in chunked framing over a raw socket, and reads the answer until the server closes. */
function rawPost(port: number, head: string, chunks: Buffer[], options: { waitForAnswer?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('latin1');
      const parts = text.split('\r\n\r\n');
      const interim: number[] = [];
      while (parts.length > 1 && /^HTTP\/1\.1 1\d\d /.test(parts[0]!)) interim.push(Number(parts.shift()!.split(' ')[1]));
      const [statusLine, ...lines] = (parts.shift() ?? '').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: parts.join('\r\n\r\n'), interim });
    });
    socket.write(head);
    // With Expect: 100-continue, a client waits for the answer before it sends the body.
    if (options.waitForAnswer) return;
    for (const chunk of chunks) socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    socket.write('0\r\n\r\n');
  });
}

describe('transfer codings other than chunked', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  const json = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
  const gzipped = gzipSync(json);
  const head = (path: string, headers: Record<string, string>) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  const modelHeaders = (transferEncoding: string) => ({ 'Content-Type': 'application/json', 'Transfer-Encoding': transferEncoding, 'X-Gateway-Apikey': f.developerKey, 'X-Gateway-Route': 'chat' });

  const assertNotImplemented = (answer: RawAnswer, coding: string) => {
    assert.equal(answer.status, 501, answer.body);
    const body = JSON.parse(answer.body) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(body.error.code, 'not_implemented');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(String(body.error.message), new RegExp(`The Transfer-Encoding "${coding}" is not implemented here`));
    assert.equal(answer.headers['x-should-retry'], 'false', 'the official clients retry a 5xx unless told not to');
    assert.equal(answer.headers.connection, 'close');
  };

  it('a chat request sent gzip, chunked is 501 not_implemented and never reaches the provider; chunked alone is read', async () => {
    for (const coding of ['gzip, chunked', 'deflate, chunked', 'identity, chunked', 'x-custom, Chunked']) {
      assertNotImplemented(await rawPost(server.port, head('/v1/chat/completions', modelHeaders(coding)), [gzipped]), coding);
    }
    // Two Transfer-Encoding headers are one list: `gzip` then `chunked`.
    const split = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Gateway-Apikey: ${f.developerKey}\r\nX-Gateway-Route: chat\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n`;
    assertNotImplemented(await rawPost(server.port, split, [gzipped]), 'gzip, chunked');
    assert.equal(f.fake.requests.length, 0, 'the provider is never called');
    // Without chunked framing too, the answer is the same once the headers are read.
    for (let i = 0; i < 5; i++) assertNotImplemented(await rawPost(server.port, head('/v1/chat/completions', { ...modelHeaders('gzip'), Expect: '100-continue' }), [], { waitForAnswer: true }), 'gzip');
    const plain = await rawPost(server.port, head('/v1/chat/completions', { ...modelHeaders('chunked'), Connection: 'close' }), [Buffer.from(json.slice(0, 20)), Buffer.from(json.slice(20))]);
    assert.equal(plain.status, 200, plain.body);
    assert.equal(f.fake.requests.length, 1);
  });

  it('authentication comes first: without a key it is 401, and with a key the body is refused before a byte is read (no 100 Continue)', async () => {
    const anonymous = await rawPost(server.port, head('/v1/chat/completions', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'gzip, chunked', Connection: 'close' }), [gzipped]);
    assert.equal(anonymous.status, 401, anonymous.body);
    const waiting = await rawPost(server.port, head('/v1/chat/completions', { ...modelHeaders('gzip, chunked'), Expect: '100-continue' }), [], { waitForAnswer: true });
    assertNotImplemented(waiting, 'gzip, chunked');
    assert.deepEqual(waiting.interim, [], 'no 100 Continue: the body is never asked for');
  });

  it('every endpoint that reads a body answers the same: /v1/messages, /v1/responses, an audio upload, the admin API and the standalone guardrails', async () => {
    const developer = { 'Transfer-Encoding': 'gzip, chunked', 'X-Gateway-Apikey': f.developerKey, 'X-Gateway-Route': 'chat' };
    const cases: Array<[string, Record<string, string>]> = [
      ['/v1/messages', { ...developer, 'Content-Type': 'application/json' }],
      ['/v1/responses', { ...developer, 'Content-Type': 'application/json' }],
      ['/v1/audio/transcriptions', { ...developer, 'Content-Type': 'multipart/form-data; boundary=x' }],
      ['/v1/admin/applications', { 'Transfer-Encoding': 'gzip, chunked', 'Content-Type': 'application/json', 'X-Api-Key': TEST_KEYS.superAdmin }],
      ['/v1/guardrail/dlp_cloud/apply', { 'Transfer-Encoding': 'gzip, chunked', 'Content-Type': 'application/json', 'X-Gateway-Apikey': f.developerKey }],
    ];
    for (const [path, headers] of cases) {
      const answer = await rawPost(server.port, head(path, headers), [gzipped]);
      assert.equal(answer.status, 501, `${path}: ${answer.status} ${answer.body}`);
      const body = JSON.parse(answer.body) as { error?: { code?: string }; type?: string };
      // /v1/messages answers in Anthropic's shape, with the gateway's code beside the type.
      assert.equal(body.error?.code, 'not_implemented', path);
    }
    assert.equal(f.fake.requests.length, 0);
  });
});
