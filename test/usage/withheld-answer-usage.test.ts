// A JSON answer an output check withholds was still generated and billed: its usage is recorded, priced and spent from budgets.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

describe('usage of answers an output check withholds', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await oneDollarPerAnswer(f);
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } }).expect(200);
    f.fake.script({ text: 'Here is the forbidden answer.' });
  });
  afterEach(() => f.close());

  it('records the provider usage and cost of a withheld JSON answer, without its text', async () => {
    const refused = await chat(f).expect(400);
    assert.equal(refused.body.error.code, 'guardrail_rejected');
    await metered(f, 1);
    const [entry] = (await admin(f, 'get', '/v1/admin/applications/app/chronicles').expect(200)).body.data;
    assert.equal(entry.output, null, 'the withheld text is not kept');
    assert.deepEqual(entry.usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.equal(entry.cost.usd, 1);
    const [row] = (await admin(f, 'get', '/v1/admin/usage?group_by=application').expect(200)).body.data;
    assert.equal(row.total_tokens, 15);
    assert.equal(row.cost_usd, 1);
  });

  it('spends the budget: answers withheld one after another cannot run past it for free', async () => {
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 2, period: 'day' } }).expect(200);
    await chat(f).expect(400);
    await chat(f).expect(400);
    await metered(f, 2);
    const refused = await chat(f).expect(429);
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.equal(f.fake.requests.length, 2, 'the third request never reached the provider');
  });
});
