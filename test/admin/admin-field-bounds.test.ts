// Admin field bounds: numbers and free text over their maximum are 400 naming the field (over HTTP and in `gateway-service validate`); stored records over them still load and serve, and their updates are refused.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { MAX_DESCRIPTION_LENGTH, MAX_SHORT_TEXT_LENGTH, MAX_URL_LENGTH } from '../../src/admin/schemas/common-schemas.js';
import { MAX_ROUTE_MODELS } from '../../src/admin/schemas/model-config-schema.js';
import { MAX_ROUTE_RATE_LIMIT, MAX_ROUTE_RETRIES, MAX_ROUTE_TIMEOUT_MS } from '../../src/admin/schemas/resource-schemas.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** A tool server that refuses connections at once (port 9 on loopback has no listener). */
const OFFLINE_URL = 'http://127.0.0.1:9/mcp';
const LONG_DESCRIPTION = 'd'.repeat(2000);
const OVER_SHORT = 's'.repeat(MAX_SHORT_TEXT_LENGTH + 1);
const run = promisify(execFile);

/** One write over a bound: where it goes, its body, and the field the 400 must name. */
interface OverBound {
  method: 'post' | 'put';
  path: string;
  body: Record<string, unknown>;
  param: string;
  namespace?: boolean;
}

const route = (settings: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'bounded',
  type: 'chat',
  models: [{ name: 'gpt-4o-mini', provider: 'fake' }],
  config: { settings },
  ...extra,
});

const OVER_BOUNDS: OverBound[] = [
  { method: 'post', path: '/v1/admin/routes', body: route({ rate_limit: 1e308 }), param: 'config.settings.rate_limit' },
  { method: 'post', path: '/v1/admin/routes', body: route({ rate_limit: MAX_ROUTE_RATE_LIMIT + 1 }), param: 'config.settings.rate_limit' },
  { method: 'post', path: '/v1/admin/routes', body: route({ timeout_ms: MAX_ROUTE_TIMEOUT_MS + 1 }), param: 'config.settings.timeout_ms' },
  { method: 'post', path: '/v1/admin/routes', body: route({ retries: MAX_ROUTE_RETRIES + 1 }), param: 'config.settings.retries' },
  { method: 'post', path: '/v1/admin/routes', body: route({}, { type: OVER_SHORT }), param: 'type' },
  { method: 'post', path: '/v1/admin/routes', body: { name: 'bounded', config: { team: { organization: OVER_SHORT } } }, param: 'config.team.organization' },
  { method: 'post', path: '/v1/admin/routes', body: route({}, { models: [{ name: OVER_SHORT, provider: 'fake' }] }), param: 'models[0].name' },
  { method: 'post', path: '/v1/admin/routes', body: route({}, { models: [{ name: 'm', provider: 'fake', virtual_secret_key: OVER_SHORT }] }), param: 'models[0].virtual_secret_key' },
  { method: 'post', path: '/v1/admin/applications', body: { name: 'wordy', description: LONG_DESCRIPTION }, param: 'description' },
  { method: 'put', path: '/v1/admin/applications/app', body: { description: LONG_DESCRIPTION }, param: 'description' },
  { method: 'post', path: '/v1/admin/applications', body: { name: 'rich', budget: { amount_usd: 1e308, period: 'day' } }, param: 'budget.amount_usd' },
  { method: 'post', path: '/v1/admin/applications', body: { name: 'busy', limits: { requests_per_minute: 1e308 } }, param: 'limits.requests_per_minute' },
  { method: 'put', path: '/v1/admin/applications/app/policy', body: { dlp: { info_types: [OVER_SHORT] } }, param: 'dlp.info_types[0]' },
  { method: 'post', path: '/v1/admin/templates/wordy', body: { description: LONG_DESCRIPTION }, param: 'description' },
  { method: 'post', path: '/v1/admin/templates/typed', body: { type: OVER_SHORT }, param: 'type' },
  { method: 'post', path: '/v1/admin/gateways', body: { name: 'gw', gateway_id: OVER_SHORT }, param: 'gateway_id' },
  { method: 'post', path: '/v1/admin/providers', body: { name: 'p2', type: OVER_SHORT }, param: 'type' },
  { method: 'post', path: '/v1/admin/providers', body: { name: 'p2', type: 'openai', config: { api_base: `http://example.test/${'u'.repeat(MAX_URL_LENGTH)}` } }, param: 'config.api_base' },
  { method: 'post', path: '/v1/admin/providers', body: { name: 'p2', type: 'openai', config: { models: [OVER_SHORT] } }, param: 'config.models[0]' },
  { method: 'post', path: '/v1/admin/providers/fake/keys/k2', body: { api_key: 'sk-bounded-0123456789', group: OVER_SHORT }, param: 'group', namespace: true },
  { method: 'post', path: '/v1/admin/providers/fake/keys/k2', body: { api_key: 'sk-bounded-0123456789', organization: OVER_SHORT }, param: 'organization', namespace: true },
  { method: 'post', path: '/v1/admin/mcp/registries', body: { name: 'wordy', url: OFFLINE_URL, description: LONG_DESCRIPTION }, param: 'description' },
  { method: 'post', path: '/v1/admin/mcp/registries', body: { name: 'far', url: `http://127.0.0.1:9/${'u'.repeat(MAX_URL_LENGTH)}` }, param: 'url' },
  { method: 'put', path: '/v1/admin/mcp/registries/offline/policies', body: { security_filters: { categories: [OVER_SHORT] } }, param: 'security_filters.categories[0]' },
  // Arrays: each list has a most-items bound too, so a list of 50,000 models is not walked on every request.
  { method: 'post', path: '/v1/admin/routes', body: route({}, { models: Array.from({ length: MAX_ROUTE_MODELS + 1 }, () => ({ name: 'gpt-4o-mini', provider: 'fake' })) }), param: 'models' },
  { method: 'post', path: '/v1/admin/templates/many', body: { models: Array.from({ length: MAX_ROUTE_MODELS + 1 }, () => ({ name: 'm', provider: 'fake' })) }, param: 'models' },
  { method: 'post', path: '/v1/admin/routes', body: route({}, { models: [{ name: 'm', provider: 'fake', fallback_codes: Array.from({ length: 501 }, () => 500) }] }), param: 'models[0].fallback_codes' },
  { method: 'post', path: '/v1/admin/providers', body: { name: 'p2', type: 'openai', config: { models: Array.from({ length: 10_001 }, (_, i) => `m${i}`) } }, param: 'config.models' },
  { method: 'post', path: '/v1/admin/providers', body: { name: 'p2', type: 'openai', api_keys: Array.from({ length: 257 }, (_, i) => ({ api_key: `sk-bounded-${i}-0123456789` })) }, param: 'api_keys' },
  { method: 'put', path: '/v1/admin/applications/app/policy', body: { dlp: { info_types: Array.from({ length: 257 }, (_, i) => `T${i}`) } }, param: 'dlp.info_types' },
  { method: 'put', path: '/v1/admin/mcp/registries/offline/policies', body: { security_filters: { categories: Array.from({ length: 257 }, (_, i) => `c${i}`) } }, param: 'security_filters.categories' },
];

describe('Admin field bounds', function () {
  this.timeout(60_000);
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/mcp/registries', { name: 'offline', url: OFFLINE_URL });
  });
  after(() => f.close());

  const admin = (method: 'get' | 'post' | 'put', path: string, body?: object) => {
    const req = request(f.app)[method](path).set('x-api-key', TEST_KEYS.superAdmin);
    return body === undefined ? req : req.send(body);
  };
  const chat = (routeName: string) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': routeName }).send(chatBody());

  for (const [i, c] of OVER_BOUNDS.entries()) {
    it(`${c.method.toUpperCase()} ${c.path}: over the bound of ${c.param} (#${i}) is 400 naming it, nothing stored`, async () => {
      const req = admin(c.method, c.path, c.body);
      if (c.namespace) void req.set('x-gateway-namespace', 'team-a');
      const res = await req;
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(res.body.error.code, 'invalid_value');
      assert.equal(res.body.error.param, c.param);
      assert.ok(res.body.error.message.includes(`'${c.param}'`), res.body.error.message);
      if (c.method === 'post' && typeof c.body.name === 'string') {
        const kind = c.path.split('/').at(-1)!;
        assert.equal((await admin('get', `/v1/admin/${kind === 'registries' ? 'mcp/registries' : kind}/${c.body.name}`)).status, 404);
      }
    });
  }

  it('accepts each value at its bound: rate_limit 1,000,000, a 1,024-character description, a 256-character group', async () => {
    await admin('post', '/v1/admin/routes', route({ rate_limit: MAX_ROUTE_RATE_LIMIT, retries: MAX_ROUTE_RETRIES, timeout_ms: MAX_ROUTE_TIMEOUT_MS }, { name: 'at-bound' })).expect(201);
    await admin('post', '/v1/admin/applications', { name: 'at-bound', description: 'd'.repeat(MAX_DESCRIPTION_LENGTH) }).expect(201);
    await admin('post', '/v1/admin/providers/fake/keys/at-bound', { api_key: 'sk-bounded-0123456789', group: 'g'.repeat(MAX_SHORT_TEXT_LENGTH) }).set('x-gateway-namespace', 'team-a').expect(201);
    assert.equal((await chat('at-bound')).status, 200);
  });

  it('a stored route and application over the bounds still load and serve; an update of either is 400 naming the field', async () => {
    await admin('post', '/v1/admin/routes', route({ rate_limit: 5 }, { name: 'stored' })).expect(201);
    await admin('post', '/v1/admin/applications', { name: 'stored', description: 'short' }).expect(201);
    // As written before the bounds existed (or into storage directly).
    const storedRoute = (await f.gateway.storage.get<{ config: { settings: { rate_limit: number } } }>('routes/stored'))!;
    storedRoute.config.settings.rate_limit = 1e308;
    await f.gateway.storage.set('routes/stored', storedRoute);
    const storedApp = (await f.gateway.storage.get<Record<string, unknown>>('applications/stored'))!;
    await f.gateway.storage.set('applications/stored', { ...storedApp, description: LONG_DESCRIPTION });

    const loadedRoute = await admin('get', '/v1/admin/routes/stored').expect(200);
    assert.equal(loadedRoute.body.config.settings.rate_limit, 1e308);
    assert.equal((await admin('get', '/v1/admin/applications/stored').expect(200)).body.description, LONG_DESCRIPTION);
    assert.equal((await chat('stored')).status, 200);
    assert.equal((await chat('stored')).status, 200);

    const routeUpdate = await admin('put', '/v1/admin/routes/stored', { enabled: true }).expect(400);
    assert.equal(routeUpdate.body.error.param, 'config.settings.rate_limit');
    const appUpdate = await admin('put', '/v1/admin/applications/stored', { enabled: true }).expect(400);
    assert.equal(appUpdate.body.error.param, 'description');
    // Refused updates changed nothing; bringing the field within its bound is accepted.
    assert.equal((await admin('get', '/v1/admin/routes/stored').expect(200)).body.config.settings.rate_limit, 1e308);
    await admin('put', '/v1/admin/routes/stored', { config: { settings: { rate_limit: 10 } } }).expect(200);
    await admin('put', '/v1/admin/applications/stored', { description: 'short again' }).expect(200);
    assert.equal((await chat('stored')).status, 200);
  });

  it('gateway-service validate refuses the same values, naming each field, and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-bounds-'));
    try {
      const file = join(dir, 'gateway.yaml');
      await writeFile(
        file,
        `routes:
  - name: fast
    config: { settings: { rate_limit: 1e308 } }
applications:
  - name: wordy
    description: ${LONG_DESCRIPTION}
`,
      );
      const failed = await run(process.execPath, ['--import', 'tsx', 'src/cli/gateway-service.ts', 'validate', file]).then(
        () => assert.fail('validate accepted the file'),
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(failed.code, 1);
      assert.ok(failed.stderr.includes(`${file}: The field 'routes[0].config.settings.rate_limit' must be <= ${MAX_ROUTE_RATE_LIMIT}`), failed.stderr);
      assert.ok(failed.stderr.includes(`${file}: The field 'applications[0].description' must NOT have more than ${MAX_DESCRIPTION_LENGTH} characters`), failed.stderr);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
