// /v1/responses at the trust boundary (issue 11): MCP server URLs, tool-server errors, the response store, rate limits per model call, stateless approvals.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { ResponseStore } from '../../src/responses/response-store.js';
import { UrlPatternList } from '../../src/http/url-patterns.js';
import { addressRange, isPublicAddress } from '../../src/http/public-address.js';
import { createGateway } from '../../src/index.js';
import { startFakeProvider, type FakeProvider, type FakeRequest } from '../helpers/fake-provider.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

/** A loopback HTTP server that counts hits and answers with `handler` (default 200 "canary"). */
async function startCanary(handler?: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; origin: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    req.resume();
    if (handler) handler(req, res);
    else res.end('canary');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A chat model that asks for `tools__add(2, 3)` until it sees a tool result, then answers with it. */
function addingModel(fake: FakeProvider, label = 'tools'): void {
  fake.script((received: FakeRequest) => {
    const messages = (received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `The sum is ${String(last.content).replace(/[^0-9]/g, '')}.` };
    return { toolCall: { name: `${label}__add`, arguments: { a: 2, b: 3 } } };
  });
}

async function setUp(options: Parameters<typeof createMcpFixture>[0] = {}): Promise<{ f: McpFixture; fake: FakeProvider; client: OpenAI; post: (body: object) => request.Test }> {
  const f = await createMcpFixture(options);
  const fake = await startFakeProvider();
  await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin)
    .send({ name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['tool-model'] } }).expect(201);
  const client = new OpenAI({ apiKey: 'unused', baseURL: `${f.base}/v1`, defaultHeaders: { 'X-Gateway-Apikey': f.developerKey }, maxRetries: 0 });
  const post = (body: object) => request(f.base).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send(body);
  return { f, fake, client, post };
}

describe('/v1/responses: MCP server URLs (11.1)', () => {
  let f: McpFixture;
  let fake: FakeProvider;
  let post: (body: object) => request.Test;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  beforeEach(async () => {
    ({ f, fake, post } = await setUp());
    canary = await startCanary();
  });
  afterEach(async () => {
    await f.close();
    await fake.close();
    await canary.close();
  });

  it('11.1: a server_url that is no registry request_url is refused with 400 and no request is made', async () => {
    fake.script({ text: 'unused' });
    const res = await post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'x', server_url: `${canary.url}/latest/meta-data`, headers: { 'x-evil': '1' }, require_approval: 'never' }] }).expect(400);
    assert.equal(res.body.error.type, 'invalid_request_error');
    assert.equal(res.body.error.param, 'tools[0].server_url');
    assert.equal(canary.hits(), 0, 'the gateway made no outbound request');
    assert.equal(fake.requests.length, 0, 'no model call either');
  });

  it("11.1: the registry's own tool-server URL is refused, so disabled tools cannot be reached around the registry", async () => {
    const before = f.mcp.authorizations.length;
    const res = await post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'tools', server_url: f.mcp.url, require_approval: 'never' }] }).expect(400);
    assert.equal(res.body.error.param, 'tools[0].server_url');
    assert.equal(f.mcp.authorizations.length, before);
  });

  it('11.1: a tool naming a registry by server_label goes through the registry: a disabled tool is neither listed nor run', async () => {
    await request(f.app).put('/v1/admin/mcp/registries/tools/tools/add').set('x-api-key', TEST_KEYS.admin).send({ enabled: false }).expect(200);
    addingModel(fake);
    const res = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [{ type: 'mcp', server_label: 'tools', require_approval: 'never' }] }).expect(200);
    const list = res.body.output[0];
    assert.equal(list.type, 'mcp_list_tools');
    assert.deepEqual(list.tools.map((t: { name: string }) => t.name).sort(), ['echo', 'lookup']);
    assert.deepEqual(f.mcp.calls, []);
    // An unknown label without a URL is a 400 too.
    const unknown = await post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'nope' }] }).expect(400);
    assert.equal(unknown.body.error.param, 'tools[0].server_label');
  });

  it('11.1: a tool naming a registry by server_label runs its tools with the caller\'s key, and Chronicles records them', async () => {
    addingModel(fake);
    const res = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [{ type: 'mcp', server_label: 'tools', require_approval: 'never' }] }).expect(200);
    assert.equal(res.body.output_text, 'The sum is 5.');
    assert.deepEqual(f.mcp.calls, [{ name: 'add', arguments: { a: 2, b: 3 } }]);
  });
});

describe('/v1/responses: allowExternalMcpUrls (11.1)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const start = async (allow: string[]) => {
    const set = await setUp({ responses: { allowExternalMcpUrls: allow } });
    cleanups.push(() => set.f.close(), () => set.fake.close());
    return set;
  };
  const canaryOf = async (handler?: (req: IncomingMessage, res: ServerResponse) => void) => {
    const canary = await startCanary(handler);
    cleanups.push(canary.close);
    return canary;
  };

  it('11.1: a host name the pattern allows but that resolves to loopback is refused after DNS, with no request made', async () => {
    const canary = await canaryOf();
    const port = new URL(canary.url).port;
    const { fake, post } = await start(['http://localhost:*']);
    fake.script({ text: 'no tools' });
    const res = await post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'local', server_url: `http://localhost:${port}/mcp`, require_approval: 'never' }] }).expect(200);
    const list = res.body.output[0];
    assert.match(list.error, /resolves to a loopback address/);
    assert.equal(canary.hits(), 0);
  });

  it('11.1: a loopback IP is refused when only a wildcard allows it, and reached when listed explicitly', async () => {
    const mcp: FakeMcpServer = await startFakeMcpServer();
    cleanups.push(() => mcp.close());
    const origin = new URL(mcp.url).origin;
    const wildcard = await start(['*']);
    const refused = await wildcard.post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'ext', server_url: mcp.url }] }).expect(400);
    assert.equal(refused.body.error.param, 'tools[0].server_url');
    assert.match(refused.body.error.message, /loopback/);
    assert.equal(mcp.authorizations.length, 0);

    const listed = await start([origin]);
    addingModel(listed.fake, 'ext');
    const res = await listed.client.responses.create({ model: 'tool-model', input: 'What is 2 + 3?', tools: [{ type: 'mcp', server_label: 'ext', server_url: mcp.url, require_approval: 'never' }] });
    assert.equal(res.output_text, 'The sum is 5.');
    assert.deepEqual(mcp.calls, [{ name: 'add', arguments: { a: 2, b: 3 } }]);
  });

  it('11.1: a redirect to an address that is not allowed is not followed', async () => {
    const target = await canaryOf();
    const redirector = await canaryOf((_req, res) => {
      res.writeHead(307, { location: target.url });
      res.end();
    });
    const { fake, post } = await start([redirector.origin]);
    fake.script({ text: 'no tools' });
    const res = await post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'r', server_url: redirector.url }] }).expect(200);
    assert.match(res.body.output[0].error, /HTTP 307/);
    assert.ok(redirector.hits() > 0);
    assert.equal(target.hits(), 0, 'the redirect target was never contacted');
  });

  it("11.1: a tool server's error body is never echoed; the caller gets a short message with the status", async () => {
    const failing = await canaryOf((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal secret: db password hunter2');
    });
    const { fake, post } = await start([failing.origin]);
    fake.script({ text: 'no tools' });
    const res = await post({ model: 'tool-model', input: 'hi', tools: [{ type: 'mcp', server_label: 'f', server_url: failing.url }] }).expect(200);
    assert.equal(res.body.output[0].error, 'The MCP server answered HTTP 500.');
    assert.ok(!JSON.stringify(res.body).includes('hunter2'));
  });

  it('11.1: loopback, private, CGNAT, link-local (metadata), unique-local, unspecified and IPv4-mapped addresses are not public', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', '::ffff:127.0.0.1', '[::ffff:a9fe:a9fe]', '224.0.0.1', '255.255.255.255']) {
      assert.equal(isPublicAddress(address), false, `${address} is ${addressRange(address)}`);
    }
    assert.equal(addressRange('[::ffff:a9fe:a9fe]'), 'linkLocal');
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) assert.equal(isPublicAddress(address), true, address);
    assert.equal(isPublicAddress('localhost'), false);
  });

  it('11.1: patterns match scheme, host wildcards, ports and path prefixes; malformed ones are refused at start', () => {
    const list = new UrlPatternList(['https://*.example.com', 'http://tools.test:*/mcp', 'http://10.0.0.5:8080']);
    const match = (url: string) => list.match(new URL(url));
    assert.ok(match('https://a.example.com/x'));
    assert.ok(match('https://a.b.example.com:443/'));
    assert.equal(match('https://example.com/'), undefined);
    assert.equal(match('http://a.example.com/'), undefined, 'scheme matters');
    assert.equal(match('https://a.example.com:8443/'), undefined, 'default port only');
    assert.ok(match('http://tools.test:9999/mcp/sub'));
    assert.equal(match('http://tools.test:9999/mcpx'), undefined, 'path prefix at segment boundary');
    assert.deepEqual(match('http://10.0.0.5:8080/mcp'), { explicitAddress: true });
    assert.throws(() => createGateway({ responses: { allowExternalMcpUrls: ['ftp://x'] } }), /allowExternalMcpUrls/);
  });
});

describe('/v1/responses: registry tokens in tool-server errors (11.2)', () => {
  const TOKEN = 'echoed-registry-token-abcdef123456';
  let f: McpFixture;
  let fake: FakeProvider;
  let post: (body: object) => request.Test;
  let echo: Awaited<ReturnType<typeof startCanary>>;
  let mode: 'http' | 'jsonrpc';
  beforeEach(async () => {
    ({ f, fake, post } = await setUp());
    echo = await startCanary((req, res) => {
      if (mode === 'http') {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(`invalid token ${req.headers.authorization} (${Buffer.from(String(req.headers.authorization)).toString('base64')})`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32000, message: `invalid token ${String(req.headers.authorization).toUpperCase()}` } }));
      }
    });
    await request(f.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.superAdmin)
      .send({ name: 'echoer', url: echo.url, authorization_token: TOKEN }).expect(201);
    fake.script({ text: 'no tools' });
  });
  afterEach(async () => {
    await f.close();
    await fake.close();
    await echo.close();
  });

  for (const how of ['http', 'jsonrpc'] as const) {
    it(`11.2: a registry token echoed by the tool server (${how === 'http' ? 'in a 401 body' : 'in a JSON-RPC error, upper-cased'}) is not in mcp_list_tools.error`, async () => {
      mode = how;
      const tool = { type: 'mcp', server_label: 'echoer', server_url: `${f.base}/v1/mcp/echoer`, headers: { Authorization: `Bearer ${f.developerKey}` } };
      const res = await post({ model: 'tool-model', input: 'hi', tools: [tool] }).expect(200);
      const error = res.body.output[0].error as string;
      assert.ok(error.length > 0);
      const text = JSON.stringify(res.body);
      assert.ok(!text.toLowerCase().includes(TOKEN.toLowerCase()), text);
      assert.ok(!text.includes(Buffer.from(`Bearer ${TOKEN}`).toString('base64')), text);
    });
  }
});

describe('/v1/responses: bounded state (11.3)', () => {
  it('11.3: the response store is bounded by bytes, evicting the least recently used responses', () => {
    const store = new ResponseStore({ maxBytes: 1_000_000 });
    const big = 'x'.repeat(200_000);
    for (let i = 0; i < 24; i++) store.save(`resp_${i}`, { application: 'app', messages: [{ role: 'user', content: big }], pending: [] });
    assert.ok(store.bytes <= 1_000_000, `${store.bytes} bytes held`);
    assert.equal(store.load('resp_0', 'app'), undefined, 'the oldest was evicted');
    assert.equal(store.load('resp_23', 'app')?.messages[0]?.content, big);
    assert.equal(store.load('resp_23', 'other'), undefined, 'another application cannot load it');
  });

  it('11.3: a continuation stores only what it adds, and loads the whole conversation', () => {
    const store = new ResponseStore({ maxBytes: 10_000_000 });
    store.save('resp_a', { application: 'app', messages: [{ role: 'user', content: 'a'.repeat(500_000) }, { role: 'assistant', content: 'ok' }], pending: [] });
    const afterFirst = store.bytes;
    store.save('resp_b', { application: 'app', parent: 'resp_a', messages: [{ role: 'user', content: 'next' }, { role: 'assistant', content: 'done' }], pending: [] });
    assert.ok(store.bytes - afterFirst < 1000, `the continuation added ${store.bytes - afterFirst} bytes`);
    assert.deepEqual(store.load('resp_b', 'app')?.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  });

  it('11.3: through the gateway, large inputs beyond the store limit evict older responses (404 to continue them)', async () => {
    const { f, fake, post } = await setUp({ responses: { store: { maxBytes: 3_000_000 } } });
    try {
      fake.script({ text: 'ok' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await post({ model: 'tool-model', input: `${i}`.repeat(700_000) }).expect(200)).body.id);
      await post({ model: 'tool-model', input: 'again', previous_response_id: ids[0] }).expect(404);
      await post({ model: 'tool-model', input: 'again', previous_response_id: ids[4] }).expect(200);
    } finally {
      await f.close();
      await fake.close();
    }
  });

  it('11.3: a body nested deeper than the JSON depth limit is refused with 400 json_too_deep', async () => {
    const { f, fake } = await setUp();
    try {
      const deep = `{"model":"tool-model","input":[{"type":"message","role":"user","content":"hi","metadata":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
      const res = await request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey).set('content-type', 'application/json').send(deep).expect(400);
      assert.equal(res.body.error.code, 'json_too_deep');
      assert.equal(fake.requests.length, 0);
    } finally {
      await f.close();
      await fake.close();
    }
  });
});

describe('/v1/responses: rate limits per model call (11.4)', () => {
  it('11.4: every model call of the tool loop takes a rate-limit token; a refused one ends the response with 429', async () => {
    const { f, fake, post } = await setUp();
    try {
      // One token per 10 s: the first model call gets it, the loop's second call is refused.
      await request(f.app).post('/v1/admin/routes').set('x-api-key', TEST_KEYS.superAdmin)
        .send({ name: 'limited', type: 'chat', models: [{ name: 'tool-model', provider: 'llm' }], config: { settings: { rate_limit: 0.1 } } }).expect(201);
      addingModel(fake);
      const tool = { type: 'mcp', server_label: 'tools', server_url: f.requestUrl, headers: { Authorization: `Bearer ${f.developerKey}` }, require_approval: 'never' };
      const res = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool] }).set('x-gateway-route', 'limited').expect(429);
      assert.equal(res.body.error.code, 'rate_limit_exceeded');
      assert.equal(res.headers['retry-after'], '10');
      assert.equal(fake.requests.length, 1, 'one upstream call per token');
      // Streamed, the refusal ends the stream with response.failed.
      await request(f.app).put('/v1/admin/routes/limited').set('x-api-key', TEST_KEYS.superAdmin).send({ config: { settings: { rate_limit: 0.09 } } }).expect(200);
      const streamed = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool], stream: true }).set('x-gateway-route', 'limited').expect(200);
      assert.match(streamed.text, /event: response\.failed\ndata: .*"code":"rate_limit_exceeded"/);
      assert.equal(fake.requests.length, 2);
    } finally {
      await f.close();
      await fake.close();
    }
  });
});

describe('/v1/responses: approvals without server-side state (11.6)', () => {
  let f: McpFixture;
  let fake: FakeProvider;
  let client: OpenAI;
  let post: (body: object) => request.Test;
  const tool = () => ({ type: 'mcp' as const, server_label: 'tools', server_url: f.requestUrl, headers: { Authorization: `Bearer ${f.developerKey}` }, require_approval: 'always' as const });
  beforeEach(async () => {
    ({ f, fake, client, post } = await setUp());
    addingModel(fake);
  });
  afterEach(async () => {
    await f.close();
    await fake.close();
  });

  const firstTurn = async () => {
    const input = [{ role: 'user' as const, content: 'What is 2 + 3?' }];
    const first = await client.responses.create({ model: 'tool-model', input, tools: [tool()] });
    const approval = first.output.find((item) => item.type === 'mcp_approval_request') as { id: string; arguments: string };
    assert.ok(approval);
    return { input, first, approval };
  };

  it('11.6: an approval sent with the earlier output items and no previous_response_id runs the tool', async () => {
    const { input, first, approval } = await firstTurn();
    const second = await client.responses.create({
      model: 'tool-model',
      input: [...input, ...(first.output as never[]), { type: 'mcp_approval_response', approval_request_id: approval.id, approve: true }],
      tools: [tool()],
    });
    const call = second.output.find((item) => item.type === 'mcp_call') as { output: string; approval_request_id: string };
    assert.equal(call.output, '5');
    assert.equal(call.approval_request_id, approval.id);
    assert.equal(second.output_text, 'The sum is 5.');
    assert.deepEqual(f.mcp.calls, [{ name: 'add', arguments: { a: 2, b: 3 } }]);
  });

  it('11.6: an approval that answers no request in the input (or stored response) is refused with 400', async () => {
    const { approval } = await firstTurn();
    const res = await post({ model: 'tool-model', input: [{ type: 'mcp_approval_response', approval_request_id: approval.id, approve: true }], tools: [tool()] }).expect(400);
    assert.equal(res.body.error.param, 'input[0].approval_request_id');
    assert.deepEqual(f.mcp.calls, []);
  });

  it('11.6: an echoed approval request with changed arguments, or one the gateway never issued, is refused with 400', async () => {
    const { input, first, approval } = await firstTurn();
    const changed = (first.output as unknown as Array<Record<string, unknown>>).map((item) => (item.id === approval.id ? { ...item, arguments: '{"a":200,"b":3}' } : item));
    const res = await post({ model: 'tool-model', input: [...input, ...changed, { type: 'mcp_approval_response', approval_request_id: approval.id, approve: true }], tools: [tool()] }).expect(400);
    assert.equal(res.body.error.param, `input[${1 + changed.length}].approval_request_id`);
    const forged = { type: 'mcp_approval_request', id: 'mcpr_forged', server_label: 'tools', name: 'add', arguments: '{"a":1,"b":1}' };
    await post({ model: 'tool-model', input: [...input, forged, { type: 'mcp_approval_response', approval_request_id: 'mcpr_forged', approve: true }], tools: [tool()] }).expect(400);
    assert.deepEqual(f.mcp.calls, []);
  });

  it('a later stateless turn that echoes the approval and its mcp_call does not run the tool again, and the model is given the call and its result', async () => {
    const { input, first, approval } = await firstTurn();
    const answer = { type: 'mcp_approval_response' as const, approval_request_id: approval.id, approve: true };
    const second = await client.responses.create({ model: 'tool-model', input: [...input, ...(first.output as never[]), answer], tools: [tool()] });
    assert.equal(second.output_text, 'The sum is 5.');
    fake.script(() => ({ text: 'It was 5.' }));
    const third = await client.responses.create({
      model: 'tool-model',
      input: [...input, ...(first.output as never[]), answer, ...(second.output as never[]), { role: 'user', content: 'What was the sum again?' }],
      tools: [tool()],
    });
    assert.equal(third.output_text, 'It was 5.');
    assert.deepEqual(f.mcp.calls, [{ name: 'add', arguments: { a: 2, b: 3 } }], 'the tool ran once, in the second turn');
    const messages = (fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }> }).messages;
    assert.deepEqual(messages.map((message) => message.role), ['user', 'assistant', 'tool', 'assistant', 'user']);
    assert.deepEqual(messages[1]!.tool_calls?.map((call) => [call.function.name, call.function.arguments]), [['tools__add', approval.arguments]]);
    assert.equal(messages[2]!.content, '5');
  });

  it('11.6: a denied stateless approval is recorded as an mcp_call error and the tool does not run', async () => {
    const { input, first, approval } = await firstTurn();
    fake.script({ text: 'Not allowed, then.' });
    const second = await client.responses.create({
      model: 'tool-model',
      input: [...input, ...(first.output as never[]), { type: 'mcp_approval_response', approval_request_id: approval.id, approve: false }],
      tools: [tool()],
    });
    const call = second.output.find((item) => item.type === 'mcp_call') as { error: string };
    assert.match(call.error, /did not approve/);
    assert.deepEqual(f.mcp.calls, []);
  });
});
