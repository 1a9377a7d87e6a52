// A tool server that goes away and comes back while a session is open (a TCP relay the test cuts): callers get a 502 naming the registry, not the server's address, and the session works again after.
import assert from 'node:assert/strict';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeMcpServer } from '../helpers/fake-mcp-server.js';
import { createRegistryFixture, REGISTRY_TOKEN, type RegistryFixture } from '../helpers/mcp-fixture.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';

describe('a tool server cut off while a session is open', function () {
  this.timeout(30_000);
  let relay: TcpCut;
  let f: RegistryFixture;
  before(async () => {
    const mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    const url = new URL(mcp.url);
    relay = await tcpCut(url.hostname, Number(url.port));
    url.port = String(relay.port);
    f = await createRegistryFixture({ name: 'tools', url: url.toString(), authorization_token: REGISTRY_TOKEN }, mcp);
  });
  after(async () => {
    await f?.close();
    await relay?.close();
  });

  it('14.5: a call answers 502 mcp_upstream_unreachable with the kind of failure, never the host and port; the same session calls again once it is back', async () => {
    const client = await f.connect();
    const add = () => client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    assert.deepEqual((await add()).content, [{ type: 'text', text: '3' }]);
    await relay.cut();
    const failure = await add().then(
      () => assert.fail('the call succeeded with the tool server cut off'),
      (error: Error) => error.message,
    );
    assert.match(failure, /mcp_upstream_unreachable/);
    assert.match(failure, /registry tools could not be reached: [A-Z_]+"/);
    assert.ok(!failure.includes(String(relay.port)) && !failure.includes('127.0.0.1'), failure);
    // The session's end goes through the passthrough: its failure names no address either.
    const session = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const ended = await fetch(f.requestUrl, { method: 'DELETE', headers: { authorization: `Bearer ${f.developerKey}`, 'mcp-session-id': session } });
    const text = await ended.text();
    assert.equal(ended.status, 502, text);
    assert.ok(!text.includes(String(relay.port)) && !text.includes('127.0.0.1'), text);
    await relay.restore();
    assert.deepEqual((await add()).content, [{ type: 'text', text: '3' }]);
  });
});
