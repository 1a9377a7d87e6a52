// Usage totals keep a bounded number of caller-chosen model names a day: a developer key sending new names cannot grow them without end.
import assert from 'node:assert/strict';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { MAX_CALLER_MODELS_PER_DAY } from '../../src/usage/usage-model-names.js';
import { OTHER_ROUTE_OR_MODEL } from '../../src/usage/usage-totals.js';

describe('usage totals: caller-chosen model names', function () {
  this.timeout(60_000);
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture({ usage: { flushIntervalMs: 50 } });
  });
  after(() => f.close());

  const chat = (model: string) => request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model }));

  it(`keeps ${MAX_CALLER_MODELS_PER_DAY.toLocaleString('en')} names of \`provider/<anything>\` a day, counts later ones under (other), and configured models by name`, async () => {
    // The provider refuses each name, as a real one refuses a model it does not serve; every request still counts.
    f.fake.script((req) => (req.model === 'gpt-4o-mini' ? undefined : { fail: { status: 404, message: 'The model does not exist.' } }));
    const extra = 5;
    for (let index = 0; index < MAX_CALLER_MODELS_PER_DAY + extra; index++) await chat(`fake/made-up-${index}`).expect(404);
    await chat('fake/made-up-0').expect(404);
    await chat('gpt-4o-mini').expect(200);
    const byModel = await eventually(async () => {
      const res = await request(f.app).get('/v1/admin/usage?group_by=model').set('x-api-key', TEST_KEYS.viewer).expect(200);
      const rows = Object.fromEntries((res.body.data as Array<{ model: string; requests: number }>).map((row) => [row.model, row.requests]));
      assert.equal(Object.values(rows).reduce((sum, requests) => sum + requests, 0), MAX_CALLER_MODELS_PER_DAY + extra + 2);
      return rows;
    });
    assert.equal(Object.keys(byModel).length, MAX_CALLER_MODELS_PER_DAY + 2);
    assert.equal(byModel['made-up-0'], 2);
    assert.equal(byModel[`made-up-${MAX_CALLER_MODELS_PER_DAY - 1}`], 1);
    assert.equal(byModel[`made-up-${MAX_CALLER_MODELS_PER_DAY}`], undefined);
    assert.equal(byModel[OTHER_ROUTE_OR_MODEL], extra);
    assert.equal(byModel['gpt-4o-mini'], 1, 'a configured model keeps its name past the bound');
  });
});
