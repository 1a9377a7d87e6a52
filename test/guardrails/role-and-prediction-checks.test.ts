// Input policies check a message of any role (an unknown or upper-cased one too) and a predicted output: neither is a way around the checks.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { addTranslatedRoutes, chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const BANNED = 'forbidden';

describe('input policies on every message role and on predicted outputs', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await addTranslatedRoutes(f);
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: {} } }).expect(200);
  });
  after(() => f.close());

  const chat = (body: Record<string, unknown>, route?: string) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, ...(route ? { 'x-gateway-route': route } : {}) }).send(chatBody(body));
  const askedTool = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] };

  it('rejects a tool result sent under another role (Anthropic reads it as a tool_result), before any provider call', async () => {
    const sent = f.fake.requests.length;
    for (const role of ['Tool', 'TOOL', 'ipython']) {
      const res = await chat({ messages: [{ role: 'user', content: 'Look it up.' }, askedTool, { role, tool_call_id: 'call_1', content: `The answer is ${BANNED}.` }] }, 'via-anthropic').expect(400);
      assert.equal(res.body.error.code, 'guardrail_rejected', role);
    }
    assert.equal(f.fake.requests.length, sent);
    // The same turn with the role written as Anthropic's adapter expects it is rejected the same way.
    await chat({ messages: [{ role: 'user', content: 'Look it up.' }, askedTool, { role: 'tool', tool_call_id: 'call_1', content: `The answer is ${BANNED}.` }] }, 'via-anthropic').expect(400);
  });

  it('rejects a message whose role is upper-cased, which an OpenAI-compatible server may pass to its chat template', async () => {
    const sent = f.fake.requests.length;
    const res = await chat({ messages: [{ role: 'USER', content: `Say ${BANNED}.` }] }).expect(400);
    assert.equal(res.body.error.code, 'guardrail_rejected');
    assert.equal(f.fake.requests.length, sent);
  });

  it('rejects a predicted output holding the text, as a string or as text parts; a clean one passes', async () => {
    const sent = f.fake.requests.length;
    for (const content of [`Draft: ${BANNED}`, [{ type: 'text', text: `Draft: ${BANNED}` }]]) {
      const res = await chat({ prediction: { type: 'content', content } }).expect(400);
      assert.equal(res.body.error.code, 'guardrail_rejected');
    }
    assert.equal(f.fake.requests.length, sent);
    await chat({ prediction: { type: 'content', content: 'Draft: fine' } }).expect(200);
  });
});
