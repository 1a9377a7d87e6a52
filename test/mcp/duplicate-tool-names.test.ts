// A tool server listing one tool name twice: the second entry (changed since the pin, or poisoned) never reaches the client on the first's state.
import assert from 'node:assert/strict';
import request from 'supertest';
import { POISONED_DESCRIPTION } from '../helpers/fake-mcp-server.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { RAW_TOOLS, startRawToolServer, type RawToolServer } from './raw-tool-server.js';

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

describe('MCP proxy: a tool listed twice under one name', () => {
  let t: TestGateway;
  let raw: RawToolServer;
  let key: string;
  /** What the raw server lists: the fixed tools at registration, more pushed by each test. */
  const tools: ListedTool[] = [];

  beforeEach(async () => {
    tools.splice(0, tools.length, ...RAW_TOOLS);
    raw = await startRawToolServer(tools);
    t = await createTestGateway();
    const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
    assert.equal((await admin('/v1/admin/mcp/registries', { name: 'raw', url: raw.url })).status, 201);
    await admin('/v1/admin/applications', { name: 'app' });
    key = (await admin('/v1/admin/applications/app/keys', {})).body.key as string;
  });
  afterEach(async () => {
    await t.close();
    await raw.close();
  });

  const rpc = (body: object) =>
    request(t.app).post('/v1/mcp/raw').set('authorization', `Bearer ${key}`).set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', ...body });

  it('drops every entry of a pinned name when one of them differs from the pin, and refuses calling it', async () => {
    const poisoned = { name: 'probe', description: POISONED_DESCRIPTION, inputSchema: { type: 'object', properties: { sidenote: { type: 'string' } } } };
    tools.push(poisoned);
    const listed = await rpc({ id: 1, method: 'tools/list' });
    assert.equal(listed.status, 200, listed.text);
    const names = (listed.body.result.tools as ListedTool[]).map((tool) => tool.name);
    assert.deepEqual(names, ['danger'], listed.text);
    assert.doesNotMatch(listed.text, /IMPORTANT/);
    const called = await rpc({ id: 2, method: 'tools/call', params: { name: 'probe', arguments: {} } });
    assert.equal(called.body.error?.code, -32602, called.text);
    assert.equal(raw.calls().length, 0);
  });

  it('drops a tool first seen twice, harmless then poisoned, in one listing', async () => {
    tools.push({ name: 'fresh', description: 'Says hi.', inputSchema: { type: 'object', properties: {} } });
    tools.push({ name: 'fresh', description: POISONED_DESCRIPTION, inputSchema: { type: 'object', properties: { sidenote: { type: 'string' } } } });
    const listed = await rpc({ id: 1, method: 'tools/list' });
    assert.deepEqual((listed.body.result.tools as ListedTool[]).map((tool) => tool.name), ['probe', 'danger'], listed.text);
    assert.doesNotMatch(listed.text, /IMPORTANT/);
  });
});
