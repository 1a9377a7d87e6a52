// /v1/responses: a developer key in an MCP tool's headers must be a valid key of the caller's own, enabled application.
import assert from 'node:assert/strict';
import request from 'supertest';
import { startFakeProvider, type FakeProvider, type FakeRequest } from '../helpers/fake-provider.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

describe('/v1/responses: developer keys in MCP tool headers', () => {
  let f: McpFixture;
  let fake: FakeProvider;
  let otherKey: string;
  const admin = (method: 'post' | 'put', path: string, body: object) => request(f.app)[method](path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
  const post = (body: object) => request(f.base).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send(body);
  const tool = (headers: Record<string, string>) => ({ type: 'mcp', server_label: 'tools', server_url: f.requestUrl, headers, require_approval: 'never' });

  beforeEach(async () => {
    f = await createMcpFixture();
    fake = await startFakeProvider();
    await admin('post', '/v1/admin/providers', { name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['tool-model'] } }).expect(201);
    await admin('post', '/v1/admin/applications', { name: 'other' }).expect(201);
    otherKey = (await admin('post', '/v1/admin/applications/other/keys', {}).expect(201)).body.key;
    fake.script((received: FakeRequest) => {
      const messages = (received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
      if (messages.at(-1)?.role === 'tool') return { text: `Tool said ${String(messages.at(-1)?.content)}.` };
      return { toolCall: { name: 'tools__add', arguments: { a: 2, b: 3 } } };
    });
  });
  afterEach(async () => {
    await f.close();
    await fake.close();
  });

  it("refuses another application's key with 403 application_forbidden before any model or tool call", async () => {
    for (const headers of [{ Authorization: `Bearer ${otherKey}` }, { 'X-Gateway-Apikey': otherKey }] as Array<Record<string, string>>) {
      const res = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool(headers)] }).expect(403);
      assert.equal(res.body.error.code, 'application_forbidden');
      assert.equal(res.body.error.param, 'tools[0].headers');
      assert.ok(!JSON.stringify(res.body).includes(otherKey));
    }
    assert.equal(fake.requests.length, 0, 'no model call');
    assert.deepEqual(f.mcp.calls, [], 'no tool call');
  });

  it("refuses a disabled application's key (403), even while the caller's application is enabled", async () => {
    await admin('put', '/v1/admin/applications/other', { enabled: false }).expect(200);
    const res = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool({ authorization: `Bearer ${otherKey}` })] }).expect(403);
    assert.equal(res.body.error.type, 'permission_error');
    assert.equal(fake.requests.length, 0);
    assert.deepEqual(f.mcp.calls, []);
  });

  it('refuses an unknown or revoked key with 401 before any model call', async () => {
    const res = await post({ model: 'tool-model', input: 'hi', tools: [tool({ authorization: 'Bearer gwk_not-a-real-key-0000000000' })] }).expect(401);
    assert.equal(res.body.error.code, 'invalid_api_key');
    assert.equal(res.body.error.param, 'tools[0].headers');
    assert.equal(fake.requests.length, 0);
  });

  it("accepts another key of the caller's own application, and no header value reaches the response, the log or the store", async () => {
    const second = (await admin('post', '/v1/admin/applications/app/keys', {}).expect(201)).body.key as string;
    const res = await post({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool({ authorization: `Bearer ${second}` })] }).expect(200);
    assert.equal(res.body.output_text, 'Tool said 5.');
    assert.deepEqual(f.mcp.calls, [{ name: 'add', arguments: { a: 2, b: 3 } }]);
    const stored = await request(f.base).get(`/v1/responses/${res.body.id}`).set('x-gateway-apikey', f.developerKey).expect(200);
    const entries = await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.admin).expect(200);
    for (const text of [res.text, stored.text, entries.text]) assert.ok(!text.includes(second), text);
  });
});
