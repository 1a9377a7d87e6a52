// MCP sessions bound to the caller: a tool server's session id, seen by another application or at another registry, is an unknown session.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { createMcpFixture, REGISTRY_TOKEN, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { startContentToolServer, type ContentToolServer } from './content-tool-server.js';

const PROTOCOL = '2025-11-25';

describe('MCP session binding', () => {
  let f: McpFixture;
  let otherKey: string;
  beforeEach(async () => {
    f = await createMcpFixture();
    await request(f.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'other' }).expect(201);
    otherKey = (await request(f.app).post('/v1/admin/applications/other/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
  });
  afterEach(() => f.close());

  const headers = (key: string, session?: string): Record<string, string> => ({
    authorization: `Bearer ${key}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': PROTOCOL,
    ...(session === undefined ? {} : { 'mcp-session-id': session }),
  });
  const call = (key: string, session: string, method = 'POST') =>
    fetch(f.requestUrl, {
      method,
      headers: headers(key, session),
      ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'from the other application' } } }) } : {}),
    });

  /** Opens a session as the fixture's application, with the SDK client; answers its transport. */
  async function openSession(): Promise<{ client: Client; transport: StreamableHTTPClientTransport; session: string }> {
    const transport = new StreamableHTTPClientTransport(new URL(f.requestUrl), { requestInit: { headers: { authorization: `Bearer ${f.developerKey}` } } });
    const client = new Client({ name: 'binding-test', version: '1.0.0' });
    await client.connect(transport);
    assert.ok(transport.sessionId);
    return { client, transport, session: transport.sessionId };
  }

  /** Opens a session as the fixture's application with plain requests (no background stream): answers the id the client sees. */
  async function openRawSession(): Promise<string> {
    const post = (body: object, session?: string) => fetch(f.requestUrl, { method: 'POST', headers: headers(f.developerKey, session), body: JSON.stringify(body) });
    const initialized = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } } });
    const session = initialized.headers.get('mcp-session-id');
    assert.ok(session);
    await initialized.text();
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status, 202);
    return session;
  }

  it("another application's developer key cannot use a leaked session id (404, nothing reaches the tool server)", async () => {
    const session = await openRawSession();
    const seen = f.mcp.authorizations.length;
    for (const method of ['POST', 'GET', 'DELETE']) {
      const stolen = await call(otherKey, session, method);
      assert.equal(stolen.status, 404, `${method} with another application's session`);
      const body = (await stolen.json()) as { error: { code: string; type: string } };
      assert.equal(body.error.code, 'mcp_session_not_found');
    }
    assert.equal(f.mcp.authorizations.length, seen, 'no request reached the tool server');
    assert.deepEqual(f.mcp.calls, []);
    // The owner's session still works (the DELETE did not end it).
    const own = await call(f.developerKey, session);
    assert.equal(own.status, 200);
    assert.match(await own.text(), /from the other application/);
  });

  it('the session id is bound to the registry, and an altered, bare upstream or over-long id is refused before the tool server', async () => {
    const session = await openRawSession();
    await request(f.app)
      .post('/v1/admin/mcp/registries')
      .set('x-api-key', TEST_KEYS.superAdmin)
      .send({ name: 'twin', url: f.mcp.url, authorization_token: REGISTRY_TOKEN })
      .expect(201);
    const seen = f.mcp.authorizations.length;
    const twin = await fetch(`${f.base}/v1/mcp/twin`, { method: 'POST', headers: headers(f.developerKey, session), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(twin.status, 404, 'a session of registry tools used at registry twin');
    const upstream = session.slice(0, session.lastIndexOf('.'));
    assert.match(upstream, /^[0-9a-f-]{36}$/, `the client sees the upstream id with a tag: ${session}`);
    const flipped = `${session.slice(0, -1)}${session.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [upstream, flipped, `${session}x`]) assert.equal((await call(f.developerKey, forged)).status, 404, forged);
    const long = await call(f.developerKey, 'a'.repeat(1025));
    assert.equal(long.status, 400);
    assert.equal(((await long.json()) as { error: { code: string } }).error.code, 'invalid_value');
    assert.equal(f.mcp.authorizations.length, seen, 'none reached the tool server');
  });

  it('the SDK client works unchanged: tool calls, the GET stream and DELETE ending the session', async () => {
    const { client, transport, session } = await openSession();
    assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content, [{ type: 'text', text: '5' }]);
    assert.equal(transport.sessionId, session, 'every answer carries the same bound id');
    const stream = await fetch(f.requestUrl, { headers: { ...headers(f.developerKey, session), accept: 'text/event-stream' } });
    assert.ok([200, 409].includes(stream.status), `GET answered ${stream.status}`);
    await stream.body?.cancel();
    await transport.terminateSession();
    assert.equal(transport.sessionId, undefined);
    const after = await call(f.developerKey, session);
    assert.ok(after.status === 400 || after.status === 404, `after DELETE the tool server no longer knows the session (got ${after.status})`);
    await client.close();
  });
});

describe('MCP session binding with a resumable tool server', () => {
  let tools: ContentToolServer;
  let f: McpFixture;
  beforeEach(async () => {
    tools = await startContentToolServer(() => 'Resumed text.');
    f = await createMcpFixture();
    await request(f.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'notes', url: tools.url }).expect(201);
  });
  afterEach(async () => {
    await f.close();
    await tools.close();
  });

  it('the SDK client resumes a stream with Last-Event-ID through the proxy (GET with the bound session id)', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${f.base}/v1/mcp/notes`), { requestInit: { headers: { authorization: `Bearer ${f.developerKey}` } } });
    const client = new Client({ name: 'resumer', version: '1.0.0' });
    await client.connect(transport);
    let token: string | undefined;
    const first = await client.request({ method: 'tools/call', params: { name: 'lookup', arguments: { query: 'q' } } }, CallToolResultSchema, { onresumptiontoken: (next) => void (token ??= next) });
    assert.deepEqual(first.content, [{ type: 'text', text: 'Resumed text.' }]);
    assert.ok(token, 'the stream carried event ids');
    const resumed = await client.request({ method: 'tools/call', params: { name: 'lookup', arguments: { query: 'q' } } }, CallToolResultSchema, { resumptionToken: token, timeout: 5000 });
    assert.deepEqual(resumed.content, [{ type: 'text', text: 'Resumed text.' }], 'the answer replayed on the resumed GET stream');
    await client.close();
  });
});
