// A policy naming a processor that is not registered: refused when written, and failing closed (503) when found at run time.
import assert from 'node:assert/strict';
import request from 'supertest';
import openai from '../../plugins/providers/openai/index.js';
import type { GatewayLogger } from '../../src/index.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** A policy as it would be left in storage by a gateway that had the `ghost_processor` plugin. */
const ghostPolicy = (mode: 'reject' | 'inspect', onError: 'fail_open' | 'fail_closed') => ({
  mode,
  processors: { ghost_processor: { enabled: true, apply_to: ['input', 'output'] } },
  on_error: onError,
  timeout_ms: 1000,
});

describe('policies naming unregistered processors', () => {
  let f: TrafficFixture;
  let lines: Array<{ message: string; fields?: Record<string, unknown> }>;
  beforeEach(async () => {
    lines = [];
    const collect = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields });
    const logger: GatewayLogger = { info: collect, warn: collect, error: collect };
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, logger });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  });
  afterEach(() => f.close());

  const chat = () => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' }).send(chatBody());
  const lastEntry = async () =>
    (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];

  it('an application or route policy naming an unknown processor is refused 400 naming the field', async () => {
    const app = await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.superAdmin).send({ processors: { ghost_processor: {} } }).expect(400);
    assert.equal(app.body.error.param, 'processors.ghost_processor');
    const route = await request(f.app)
      .put('/v1/admin/routes/chat')
      .set('x-api-key', TEST_KEYS.superAdmin)
      .send({ config: { policy: { enabled: true, mode: 'reject', processors: { ghost_processor: {} } } } })
      .expect(400);
    assert.equal(route.body.error.param, 'config.policy.processors.ghost_processor');
  });

  for (const [mode, onError] of [['reject', 'fail_closed'], ['inspect', 'fail_open']] as const) {
    it(`11.8: a stored application policy naming an unregistered processor fails closed (${mode}, ${onError}): 503, logged, recorded`, async () => {
      await f.gateway.storage.set('application-policies/app', ghostPolicy(mode, onError));
      const res = await chat().expect(503);
      assert.equal(res.body.error.code, 'guardrail_unavailable');
      assert.equal(res.body.error.processor, 'ghost_processor');
      assert.equal(f.fake.requests.length, 0, 'the provider is never called');
      assert.ok(lines.some((line) => JSON.stringify(line).includes('ghost_processor')), 'a log line names the processor');
    });
  }

  it('11.8: the refusal is recorded in Chronicles with the failed check', async () => {
    await f.gateway.storage.set('application-policies/app', ghostPolicy('reject', 'fail_closed'));
    await chat().expect(503);
    const entry = (await lastEntry()) as { status: number; guardrail_checks: Array<{ processor: string; error?: string }> };
    assert.equal(entry.status, 503);
    const check = entry.guardrail_checks.find((c) => c.processor === 'ghost_processor');
    assert.ok(check?.error, JSON.stringify(entry?.guardrail_checks));
  });

  it('11.8: a stored route policy naming an unregistered processor fails closed too', async () => {
    const route = (await f.gateway.storage.get<Record<string, unknown>>('routes/chat'))!;
    await f.gateway.storage.set('routes/chat', { ...route, config: { ...(route.config as object), policy: { enabled: true, ...ghostPolicy('reject', 'fail_open') } } });
    const res = await chat().expect(503);
    assert.equal(res.body.error.code, 'guardrail_unavailable');
    assert.equal(f.fake.requests.length, 0);
  });
});

describe('a dlp section without the DLP processor', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture({ builtins: false, plugins: [openai] });
  });
  after(() => f.close());

  it('11.8: a policy whose dlp strategy needs an unregistered dlp_cloud is refused 400 at dlp.strategy', async () => {
    const res = await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', dlp: { strategy: 'mask' } }).expect(400);
    assert.equal(res.body.error.param, 'dlp.strategy');
  });
});
