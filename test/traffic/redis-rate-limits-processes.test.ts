// Issue 14: two example-server processes on one PostgreSQL schema and one Redis share a route's rate limit under concurrent bursts.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { deleteKeys, rateWindowEmpty, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { startExampleServer } from '../helpers/example-server-process.js';
import { rateBursts } from '../helpers/rate-bursts.js';

const ADMIN_KEY = 'redis-processes-admin-key-0123456789';

const startServer = (env: Record<string, string>) => startExampleServer({ GATEWAY_DATA_DIR: '/nonexistent/never-used', ...env });

describe('14.3 Redis: two example-server processes share a route rate limit', function () {
  this.timeout(90_000);
  requirePostgres();
  requireRedis();
  const schema = testSchemaName();
  const route = `burst-${randomBytes(6).toString('hex')}`;
  // Its own key prefix: other test runs on this Redis use the default one.
  const keyPrefix = testKeyPrefix();
  const servers: Array<{ child: ChildProcess; base: string; output: () => string }> = [];
  let fake: FakeProvider;
  let developerKey: string;
  before(async () => {
    fake = await startFakeProvider();
    const env = { GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATABASE_URL: TEST_DATABASE_URL, GATEWAY_DATABASE_SCHEMA: schema, GATEWAY_SECRET: 'redis-processes-secret', GATEWAY_REDIS_URL: TEST_REDIS_URL, GATEWAY_REDIS_KEY_PREFIX: keyPrefix };
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
    const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${servers[0]!.base}${path}`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(res.status, 201, await res.clone().text());
      return (await res.json()) as Record<string, unknown>;
    };
    await admin('/v1/admin/providers', { name: 'fake', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['gpt-4o-mini'] }, api_keys: [{ api_key: 'sk-stored-provider-key-0001' }] });
    await admin('/v1/admin/routes', { name: route, type: 'chat', config: { settings: { rate_limit: 10 } }, models: [{ name: 'm', provider: 'fake' }] });
    await admin('/v1/admin/applications', { name: 'app' });
    developerKey = (await admin('/v1/admin/applications/app/keys', {})).key as string;
  });
  after(async () => {
    for (const { child } of servers) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await fake?.close();
    await dropSchema(schema);
    await deleteKeys(keyPrefix);
  });

  it('14.3: rate_limit 10, 5 concurrent bursts of 2×15 requests to two processes: at most 10 admitted per second in total', async () => {
    assert.match(servers[0]!.output(), /"redis":true/);
    const send = (base: string) =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'x-gateway-apikey': developerKey, 'x-gateway-route': route, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
      }).then(async (res) => (await res.arrayBuffer(), res.status));
    // Both processes know the route before the bursts (the first read of a route goes to PostgreSQL).
    for (const { base } of servers) assert.ok([200, 429].includes(await send(base)));
    // A Redis command that times out on a loaded machine admits unchecked, with a warning (the documented fail-open mode).
    const uncheckedWarnings = (): number => servers.reduce((sum, server) => sum + server.output().split('admitted unchecked').length - 1, 0);
    const admitted = await rateBursts(5, 10, () => rateWindowEmpty(keyPrefix, route, 1000), () => Promise.all(servers.flatMap(({ base }) => Array.from({ length: 15 }, () => send(base)))), uncheckedWarnings);
    console.log(`      admitted per burst across two processes: ${admitted.join(',')}`);
  });
});
