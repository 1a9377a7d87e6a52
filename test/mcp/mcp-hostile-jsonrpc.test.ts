// Hostile JSON-RPC to the MCP proxy: batches, ids and methods of every JSON type, malformed calls, prototype keys, client responses; no 5xx, tool states and policies hold.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { eventually } from '../helpers/eventually.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { RAW_TOOLS, startRawToolServer, type RawToolServer } from './raw-tool-server.js';

const EMAIL = 'bob.hostile@example.com';
/** The raw server's tools, and one whose name has an accent (NFC), to try normalisation variants on. */
const TOOLS = [...RAW_TOOLS, { name: 'caf\u00e9', description: 'Makes coffee.', inputSchema: { type: 'object', properties: {} } }];
const DISABLED = ['danger', 'caf\u00e9'];

/** A JSON-RPC answer or the gateway's error body, as the client got it. */
interface Answer {
  status: number;
  text: string;
  body: { id?: unknown; result?: { content?: Array<{ text?: string }>; tools?: Array<{ name: string }> }; error?: { code?: unknown; message?: string; type?: string } };
}

describe('MCP proxy: hostile JSON-RPC', function () {
  this.timeout(60_000);
  let f: McpFixture;
  let raw: RawToolServer;
  const planted = (): unknown => (Object.prototype as Record<string, unknown>).polluted;

  before(async () => {
    f = await createMcpFixture();
    raw = await startRawToolServer(TOOLS);
    const admin = (method: 'post' | 'put', path: string, body: object) => request(f.app)[method](path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
    assert.equal((await admin('post', '/v1/admin/mcp/registries', { name: 'raw', url: raw.url })).status, 201);
    for (const tool of DISABLED) assert.equal((await admin('put', `/v1/admin/mcp/registries/raw/tools/${encodeURIComponent(tool)}`, { enabled: false })).status, 200, tool);
    assert.equal((await admin('put', '/v1/admin/mcp/registries/tools/tools/echo', { enabled: false })).status, 200);
    assert.equal((await admin('put', '/v1/admin/mcp/registries/raw/policies', { data_protection: { mode: 'inspect', action: 'redact' } })).status, 200);
  });
  beforeEach(() => {
    // The raw server runs every tools/call it gets, whatever the id, and answers it with the id it was sent.
    raw.onCall = (message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result: { content: [{ type: 'text', text: `ran ${String(message.params?.name)} for ${EMAIL}` }] } }));
    };
  });
  after(async () => {
    await f?.close();
    await raw?.close();
  });

  /** POSTs a JSON text to a registry through the proxy with the developer key. */
  async function post(text: string, registry = 'raw'): Promise<Answer> {
    const res = await request(f.app)
      .post(`/v1/mcp/${registry}`)
      .set('authorization', `Bearer ${f.developerKey}`)
      .set('accept', 'application/json, text/event-stream')
      .set('content-type', 'application/json')
      .send(text);
    return { status: res.status, text: res.text, body: (res.body ?? {}) as Answer['body'] };
  }
  const call = (name: unknown, id: unknown = 1, args: unknown = {}): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  /** The tools/call messages the raw server received since `from` (an index into its requests). */
  const callsSince = (from: number): Array<{ id?: unknown; params?: { name?: unknown } }> =>
    raw.requests.slice(from).flatMap((r) => {
      try {
        const message = JSON.parse(r.body) as { method?: string } | unknown[];
        return (Array.isArray(message) ? message : [message]).filter((m) => (m as { method?: string }).method === 'tools/call') as Array<{ id?: unknown; params?: { name?: unknown } }>;
      } catch {
        return [];
      }
    });
  const isJsonRpcError = (answer: Answer, code: number): boolean => answer.status === 200 && answer.body.error?.code === code;

  it('refuses batches whole (empty, one call, 10,000 calls) with 400 before anything reaches the tool server', async () => {
    const from = raw.requests.length;
    const started = Date.now();
    for (const batch of [[], [JSON.parse(call('probe'))], [JSON.parse(call('danger'))], Array.from({ length: 10_000 }, (_, i) => JSON.parse(call(i % 2 ? 'danger' : 'probe', i)))]) {
      const answer = await post(JSON.stringify(batch));
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error?.type, 'invalid_request_error');
    }
    assert.equal(raw.requests.length, from, 'no batch reached the tool server');
    assert.ok(Date.now() - started < 5000, 'a 10,000-element batch is refused quickly');
  });

  it('forwards a tools/call only with an id that is a string or a finite number; other ids get -32600 and never reach the tool server', async () => {
    for (const id of ['a', '', 'x'.repeat(1000), 0, -1, 1.5, 2 ** 53 - 1]) {
      const from = raw.requests.length;
      const answer = await post(call('probe', id));
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body.id, id);
      assert.ok(answer.body.result, `id ${JSON.stringify(id)}: ${answer.text}`);
      assert.equal(callsSince(from).length, 1);
    }
    // 1e400 and -1e400 parse as ±Infinity, which JSON.stringify writes as null: forwarded, the call would reach the
    // tool server without a usable id, and its answer with id null would pass unchecked.
    const texts = [...[null, true, false, {}, [], [1], { toString: 1 }, { toString: 1, valueOf: 1 }].map((id) => call('probe', id)), call('probe').replace('"id":1', '"id":1e400'), call('probe').replace('"id":1', '"id":-1e400')];
    const from = raw.requests.length;
    for (const text of texts) {
      const answer = await post(text);
      assert.ok(isJsonRpcError(answer, -32600), `${text}: ${answer.status} ${answer.text}`);
      assert.equal(answer.body.id, null);
      assert.doesNotMatch(answer.text, new RegExp(EMAIL));
    }
    assert.deepEqual(callsSince(from), [], 'no call without a usable id reached the tool server');
    // Other methods with such ids are the tool server's to answer: never a 5xx.
    for (const id of [null, true, {}, [], { toString: 1 }, 1e308, 'x'.repeat(1000)]) {
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }));
      assert.ok(answer.status < 500, `${JSON.stringify(id)}: ${answer.status} ${answer.text}`);
    }
  });

  it('refuses a resources/read or prompts/get without a usable id with -32600, never forwarded, and records the refusal', async () => {
    const from = raw.requests.length;
    const requests = [
      ...[null, {}, [], true, 'missing'].map((id) => ({ jsonrpc: '2.0', ...(id === 'missing' ? {} : { id }), method: 'resources/read', params: { uri: 'doc://secret' } })),
      { jsonrpc: '2.0', id: null, method: 'prompts/get', params: { name: 'brief' } },
    ];
    for (const message of requests) {
      const answer = await post(JSON.stringify(message));
      assert.ok(isJsonRpcError(answer, -32600), `${JSON.stringify(message)}: ${answer.status} ${answer.text}`);
      assert.equal(answer.body.id, null);
      assert.match(answer.body.error?.message ?? '', /needs an id that is a string or a number/);
    }
    assert.equal(raw.requests.length, from, 'no read without a usable id reached the tool server');
    const entries = (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=20').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data as Array<{ mcp?: { method: string; blocked: boolean } }>;
    const refused = entries.filter((entry) => entry.mcp?.blocked && ['resources/read', 'prompts/get'].includes(entry.mcp.method));
    assert.equal(refused.length, requests.length, 'each refused read is in Chronicles');
  });

  it('answers a request whose method is not a string with -32600, never forwarded', async () => {
    const from = raw.requests.length;
    for (const method of [42, true, null, [], ['tools/call'], {}, { toString: 1 }, { toString: 1, valueOf: 1 }]) {
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: { name: 'danger', arguments: {} } }));
      assert.ok(isJsonRpcError(answer, -32600), `${JSON.stringify(method)}: ${answer.status} ${answer.text}`);
      assert.equal(answer.body.id, 3);
    }
    assert.equal(raw.requests.length, from);
  });

  it('refuses a screened method written another way (letter case, white space) with -32600, never forwarded, for a lenient tool server to run unscreened', async () => {
    const from = raw.requests.length;
    for (const method of ['Tools/Call', 'TOOLS/CALL', ' tools/call', 'tools/call\n', 'Resources/Read', 'PROMPTS/get', 'Tools/List']) {
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method, params: { name: 'danger', arguments: {} } }));
      assert.ok(isJsonRpcError(answer, -32600), `${JSON.stringify(method)}: ${answer.status} ${answer.text}`);
      assert.equal(answer.body.id, 4);
    }
    assert.equal(raw.requests.length, from);
  });

  it('refuses a tools/call whose params or name has the wrong type (-32602); wrong-typed arguments are the tool server\'s to judge', async () => {
    const from = raw.requests.length;
    for (const params of [[], ['probe'], 'probe', 42, true, null]) {
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params }));
      assert.ok(isJsonRpcError(answer, -32602), `${JSON.stringify(params)}: ${answer.text}`);
    }
    for (const name of [42, null, true, [], ['probe'], {}, { toString: 1 }, '']) {
      const answer = await post(call(name, 4));
      assert.ok(isJsonRpcError(answer, -32602), `${JSON.stringify(name)}: ${answer.text}`);
    }
    assert.deepEqual(callsSince(from), []);
    for (const args of ['x', 42, [], null, true, [{ a: 1 }]]) {
      assert.equal((await post(call('probe', 5, args))).status, 200);
      assert.ok(isJsonRpcError(await post(call('danger', 6, args)), -32602), 'a disabled tool stays refused whatever its arguments');
    }
    assert.deepEqual([...new Set(callsSince(from).map((c) => c.params?.name))], ['probe']);
    // Other methods with odd params go to the tool server; the SDK's server answers them itself.
    for (const params of [[], 'x', 42, null, { cursor: { toString: 1 } }]) {
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params }), 'tools');
      assert.ok(answer.status < 500, `${JSON.stringify(params)}: ${answer.status} ${answer.text}`);
    }
  });

  it('passes __proto__ inside arguments on as data, touching no prototype; a params.__proto__ holding the name is no name', async () => {
    const from = raw.requests.length;
    const text = '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"probe","arguments":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"nested":{"__proto__":{"polluted":true}}}}}';
    assert.equal((await post(text)).status, 200);
    assert.match(raw.requests.at(-1)!.body, /"arguments":\{"__proto__":\{"polluted":true\}/, 'the arguments reach the tool server as sent');
    const hidden = await post('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"__proto__":{"name":"danger"}}}');
    assert.ok(isJsonRpcError(hidden, -32602), hidden.text);
    assert.deepEqual(callsSince(from).map((c) => c.params?.name), ['probe']);
    assert.equal(planted(), undefined);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('forwards notifications and client responses (202) without holding them as calls; a tools/call notification is refused', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 'srv-1', result: { content: [{ type: 'text', text: 'x' }] } },
      { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } },
    ]) {
      const from = raw.requests.length;
      const answer = await post(JSON.stringify(message));
      assert.equal(answer.status, 202, `${JSON.stringify(message)}: ${answer.text}`);
      assert.equal(raw.requests.length, from + 1, 'forwarded');
    }
    const from = raw.requests.length;
    assert.ok(isJsonRpcError(await post(JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'probe' } })), -32600));
    assert.equal(raw.requests.length, from);
  });

  it('a disabled tool cannot be reached by any spelling of its name, a duplicate key, an escape or a batch', async () => {
    const from = raw.requests.length;
    const names = ['Danger', 'DANGER', ' danger', 'danger ', 'danger\u0000', 'dan\u200bger', '\uff44\uff41\uff4e\uff47\uff45\uff52', 'danger\n', 'danger/', '../danger', 'cafe\u0301', 'CAF\u00c9', 'caf\u00e9', 'danger'];
    for (const name of names) assert.ok(isJsonRpcError(await post(call(name, 10)), -32602), JSON.stringify(name));
    for (const text of [
      '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"probe","name":"danger"}}',
      '{"jsonrpc":"2.0","id":11,"method":"ping","method":"tools/call","params":{"name":"danger"}}',
      '{"jsonrpc":"2.0","id":11,"method":"tools\\/call","params":{"name":"\\u0064anger"}}',
      '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"danger"},"params":{"name":"danger"}}',
    ]) {
      assert.ok(isJsonRpcError(await post(text), -32602), text);
    }
    assert.equal((await post(JSON.stringify([JSON.parse(call('danger', 12))]))).status, 400);
    assert.equal((await post(call('danger').replace('"id":1', '"id":1e400'))).body.error?.code, -32600);
    assert.deepEqual(callsSince(from), [], 'no call reached the tool server');
    // Against the SDK's server: method spellings are not tools/call there, and the disabled echo never runs.
    for (const method of ['Tools/Call', 'tools/call ', 'tools/call\u0000', 'tools//call', 'tools/call/']) {
      const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: 13, method, params: { name: 'echo', arguments: { text: 'hi' } } }), 'tools');
      assert.ok(answer.status < 500, `${method}: ${answer.status}`);
    }
    assert.ok(!f.mcp.calls.some((c) => c.name === 'echo'), 'the disabled echo never ran');
  });

  it('an answer with an id no request has (null, an object) is checked by its shape: policies redact it and tool lists lose disabled tools', async () => {
    // A tool server answering a call with id null: the result still meets the registry policies.
    raw.onCall = (_message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, result: { content: [{ type: 'text', text: `mail ${EMAIL}` }] } }));
    };
    const nullId = await post(call('probe', 20));
    assert.equal(nullId.status, 200, nullId.text);
    assert.doesNotMatch(nullId.text, new RegExp(EMAIL), 'redacted');
    assert.match(nullId.text, /mail/);
    // An id a JavaScript object would turn into text through its own toString: no 500, checked by shape as well.
    raw.onCall = (_message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: { toString: 1 }, result: { content: [{ type: 'text', text: `mail ${EMAIL}` }] } }));
    };
    const objectId = await post(call('probe', 21));
    assert.equal(objectId.status, 200, objectId.text);
    assert.doesNotMatch(objectId.text, new RegExp(EMAIL));
    raw.onCall = (_message, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: { toString: 1 }, result: { content: [{ type: 'text', text: `mail ${EMAIL}` }] } })}\n\n`);
    };
    const streamed = await post(call('probe', 22));
    assert.equal(streamed.status, 200);
    assert.match(streamed.text, /mail/);
    assert.doesNotMatch(streamed.text, new RegExp(EMAIL));
    // A tools/list sent with id null is answered with id null: the disabled tools are still hidden.
    const list = await post(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }));
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.result?.tools?.map((tool) => tool.name), ['probe']);
  });

  it('an answer to another method (tasks/result, a custom one) that carries content or a tool list is checked by its shape too, and recorded', async () => {
    // A tool call run as a task hands its result over in the answer to tasks/result: it meets the policies as a tool
    // result does, and so does content answering any method the gateway does not know.
    raw.onOther = (message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const result = message.method === 'x/list' ? { tools: TOOLS } : { content: [{ type: 'text', text: `mail ${EMAIL}` }], structuredContent: { to: EMAIL } };
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    try {
      for (const method of ['tasks/result', 'x/custom']) {
        const answer = await post(JSON.stringify({ jsonrpc: '2.0', id: 30, method, params: { taskId: 't-1' } }));
        assert.equal(answer.status, 200, answer.text);
        assert.match(answer.text, /mail/);
        assert.doesNotMatch(answer.text, new RegExp(EMAIL), `${method}: redacted`);
      }
      const listed = await post(JSON.stringify({ jsonrpc: '2.0', id: 31, method: 'x/list' }));
      assert.deepEqual(listed.body.result?.tools?.map((tool) => tool.name), ['probe'], listed.text);
      const recorded = await eventually(async () => {
        const entries = (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=20').set('x-api-key', TEST_KEYS.viewer)).body.data as Array<{ kind: string; mcp?: { method: string } }>;
        const methods = entries.filter((entry) => entry.kind === 'mcp').map((entry) => entry.mcp?.method);
        assert.ok(methods.includes('tasks/result') && methods.includes('x/custom'), JSON.stringify(methods));
        return entries;
      });
      assert.doesNotMatch(JSON.stringify(recorded), new RegExp(EMAIL));
    } finally {
      raw.onOther = (_message, res) => void res.writeHead(202).end();
    }
  });

  it("a tool server's JSON-RPC error to a call meets the policies as its result would (a client hands it to the model as the outcome)", async () => {
    raw.onCall = (message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `failed to mail ${EMAIL}`, data: { to: EMAIL, tries: 2 } } }));
    };
    const answer = await post(call('probe', 40));
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.error?.code, -32000);
    assert.match(String(answer.body.error?.message), /^failed to mail /);
    assert.doesNotMatch(answer.text, new RegExp(EMAIL), 'redacted');
    assert.match(answer.text, /"tries":2/);
  });

  it('keeps serving: an SDK client lists the enabled tools and calls one', async () => {
    const client = await f.connect();
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name).sort(), ['add', 'lookup']);
    assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content, [{ type: 'text', text: '5' }]);
    assert.equal(planted(), undefined);
  });
});
