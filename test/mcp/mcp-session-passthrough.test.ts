// The proxy's Streamable HTTP session handling: session ids both ways, the GET server stream, and DELETE ending a session.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpFixture, REGISTRY_TOKEN, type McpFixture } from '../helpers/mcp-fixture.js';

describe('MCP proxy sessions', () => {
  let f: McpFixture;
  beforeEach(async () => {
    f = await createMcpFixture();
  });
  afterEach(() => f.close());

  it('passes Mcp-Session-Id and MCP-Protocol-Version, opens the GET stream, and ends the session with DELETE', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(f.requestUrl), { requestInit: { headers: { authorization: `Bearer ${f.developerKey}` } } });
    const client = new Client({ name: 'session-test', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    assert.ok(sessionId, 'the upstream session id reached the client');

    const stream = await fetch(f.requestUrl, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${f.developerKey}` },
    });
    // The SDK client already holds the session's one GET stream through the proxy, so the tool server answers
    // 409 ("only one SSE stream per session"); anything else (401, 404, 502) would mean the passthrough failed.
    assert.ok([200, 409].includes(stream.status), `GET answered ${stream.status}`);
    if (stream.status === 200) assert.match(stream.headers.get('content-type') ?? '', /text\/event-stream/);
    await stream.body?.cancel();

    const listInSession = () =>
      fetch(f.requestUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${f.developerKey}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
    const before = await listInSession();
    assert.equal(before.status, 200, 'the session works through the proxy');
    await before.body?.cancel();
    await transport.terminateSession();
    const after = await listInSession();
    assert.ok(after.status === 400 || after.status === 404, `after DELETE the tool server no longer knows the session (got ${after.status})`);
    assert.ok(f.mcp.authorizations.every((value) => value === `Bearer ${REGISTRY_TOKEN}`), 'GET and DELETE carried the registry token too');
    await client.close();
  });

  it('refuses GET and DELETE without a developer key', async () => {
    assert.equal((await fetch(f.requestUrl)).status, 401);
    assert.equal((await fetch(f.requestUrl, { method: 'DELETE' })).status, 401);
  });
});
