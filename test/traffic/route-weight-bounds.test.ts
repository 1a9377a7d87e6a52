// Route model weights: at most 1,000,000 on write; a stored route with larger weights still serves, its choice still weighted, and its update names the weight.
import assert from 'node:assert/strict';
import request from 'supertest';
import { MAX_MODEL_WEIGHT } from '../../src/admin/schemas/model-config-schema.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('route model weights', () => {
  let f: TrafficFixture;
  /** The next value the weighted choice draws, in [0, 1). */
  let draw = 0;
  beforeEach(async () => {
    f = await createTrafficFixture({ random: () => draw });
  });
  afterEach(() => f.close());

  const admin = (method: 'post' | 'put', path: string, body: object) => request(f.app)[method](path).set('x-api-key', TEST_KEYS.superAdmin).send(body);
  const modelFor = async (route: string, random: number): Promise<string> => {
    draw = random;
    const res = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(chatBody()).expect(200);
    return res.headers['x-gateway-model'] as string;
  };

  it(`refuses a weight over ${MAX_MODEL_WEIGHT} with 400 naming it, and accepts ${MAX_MODEL_WEIGHT}`, async () => {
    for (const weight of [1e308, MAX_MODEL_WEIGHT + 1]) {
      const res = await admin('post', '/v1/admin/routes', { name: 'heavy', type: 'chat', models: [{ name: 'a', provider: 'fake' }, { name: 'b', provider: 'fake', weight }] }).expect(400);
      assert.equal(res.body.error.code, 'invalid_value');
      assert.equal(res.body.error.param, 'models[1].weight');
      assert.match(res.body.error.message, /models\[1\]\.weight/);
    }
    await admin('post', '/v1/admin/routes', { name: 'heavy', type: 'chat', models: [{ name: 'a', provider: 'fake', weight: MAX_MODEL_WEIGHT }, { name: 'b', provider: 'fake', weight: MAX_MODEL_WEIGHT }] }).expect(201);
    assert.equal(await modelFor('heavy', 0.25), 'a');
    assert.equal(await modelFor('heavy', 0.75), 'b');
  });

  it('serves a stored route whose weights sum past the largest number, choosing by weight (not always the last model)', async () => {
    await admin('post', '/v1/admin/routes', { name: 'stored', type: 'chat', models: [{ name: 'a', provider: 'fake' }, { name: 'b', provider: 'fake' }, { name: 'c', provider: 'fake', weight: 0 }] }).expect(201);
    // As stored before the bound existed: two weights of 1e308 (their sum is Infinity).
    const stored = (await f.gateway.storage.get<{ models: Array<{ weight: number }> }>('routes/stored'))!;
    stored.models[0]!.weight = 1e308;
    stored.models[1]!.weight = 1e308;
    await f.gateway.storage.set('routes/stored', stored);

    assert.equal(await modelFor('stored', 0.25), 'a');
    assert.equal(await modelFor('stored', 0.75), 'b');
    assert.equal(await modelFor('stored', 0.999999), 'b', 'a weight-0 model is never first');

    // An update of the route is refused, naming the weight, and the stored route keeps serving.
    const update = await admin('put', '/v1/admin/routes/stored', { enabled: true }).expect(400);
    assert.equal(update.body.error.param, 'models[0].weight');
    assert.equal(await modelFor('stored', 0.25), 'a');
    await admin('put', '/v1/admin/routes/stored', { models: [{ name: 'a', provider: 'fake', weight: 3 }, { name: 'b', provider: 'fake', weight: 1 }] }).expect(200);
    assert.equal(await modelFor('stored', 0.7), 'a');
    assert.equal(await modelFor('stored', 0.8), 'b');
  });
});
