// A custom processor's transformedText is applied on model traffic, as DLP's is: to each message it changes, input and output.
import assert from 'node:assert/strict';
import request from 'supertest';
import { defineGuardrail } from '../../src/index.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** Replaces every "ACME" with "[company]", flagging nothing: a transform-only processor written as users write theirs. */
const companyRedactor = defineGuardrail<object, { replaced: number }>({
  name: 'company_redactor',
  defaultThreshold: 0.5,
  evaluate(text) {
    const replaced = text.split('ACME').length - 1;
    return { results: { replaced }, flagged: false, ...(replaced > 0 ? { transformedText: text.replaceAll('ACME', '[company]') } : {}) };
  },
});

describe('custom processors that transform text', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: [companyRedactor] });
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'inspect', processors: { company_redactor: {} } }).expect(200);
  });
  afterEach(() => f.close());

  const chat = (body: Record<string, unknown>) => request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(body);

  it('15.8: the transformed text of a custom processor replaces each input message it changes, and only those', async () => {
    await chat(chatBody({ messages: [
      { role: 'system', content: 'You work for ACME.' },
      { role: 'user', content: 'Tell me about ACME.' },
      { role: 'assistant', content: 'Sure.' },
      { role: 'user', content: [{ type: 'text', text: 'And ACME shares?' }] },
    ] })).expect(200);
    const sent = (f.fake.requests[0]!.body as { messages: Array<{ content: unknown }> }).messages;
    assert.equal(sent[0]!.content, 'You work for ACME.', 'system messages are the operator\'s own');
    assert.equal(sent[1]!.content, 'Tell me about [company].');
    assert.equal(sent[2]!.content, 'Sure.');
    assert.deepEqual(sent[3]!.content, [{ type: 'text', text: 'And [company] shares?' }]);
  });

  it('15.8: the transformed text of a custom processor replaces a non-streamed answer', async () => {
    f.fake.script({ text: 'ACME makes anvils.' });
    const res = await chat(chatBody()).expect(200);
    assert.equal(res.body.choices[0].message.content, '[company] makes anvils.');
  });
});
