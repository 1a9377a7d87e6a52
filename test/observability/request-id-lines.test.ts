// Every log line written about one request carries its request id, the lines of its failures included.
import assert from 'node:assert/strict';
import request from 'supertest';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import { eventually } from '../helpers/eventually.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('observability: the request id on every line of a request', () => {
  let f: TrafficFixture;
  let lines: LoggedLine[];
  beforeEach(async () => {
    lines = [];
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, logger: capturingLogger(lines), logRequests: true });
  });
  afterEach(() => f.close());

  it('a stored policy naming an unregistered processor: the refusal line, the failure line and the request line all carry the id', async () => {
    // As a gateway that had the plugin would have left it.
    await f.gateway.storage.set('application-policies/app', { mode: 'reject', processors: { ghost_processor: { enabled: true, apply_to: ['input'] } }, on_error: 'fail_closed', timeout_ms: 1000 });
    const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-request-id': 'client-req-42' }).send(chatBody()).expect(503);
    assert.equal(res.headers['x-request-id'], 'client-req-42');
    const mine = await eventually(() => {
      const found = lines.filter((line) => JSON.stringify(line).includes('ghost_processor') || line.fields?.path === '/v1/chat/completions');
      assert.ok(found.some((line) => line.message === 'request'));
      return found;
    });
    const refusal = mine.find((line) => line.message.startsWith('guardrail policy names processors'));
    assert.ok(refusal, 'the refusal is logged');
    for (const line of mine) assert.equal(line.fields?.request_id, 'client-req-42', `"${line.message}" carries the request id`);
  });
});
