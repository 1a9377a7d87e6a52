// Registry policies on a tool server's log and progress notifications and URL elicitations: their text reaches the client as a tool result's does.
import assert from 'node:assert/strict';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { startRawToolServer, type RawToolServer } from './raw-tool-server.js';

const EMAIL = 'carol.notified@example.com';

describe("MCP proxy: registry policies on a tool server's notifications", () => {
  let t: TestGateway;
  let raw: RawToolServer;
  let key: string;
  const admin = (method: 'post' | 'put', path: string, body: object) => request(t.app)[method](path).set('x-api-key', TEST_KEYS.superAdmin).send(body);

  beforeEach(async () => {
    raw = await startRawToolServer();
    // The tool answers on an event stream: a log message, a progress message, then its result, each naming EMAIL.
    raw.onCall = (message, res) => {
      const event = (payload: object) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...payload })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ method: 'notifications/message', params: { level: 'info', logger: 'mailer', data: { note: `writing to ${EMAIL}` } } }));
      res.write(event({ method: 'notifications/progress', params: { progressToken: 't1', progress: 1, total: 2, message: `Mailing ${EMAIL}` } }));
      res.end(event({ id: message.id, result: { content: [{ type: 'text', text: `sent to ${EMAIL}` }] } }));
    };
    t = await createTestGateway();
    assert.equal((await admin('post', '/v1/admin/mcp/registries', { name: 'raw', url: raw.url })).status, 201);
    await admin('post', '/v1/admin/applications', { name: 'app' });
    key = (await admin('post', '/v1/admin/applications/app/keys', {})).body.key as string;
  });
  afterEach(async () => {
    await t.close();
    await raw.close();
  });

  /** Calls the tool through the proxy and answers the stream's messages, in order. */
  async function callTool(): Promise<Array<{ method?: string; params?: Record<string, unknown>; result?: { content: Array<{ text: string }> } }>> {
    const res = await request(t.app)
      .post('/v1/mcp/raw')
      .set('authorization', `Bearer ${key}`)
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'probe', arguments: { _meta: { progressToken: 't1' } } } })
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => done(null, text));
      });
    assert.equal(res.status, 200, String(res.body));
    return String(res.body)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
  }

  it('DLP redaction masks the text of log and progress notifications, as it masks the tool result', async () => {
    assert.equal((await admin('put', '/v1/admin/mcp/registries/raw/policies', { data_protection: { mode: 'inspect', action: 'redact' } })).status, 200);
    const messages = await callTool();
    assert.deepEqual(messages.map((m) => m.method ?? 'result'), ['notifications/message', 'notifications/progress', 'result']);
    assert.doesNotMatch(JSON.stringify(messages), new RegExp(EMAIL), JSON.stringify(messages));
    assert.equal(messages[0]!.params?.logger, 'mailer');
    assert.equal(messages[1]!.params?.progress, 1);
  });

  it("DLP redaction masks a URL-mode elicitation's url, which the client's user is asked to open", async () => {
    raw.onCall = (message, res) => {
      const event = (payload: object) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...payload })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ id: 'e1', method: 'elicitation/create', params: { mode: 'url', elicitationId: 'el-1', message: 'Connect your account.', url: `https://connect.example.com/start?user=${EMAIL}` } }));
      res.end(event({ id: message.id, result: { content: [{ type: 'text', text: 'done' }] } }));
    };
    assert.equal((await admin('put', '/v1/admin/mcp/registries/raw/policies', { data_protection: { mode: 'inspect', action: 'redact' } })).status, 200);
    const messages = await callTool();
    assert.deepEqual(messages.map((m) => m.method ?? 'result'), ['elicitation/create', 'result']);
    assert.match(String(messages[0]!.params?.url), /^https:\/\/connect\.example\.com\/start\?user=/);
    assert.doesNotMatch(JSON.stringify(messages), new RegExp(EMAIL), JSON.stringify(messages));
  });

  it('a blocking policy withholds the notifications (recorded in Chronicles) and the result', async () => {
    assert.equal((await admin('put', '/v1/admin/mcp/registries/raw/policies', { data_protection: { mode: 'reject', action: 'block' } })).status, 200);
    const messages = await callTool();
    assert.deepEqual(messages.map((m) => m.method ?? 'result'), ['result'], JSON.stringify(messages));
    assert.doesNotMatch(JSON.stringify(messages), new RegExp(EMAIL));
    const withheld = await eventually(async () => {
      const entries = (await request(t.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer)).body.data as Array<{ kind: string; mcp?: { method: string; blocked: boolean } }>;
      const found = entries.filter((entry) => entry.kind === 'mcp').map((entry) => entry.mcp);
      assert.equal(found.length, 2, JSON.stringify(entries));
      return found;
    });
    assert.deepEqual(withheld.map((m) => [m?.method, m?.blocked]).sort(), [['notifications/message', true], ['notifications/progress', true]]);
  });
});
