// The MCP proxy as a trust boundary (issue 11.3, 11.5): every tools/call screened, headers allow-listed, stream headers at once, bounded answers.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import request from 'supertest';
import { createGateway, type GatewayOptions } from '../../src/index.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { RAW_TOOLS, startRawToolServer, type RawToolServer } from './raw-tool-server.js';

const RAW_TOKEN = 'raw-registry-token-0123456789';

interface RawFixture extends TestGateway {
  raw: RawToolServer;
  base: string;
  developerKey: string;
  /** POSTs a JSON-RPC body to the registry `raw` through the proxy. */
  post(body: unknown): request.Test;
}

async function createRawFixture(options: GatewayOptions = {}): Promise<RawFixture> {
  const raw = await startRawToolServer();
  const t = await createTestGateway(options);
  const server: Server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
  assert.equal((await admin('/v1/admin/mcp/registries', { name: 'raw', url: raw.url, authorization_token: RAW_TOKEN })).status, 201);
  await admin('/v1/admin/applications', { name: 'app' });
  const developerKey = (await admin('/v1/admin/applications/app/keys', {})).body.key as string;
  return {
    ...t,
    raw,
    base,
    developerKey,
    post: (body) => request(t.app).post('/v1/mcp/raw').set('authorization', `Bearer ${developerKey}`).set('accept', 'application/json, text/event-stream').send(body as object),
    async close() {
      server.closeAllConnections();
      server.close();
      await t.close();
      await raw.close();
    },
  };
}

describe('MCP proxy limits', () => {
  it('refuses limits that are not positive numbers with config_invalid', () => {
    for (const mcp of [{ bodyTimeoutMs: 0 }, { maxResponseBytes: -1 }, { bodyTimeoutMs: Number.NaN }]) {
      assert.throws(() => createGateway({ mcp }), (error: { code?: string }) => error.code === 'config_invalid', JSON.stringify(mcp));
    }
  });
});

describe('MCP proxy trust boundary', () => {
  let f: RawFixture;
  afterEach(() => f?.close());

  describe('with default limits', () => {
    beforeEach(async () => {
      f = await createRawFixture();
    });

    it('11.5: a tools/call with id null or no id is screened (a disabled tool never runs) and answered with a JSON-RPC error', async () => {
      await request(f.app).put('/v1/admin/mcp/registries/raw/tools/danger').set('x-api-key', TEST_KEYS.admin).send({ enabled: false }).expect(200);
      const nullId = await f.post({ jsonrpc: '2.0', id: null, method: 'tools/call', params: { name: 'danger', arguments: {} } }).expect(200);
      assert.equal(nullId.body.id, null);
      assert.equal(nullId.body.error.code, -32600);
      const noId = await f.post({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'danger', arguments: {} } }).expect(200);
      assert.equal(noId.body.error.code, -32600);
      // An enabled tool called without a usable id is refused too: a call must be answerable and recorded.
      const enabledNoId = await f.post({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'probe' } }).expect(200);
      assert.equal(enabledNoId.body.error.code, -32600);
      assert.deepEqual(f.raw.calls(), [], 'no tools/call reached the tool server');
      const entries = (await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data as Array<{ tool_invocations: Array<{ tool: string; blocked?: boolean }> }>;
      assert.equal(entries.length, 3, 'every refused call is recorded');
      assert.ok(entries.every((entry) => entry.tool_invocations[0]?.blocked === true));
    });

    it('11.5: a tools/call without a valid params.name is answered with a JSON-RPC invalid-params error, never forwarded', async () => {
      for (const params of [undefined, {}, { name: 42 }, { name: '' }, ['danger']]) {
        const res = await f.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params === undefined ? {} : { params }) }).expect(200);
        assert.equal(res.body.id, 7);
        assert.equal(res.body.error.code, -32602, JSON.stringify(params));
      }
      assert.deepEqual(f.raw.calls(), []);
    });

    it('refuses a JSON-RPC batch as a whole, so a tools/call cannot ride in it', async () => {
      await f.post([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'danger' } }]).expect(400);
      assert.deepEqual(f.raw.calls(), []);
    });

    it('11.5: GET and DELETE forward only the allow-listed client headers, with the registry token', async () => {
      // The tool server's session id reaches the client bound to it (`session-1.<tag>`), and goes back upstream bare.
      f.raw.onGet = (_req, res) => void res.writeHead(405, { 'mcp-session-id': 'session-1' }).end();
      const bound = (await fetch(`${f.base}/v1/mcp/raw`, { headers: { authorization: `Bearer ${f.developerKey}` } })).headers.get('mcp-session-id');
      assert.match(bound ?? '', /^session-1\.[\w-]{22}$/);
      const sent = {
        authorization: `Bearer ${f.developerKey}`,
        'x-api-key': TEST_KEYS.superAdmin,
        'proxy-authorization': 'Basic c2VjcmV0OnNlY3JldA==',
        'x-forwarded-for': '10.0.0.1',
        cookie: 'session=abc',
        'x-custom': 'private',
        accept: 'text/event-stream',
        'mcp-session-id': bound!,
        'mcp-protocol-version': '2025-06-18',
        'last-event-id': '4',
      };
      await fetch(`${f.base}/v1/mcp/raw`, { headers: sent });
      await fetch(`${f.base}/v1/mcp/raw`, { method: 'DELETE', headers: sent });
      const relayed = f.raw.requests.filter((r) => (r.method === 'GET' || r.method === 'DELETE') && r.headers['mcp-session-id'] === 'session-1');
      assert.equal(relayed.length, 2);
      for (const { headers } of relayed) {
        for (const name of ['x-api-key', 'proxy-authorization', 'x-forwarded-for', 'cookie', 'x-custom', 'x-gateway-apikey']) assert.equal(headers[name], undefined, name);
        assert.equal(headers.authorization, `Bearer ${RAW_TOKEN}`);
        assert.equal(headers['mcp-session-id'], 'session-1');
        assert.equal(headers['mcp-protocol-version'], '2025-06-18');
        assert.equal(headers['last-event-id'], '4');
      }
    });

    it('scrubs the registry token and the caller\'s key from the headers a tool server answers (POST, and GET or DELETE alike)', async () => {
      const echo = (req: { headers: Record<string, string | string[] | undefined> }) => {
        const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        return { 'content-type': `application/json; token="${token}"`, 'cache-control': `no-store, x-${Buffer.from(token).toString('base64')}`, 'mcp-protocol-version': encodeURIComponent(token), 'mcp-session-id': `s-${token}` };
      };
      f.raw.onCall = (message, res) => {
        res.writeHead(200, echo(f.raw.requests.at(-1)!));
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'ok' }] } }));
      };
      f.raw.onGet = (req, res) => void res.writeHead(405, echo(req)).end();
      const answers = [
        await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe', arguments: {} } }).expect(200),
        await request(f.app).get('/v1/mcp/raw').set('authorization', `Bearer ${f.developerKey}`),
      ];
      for (const answer of answers) {
        const headers = JSON.stringify(answer.headers);
        for (const secret of [RAW_TOKEN, Buffer.from(RAW_TOKEN).toString('base64').slice(0, 24), f.developerKey]) assert.ok(!headers.includes(secret), `${secret} in ${headers}`);
        assert.match(String(answer.headers['cache-control']), /\[REDACTED\]/);
      }
    });

    it("runs the registry policies on a tool server's HTTP error body, which MCP clients read into the call's error", async () => {
      const email = 'erin.errored@example.com';
      f.raw.onCall = (_message, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end(`could not mail ${email}`);
      const masked = await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe', arguments: {} } }).expect(500);
      assert.match(masked.text, /^could not mail /);
      assert.doesNotMatch(masked.text, /erin\.errored@example\.com/);
      await request(f.app).put('/v1/admin/mcp/registries/raw/policies').set('x-api-key', TEST_KEYS.superAdmin).send({ data_protection: { mode: 'reject', action: 'block' } }).expect(200);
      const blocked = await f.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'probe', arguments: {} } }).expect(500);
      assert.match(String(blocked.headers['content-type']), /application\/json/);
      assert.match(JSON.parse(blocked.text).error.message, /^Blocked by the registry policy data_protection/);
      assert.doesNotMatch(blocked.text, /erin/);
    });

    it('checks a GET answer of any content type as the event stream MCP clients read it as (a label cannot smuggle unchecked events)', async () => {
      // The official SDK's client reads any 2xx answer to its GET as an event stream, whatever its content-type.
      await request(f.app).put('/v1/admin/mcp/registries/raw/tools/danger').set('x-api-key', TEST_KEYS.superAdmin).send({ enabled: false }).expect(200);
      const events = [
        { jsonrpc: '2.0', id: 'replayed', result: { tools: RAW_TOOLS } },
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'mail dana.smuggled@example.com' } },
      ];
      const body = events.map((event, i) => `id: ${i}\nevent: message\ndata: ${JSON.stringify(event)}\n\n`).join('');
      for (const type of ['application/json', 'text/plain', undefined]) {
        f.raw.onGet = (_req, res) => void res.writeHead(200, type ? { 'content-type': type } : {}).end(body);
        const res = await request(f.app).get('/v1/mcp/raw').set('authorization', `Bearer ${f.developerKey}`).buffer(true).parse((response, done) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          response.on('end', () => done(null, text));
        });
        assert.equal(res.status, 200, String(res.body));
        const read = String(res.body).split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)));
        assert.equal(read.length, 2, `${type}: ${String(res.body)}`);
        assert.deepEqual(read[0].result.tools.map((tool: { name: string }) => tool.name), ['probe'], `${type}: the disabled tool is listed`);
        assert.doesNotMatch(String(res.body), /dana\.smuggled@example\.com/, `${type}: the notification is not redacted`);
      }
    });

    it('scrubs the registry token from an error body that writes it with JSON escapes, which a client would decode', async () => {
      const escaped = RAW_TOKEN.replace('r', '\\u0072');
      f.raw.onCall = (_message, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end(`{"error":"bad token ${escaped}"}`);
      const res = await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe', arguments: {} } }).expect(500);
      assert.deepEqual(JSON.parse(res.text), { error: 'bad token [REDACTED]' });
    });

    it('11.5: GET answers status and headers as soon as the tool server sends them, before any event', async () => {
      let sendEvent: (text: string) => void = () => undefined;
      let upstreamClosed!: Promise<unknown>;
      f.raw.onGet = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        sendEvent = (text) => res.write(text);
        upstreamClosed = new Promise((resolve) => res.once('close', resolve));
      };
      // The tool server sends no event; before the fix this fetch got no answer at all.
      const stream = await fetch(`${f.base}/v1/mcp/raw`, { headers: { authorization: `Bearer ${f.developerKey}`, accept: 'text/event-stream' }, signal: AbortSignal.timeout(5000) });
      assert.equal(stream.status, 200);
      assert.match(stream.headers.get('content-type') ?? '', /text\/event-stream/);
      const reader = stream.body!.getReader();
      sendEvent(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"hello"}}\n\n`);
      const { value } = await reader.read();
      assert.match(new TextDecoder().decode(value), /notifications\/message/);
      await reader.cancel();
      await upstreamClosed; // the client left, so the gateway closed the tool server's stream too
    });

    it('answers a JSON-RPC error when the tool server ends its event stream without answering', async () => {
      f.raw.onCall = (_m, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end();
      };
      const res = await f.post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'probe' } }).buffer(true).parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString()));
        r.on('end', () => done(null, text));
      });
      const answer = JSON.parse(String(res.body).split('\n').find((line) => line.startsWith('data: '))!.slice(6));
      assert.deepEqual([answer.id, answer.error.code], [5, -32603]);
    });

    it('11.3: invalid JSON from the tool server is 502 upstream_invalid_response', async () => {
      f.raw.onCall = (_m, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":"2.0","id":1,"result":');
      };
      const res = await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe' } }).expect(502);
      assert.equal(res.body.error.code, 'upstream_invalid_response');
    });

    it('11.3: a tool-server answer nested deeper than the limit is 502 upstream_invalid_response', async () => {
      f.raw.onCall = (message, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[],"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`);
      };
      const res = await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe' } }).expect(502);
      assert.equal(res.body.error.code, 'upstream_invalid_response');
    });

    it('refuses a GET or DELETE that carries a body (400), so its bytes never reach the tool server as a request of their own', async () => {
      // The body is a whole HTTP request: forwarded without its length, a tool server would read it as the next one.
      const call = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'danger', arguments: {} } });
      const smuggled = `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${call.length}\r\n\r\n${call}`;
      const framings = [
        { method: 'GET', framing: `Content-Length: ${smuggled.length}\r\n\r\n${smuggled}` },
        { method: 'DELETE', framing: `Transfer-Encoding: chunked\r\n\r\n${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n` },
      ];
      const before = f.raw.requests.length;
      for (const { method, framing } of framings) {
        const socket = connect(Number(new URL(f.base).port), '127.0.0.1');
        socket.end(`${method} /v1/mcp/raw HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${f.developerKey}\r\nConnection: close\r\n${framing}`);
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
        await once(socket, 'close');
        assert.match(answer, /^HTTP\/1\.1 400 /, method);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
        assert.equal(body.error.code, 'invalid_value', method);
      }
      assert.deepEqual(f.raw.requests.slice(before).map((r) => r.method), []);
      assert.deepEqual(f.raw.calls(), []);
    });

    it('11.3: a request body nested 5,000 levels is refused with 400 before reaching the tool server', async () => {
      const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","arguments":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
      const before = f.raw.requests.length;
      const res = await request(f.app).post('/v1/mcp/raw').set('authorization', `Bearer ${f.developerKey}`).set('content-type', 'application/json').send(deep).expect(400);
      assert.equal(res.body.error.code, 'json_too_deep');
      assert.equal(f.raw.requests.length, before);
    });
  });

  describe('with small limits', () => {
    beforeEach(async () => {
      f = await createRawFixture({ mcp: { bodyTimeoutMs: 300, maxResponseBytes: 64 * 1024 } });
    });

    it('11.3: headers followed by silence end with 504 mcp_upstream_timeout after the body timeout', async () => {
      f.raw.onCall = (_m, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
      };
      const res = await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe' } }).expect(504);
      assert.equal(res.body.error.code, 'mcp_upstream_timeout');
      const entries = (await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data;
      assert.equal(entries[0].status, 504);
    });

    it('11.3: an event stream that goes silent ends with a JSON-RPC error for the pending call', async () => {
      f.raw.onCall = (_m, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': keep-alive\n\n');
      };
      const res = await fetch(`${f.base}/v1/mcp/raw`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.developerKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'probe' } }),
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      const answer = JSON.parse(text.split('\n').find((line) => line.startsWith('data: '))!.slice(6));
      assert.equal(answer.id, 'call-1');
      assert.match(answer.error.message, /did not send its answer in time/);
    });

    it('11.3: an oversize answer is refused with 502 without being read whole', async () => {
      let written = 0;
      let aborted = false;
      f.raw.onCall = (_m, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        res.on('close', () => void (aborted = !res.writableFinished));
        const pump = (): void => {
          while (written < 64 * 1024 * 1024 && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      };
      const res = await f.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe' } }).expect(502);
      assert.equal(res.body.error.code, 'mcp_response_too_large');
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(aborted || written < 64 * 1024 * 1024, 'the gateway stopped reading long before the 64 MiB answer ended');

      f.raw.onCall = (_m, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
        res.flushHeaders();
      };
      const declared = await f.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'probe' } }).expect(502);
      assert.equal(declared.body.error.code, 'mcp_response_too_large');
    });
  });
});
