// A disabled application's developer keys get 403 application_disabled on every endpoint a developer key reaches, not only the model endpoints.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } } };

function setEnabled(app: McpFixture['app'], enabled: boolean): Promise<request.Response> {
  return request(app).put('/v1/admin/applications/app').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'app', enabled }).expect(200);
}

function assertDisabled(res: request.Response): void {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.error.code, 'application_disabled');
}

describe('disabled applications beyond the model endpoints', () => {
  describe('the MCP proxy and the standalone guardrails', () => {
    let f: McpFixture;
    beforeEach(async () => {
      f = await createMcpFixture();
    });
    afterEach(() => f.close());

    it('refuses a disabled application on POST, GET and DELETE /v1/mcp/:name before the tool server is reached', async () => {
      await setEnabled(f.app, false);
      const calls = f.mcp.authorizations.length;
      const post = await request(f.app).post('/v1/mcp/tools').set('authorization', `Bearer ${f.developerKey}`).set('accept', 'application/json, text/event-stream').send(INITIALIZE);
      assertDisabled(post);
      assertDisabled(await request(f.app).get('/v1/mcp/tools').set('authorization', `Bearer ${f.developerKey}`).set('accept', 'text/event-stream'));
      assertDisabled(await request(f.app).delete('/v1/mcp/tools').set('x-gateway-apikey', f.developerKey));
      assert.equal(f.mcp.authorizations.length, calls, 'the tool server received nothing');
      await setEnabled(f.app, true);
      const again = await request(f.app).post('/v1/mcp/tools').set('authorization', `Bearer ${f.developerKey}`).set('accept', 'application/json, text/event-stream').send(INITIALIZE);
      assert.equal(again.status, 200, again.text);
    });

    it('refuses a disabled application on POST /v1/guardrail/:processor/apply; admin keys still evaluate', async () => {
      await setEnabled(f.app, false);
      const body = { input: { text: 'Hello there' } };
      assertDisabled(await request(f.app).post('/v1/guardrail/promptinjectiondetection/apply').set('x-gateway-apikey', f.developerKey).send(body));
      await request(f.app).post('/v1/guardrail/promptinjectiondetection/apply').set('x-gateway-apikey', TEST_KEYS.admin).send(body).expect(200);
    });
  });

  describe('GET /v1/responses/:id', () => {
    let f: TrafficFixture;
    beforeEach(async () => {
      f = await createTrafficFixture();
    });
    afterEach(() => f.close());

    it('refuses a disabled application its stored responses', async () => {
      const created = await request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send({ model: 'gpt-4o-mini', input: 'Hello' }).expect(200);
      await request(f.app).get(`/v1/responses/${created.body.id}`).set('x-gateway-apikey', f.developerKey).expect(200);
      await setEnabled(f.app, false);
      assertDisabled(await request(f.app).get(`/v1/responses/${created.body.id}`).set('x-gateway-apikey', f.developerKey));
    });
  });
});
