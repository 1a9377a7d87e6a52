// POST /v1/guardrail/:processor/apply: authentication, errors, application policies and request_reject, with a user plugin.
import assert from 'node:assert/strict';
import request from 'supertest';
import { competitorMentions } from '../../examples/custom-guardrail.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('standalone guardrail endpoint', () => {
  let t: TestGateway;
  let developerKey: string;
  const path = '/v1/guardrail/competitor_mentions/apply';

  beforeEach(async () => {
    t = await createTestGateway({ guardrailMaxTextBytes: 1000 });
    await t.gateway.register(competitorMentions);
    const as = TEST_KEYS.admin;
    await request(t.app).post('/v1/admin/applications').set('x-api-key', as).send({ name: 'strict' }).expect(201);
    await request(t.app).post('/v1/admin/applications').set('x-api-key', as).send({ name: 'lenient' }).expect(201);
    await request(t.app)
      .put('/v1/admin/applications/strict/policy')
      .set('x-api-key', as)
      .send({ mode: 'reject', processors: { competitor_mentions: { threshold: 0.5, competitors: ['initech'] } } })
      .expect(200);
    await request(t.app).put('/v1/admin/applications/lenient/policy').set('x-api-key', as).send({ mode: 'inspect' }).expect(200);
    developerKey = (await request(t.app).post('/v1/admin/applications/strict/keys').set('x-api-key', as).send({})).body.key;
  });
  afterEach(() => t.close());

  const apply = (body: unknown, headers: Record<string, string> = { 'x-gateway-apikey': developerKey }) =>
    request(t.app).post(path).set(headers).send(body as object);

  it('serves a user plugin registered after start, in the spec response shape', async () => {
    const res = await apply({ input: { text: 'Is Acme cheaper?' } }).expect(200);
    assert.deepEqual(res.body, {
      assessments: [{ competitor_mentions: { request_reject: true, results: { mentions: ['acme'], score: 1 } } }],
    });
  });

  it('needs x-gateway-apikey: missing or wrong is 401; a developer key or an admin key works', async () => {
    assert.equal((await apply({ input: { text: 'x' } }, {}).expect(401)).body.error.code, 'missing_api_key');
    assert.equal((await apply({ input: { text: 'x' } }, { 'x-gateway-apikey': 'gwk_nope' }).expect(401)).body.error.code, 'invalid_api_key');
    await apply({ input: { text: 'x' } }, { 'x-gateway-apikey': TEST_KEYS.viewer }).expect(200);
  });

  it('answers 404 with the list of processors for an unknown one', async () => {
    const res = await request(t.app).post('/v1/guardrail/nope/apply').set('x-gateway-apikey', developerKey).send({ input: { text: 'x' } }).expect(404);
    assert.equal(res.body.error.code, 'not_found');
    assert.ok(res.body.error.processors.includes('competitor_mentions'));
  });

  it('answers 400 naming input.text when it is missing or not a string, and 413 over the text limit', async () => {
    assert.equal((await apply({ input: {} }).expect(400)).body.error.param, 'input.text');
    assert.equal((await apply({ input: { text: 42 } }).expect(400)).body.error.param, 'input.text');
    assert.equal((await apply({}).expect(400)).body.error.param, 'input');
    assert.equal((await apply({ input: { text: 'x' }, config: { threshold: 2 } }).expect(400)).body.error.param, 'config.threshold');
    const big = await apply({ input: { text: 'é'.repeat(501) } }).expect(413);
    assert.equal(big.body.error.code, 'body_too_large');
    await apply({ input: { text: 'é'.repeat(500) } }).expect(200);
  });

  it('follows the named application policy: its options, its threshold, and its mode', async () => {
    const strict = await apply({ input: { text: 'Initech and Acme' } }, { 'x-gateway-apikey': developerKey, 'x-gateway-application': 'strict' }).expect(200);
    assert.deepEqual(strict.body.assessments[0].competitor_mentions, { request_reject: true, results: { mentions: ['initech'], score: 1 } });
    const lenient = await apply({ input: { text: 'Acme' } }, { 'x-gateway-apikey': TEST_KEYS.admin, 'x-gateway-application': 'lenient' }).expect(200);
    assert.equal(lenient.body.assessments[0].competitor_mentions.request_reject, false, 'inspect mode never rejects');
    assert.equal(lenient.body.assessments[0].competitor_mentions.results.score, 1);
  });

  it('lets config.threshold override the threshold', async () => {
    const res = await apply({ input: { text: 'Acme' }, config: { threshold: 1 } }).expect(200);
    assert.equal(res.body.assessments[0].competitor_mentions.request_reject, false);
  });

  it('answers 404 for an unknown x-gateway-application named with an admin key', async () => {
    await apply({ input: { text: 'x' } }, { 'x-gateway-apikey': TEST_KEYS.viewer, 'x-gateway-application': 'ghost' }).expect(404);
  });

  it('11.4: a developer key may name only its own application in x-gateway-application (403, the same for unknown names)', async () => {
    const other = await apply({ input: { text: 'Acme' } }, { 'x-gateway-apikey': developerKey, 'x-gateway-application': 'lenient' }).expect(403);
    const ghost = await apply({ input: { text: 'Acme' } }, { 'x-gateway-apikey': developerKey, 'x-gateway-application': 'ghost' }).expect(403);
    assert.equal(other.body.error.code, 'application_forbidden');
    assert.equal(other.body.error.type, 'permission_error');
    assert.deepEqual(ghost.body, other.body, 'the answer does not tell whether the application exists');
    const own = await apply({ input: { text: 'Initech' } }, { 'x-gateway-apikey': developerKey, 'x-gateway-application': 'strict' }).expect(200);
    assert.equal(own.body.assessments[0].competitor_mentions.request_reject, true);
    await apply({ input: { text: 'Acme' } }, { 'x-gateway-apikey': TEST_KEYS.admin, 'x-gateway-application': 'lenient' }).expect(200);
  });

  it('lets a policy name the user plugin, validating its options', async () => {
    const bad = await request(t.app)
      .put('/v1/admin/applications/strict/policy')
      .set('x-api-key', TEST_KEYS.admin)
      .send({ processors: { competitor_mentions: { competitors: 'acme' } } })
      .expect(400);
    assert.equal(bad.body.error.param, 'processors.competitor_mentions.competitors');
  });
});
