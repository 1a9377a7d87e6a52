// /v1/responses reads a tool server's answers within the MCP size cap (issue 11, point 3): an oversize tool result is cut off, never buffered whole.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import request from 'supertest';
import { startFakeProvider, type FakeProvider, type FakeRequest } from '../helpers/fake-provider.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { startRawToolServer, type RawToolServer } from '../mcp/raw-tool-server.js';

describe('/v1/responses: bounded tool-server answers (11.3)', () => {
  let t: TestGateway;
  let raw: RawToolServer;
  let fake: FakeProvider;
  let server: Server;
  let key: string;
  beforeEach(async () => {
    raw = await startRawToolServer();
    fake = await startFakeProvider();
    t = await createTestGateway({ mcp: { maxResponseBytes: 64 * 1024 } });
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
    await admin('/v1/admin/mcp/registries', { name: 'raw', url: raw.url, authorization_token: 'raw-registry-token-0123456789' }).expect(201);
    await admin('/v1/admin/providers', { name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['tool-model'] } }).expect(201);
    await admin('/v1/admin/applications', { name: 'app' }).expect(201);
    key = (await admin('/v1/admin/applications/app/keys', {}).expect(201)).body.key;
  });
  afterEach(async () => {
    server.closeAllConnections();
    server.close();
    await t.close();
    await raw.close();
    await fake.close();
  });

  it('11.3: a tool result over mcp.maxResponseBytes ends that call with a short error in /v1/responses, and the model never sees the body', async () => {
    const huge = 'A'.repeat(2 * 1024 * 1024);
    raw.onCall = (message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: huge }] } }));
    };
    fake.script((received: FakeRequest) => {
      const messages = (received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
      const last = messages.at(-1);
      if (last?.role === 'tool') return { text: `tool said ${String(last.content).length} characters` };
      return { toolCall: { name: 'raw__probe', arguments: {} } };
    });
    const res = await request(t.app)
      .post('/v1/responses')
      .set('x-gateway-apikey', key)
      .send({ model: 'tool-model', input: 'probe it', tools: [{ type: 'mcp', server_label: 'raw', require_approval: 'never' }] })
      .expect(200);
    const call = (res.body.output as Array<{ type: string; error?: string; output?: string }>).find((item) => item.type === 'mcp_call');
    assert.ok(call, 'the tool call is in the output');
    assert.match(call.error ?? '', /more than 65536 bytes/);
    assert.equal(call.output ?? null, null);
    assert.ok(!JSON.stringify(fake.requests.map((r) => r.body)).includes('A'.repeat(70_000)), 'the oversize result never reached the model');
  });
});
