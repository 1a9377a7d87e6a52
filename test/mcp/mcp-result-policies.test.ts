// Registry policies on everything a tool server's answer hands the client: structured content, embedded resources, resource links, resources, prompts, resumed streams.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createRegistryFixture, type RegistryFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { startContentToolServer, type ContentToolServer } from './content-tool-server.js';

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLF';

interface Fixture extends RegistryFixture {
  tools: ContentToolServer;
}

async function createFixture(): Promise<Fixture> {
  const tools = await startContentToolServer(() => `The deploy key is ${AWS_KEY}.`);
  return { ...(await createRegistryFixture({ name: 'notes', url: tools.url }, tools)), tools };
}

describe('MCP registry policies on every text of an answer', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await createFixture();
  });
  afterEach(() => f.close());

  const setPolicies = (policies: object) => request(f.app).put('/v1/admin/mcp/registries/notes/policies').set('x-api-key', TEST_KEYS.admin).send(policies).expect(200);

  it('redacts a key in structured content, in an embedded resource, in a resource link, in a resource read and in a prompt', async () => {
    await setPolicies({ data_protection: { mode: 'inspect', action: 'redact' } });
    const client = await f.connect();
    const answers = {
      record: await client.callTool({ name: 'record', arguments: { id: 'c-1' } }),
      readfile: await client.callTool({ name: 'readfile', arguments: { path: 'notes.txt' } }),
      link: await client.callTool({ name: 'link', arguments: { path: 'notes.txt' } }),
      resource: await client.readResource({ uri: 'doc://notes' }),
      prompt: await client.getPrompt({ name: 'brief' }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      const text = JSON.stringify(answer);
      assert.ok(!text.includes(AWS_KEY), `${what}: ${text}`);
      assert.match(text, /The deploy key is/, `${what} is passed on, redacted: ${text}`);
    }
  });

  it('reject mode blocks such an answer: a tool result as an error result, a resource or a prompt as a JSON-RPC error', async () => {
    await setPolicies({ data_protection: { mode: 'reject', action: 'block' } });
    const client = await f.connect();
    for (const name of ['record', 'readfile', 'link']) {
      const blocked = await client.callTool({ name, arguments: { id: 'c-1', path: 'notes.txt' } });
      assert.equal(blocked.isError, true, name);
      assert.ok(!JSON.stringify(blocked).includes(AWS_KEY), name);
      assert.match(JSON.stringify(blocked.content), /Blocked by the registry policy data_protection/);
    }
    await assert.rejects(client.readResource({ uri: 'doc://notes' }), /Blocked by the registry policy data_protection/);
    await assert.rejects(client.getPrompt({ name: 'brief' }), /Blocked by the registry policy data_protection/);
    const entries = (await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data as Array<{ kind: string; tool_invocations: Array<{ tool: string; blocked?: boolean }>; mcp?: { method: string; blocked: boolean } }>;
    assert.deepEqual(entries.filter((entry) => entry.kind === 'tool').map((entry) => [entry.tool_invocations[0]?.tool, entry.tool_invocations[0]?.blocked]).sort(), [['link', true], ['readfile', true], ['record', true]]);
    assert.deepEqual(entries.flatMap((entry) => (entry.mcp ? [[entry.mcp.method, entry.mcp.blocked]] : [])).sort(), [['prompts/get', true], ['resources/read', true]], 'the blocked resource and prompt are recorded too');
  });

  it('an answer replayed on the server stream (GET with Last-Event-ID) meets the policies and tool states as on the POST', async () => {
    await setPolicies({ data_protection: { mode: 'inspect', action: 'redact' } });
    await request(f.app).put('/v1/admin/mcp/registries/notes/tools/readfile').set('x-api-key', TEST_KEYS.admin).send({ enabled: false }).expect(200);
    const headers = (session?: string): Record<string, string> => ({
      authorization: `Bearer ${f.developerKey}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      ...(session ? { 'mcp-session-id': session } : {}),
    });
    const post = (body: object, session?: string) => fetch(`${f.base}/v1/mcp/notes`, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });
    const initialized = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resumer', version: '1.0.0' } } });
    const session = initialized.headers.get('mcp-session-id')!;
    await initialized.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    /** Sends a request, then replays its stream from its first event (the tool server's priming event) on a GET. */
    const replay = async (body: object): Promise<{ first: string; replayed: string }> => {
      const first = await (await post(body, session)).text();
      const primingId = /^id: (\S+)/m.exec(first)?.[1];
      assert.ok(primingId, `the stream is resumable: ${first}`);
      const resumed = await fetch(`${f.base}/v1/mcp/notes`, { headers: { ...headers(session), accept: 'text/event-stream', 'last-event-id': primingId } });
      assert.equal(resumed.status, 200);
      const reader = resumed.body!.getReader();
      let replayed = '';
      while (!replayed.includes('"result"')) replayed += Buffer.from((await reader.read()).value!).toString('utf8');
      await reader.cancel();
      return { first, replayed };
    };
    const call = await replay({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup', arguments: { query: 'key' } } });
    assert.match(call.first, /The deploy key is/);
    assert.ok(!call.first.includes(AWS_KEY), call.first);
    assert.match(call.replayed, /The deploy key is/);
    assert.ok(!call.replayed.includes(AWS_KEY), `the replayed result is redacted: ${call.replayed}`);
    const list = await replay({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    assert.ok(!list.first.includes('readfile') && list.first.includes('lookup'), list.first);
    assert.ok(!list.replayed.includes('readfile') && list.replayed.includes('lookup'), `the replayed list hides the disabled tool: ${list.replayed}`);
  });
});
