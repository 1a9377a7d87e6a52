// What a client names is echoed in an error cut short: a 70 KB part type or field name is not sent back whole.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const LONG = 'x'.repeat(70_000);

describe('the type of a refused part or block in an error message', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    await addTranslatedRoutes(f);
  });
  after(() => f.close());

  function assertRefusedShort(res: request.Response, param: string): void {
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.ok(res.text.includes(param), res.text.slice(0, 300));
    assert.ok(res.text.includes('"xxxx'), 'the start of the type is shown');
    assert.ok(res.text.length < 1000, `an answer of ${res.text.length} characters`);
  }

  for (const route of ['via-anthropic', 'via-gemini']) {
    it(`POST /v1/chat/completions on ${route}: a content part's type`, async () => {
      const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route })
        .send({ model: 'x', messages: [{ role: 'user', content: [{ type: LONG, text: 'Hi' }] }] });
      assertRefusedShort(res, 'messages[0].content[0]');
    });
  }

  const blocks: Array<[string, unknown[], string]> = [
    ['a user block', [{ role: 'user', content: [{ type: LONG }] }], 'messages[0].content[0]'],
    ['an assistant block', [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ type: LONG }] }, { role: 'user', content: 'Hi' }], 'messages[1].content[0]'],
    ['a tool result block', [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: LONG }] }] }], 'messages[2].content[0].content[0]'],
    ['a document source', [{ role: 'user', content: [{ type: 'document', source: { type: LONG, data: 'x' } }] }], 'messages[0].content[0].source'],
  ];
  for (const [what, messages, param] of blocks) {
    it(`POST /v1/messages: ${what}'s type`, async () => {
      const res = await request(f.app).post('/v1/messages').set({ 'x-api-key': f.developerKey }).send({ model: 'gpt-4o-mini', max_tokens: 16, messages });
      assertRefusedShort(res, param);
      assert.equal(res.body.type, 'error');
    });
  }

  after(() => assert.equal(f.fake.requests.length, 0, 'nothing refused reached the provider'));
});

describe('a field name the client chose in an error message', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
  });
  after(() => f.close());

  function assertNamedShort(res: request.Response, start: string): void {
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.ok(res.body.error.param.startsWith(`${start}kkkk`), res.body.error.param.slice(0, 200));
    assert.ok(res.body.error.param.length < 200, `a param of ${res.body.error.param.length} characters`);
    assert.ok(res.text.length < 1000, `an answer of ${res.text.length} characters`);
  }

  it('POST /v1/guardrail/:processor/apply: an unknown option of the processor', async () => {
    const res = await request(f.app).post('/v1/guardrail/dlp_cloud/apply').set('x-gateway-apikey', f.developerKey).send({ input: { text: 'Hi' }, config: { ['k'.repeat(70_000)]: 1 } });
    assertNamedShort(res, '');
  });

  it('the admin API: an unknown field of a policy', async () => {
    const res = await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', ['k'.repeat(70_000)]: 1 });
    assertNamedShort(res, '');
    const policy = await request(f.app).get('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.notEqual(policy.body.mode, 'reject', 'nothing was stored');
  });
});
