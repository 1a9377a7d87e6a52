// A replica closed while a model request is in flight answers it, and its Chronicles entry, usage totals and budget spend reach the shared storage; later requests are refused, not served unlogged.
import assert from 'node:assert/strict';
import { eventually } from '../helpers/eventually.js';
import { sharedReplicaOptions } from '../helpers/shared-replica-options.js';
import { createTestGateway, type TestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, oneDollarPerAnswer } from './usage-helpers.js';

describe('gateway.close() with a model request in flight (replicas on PostgreSQL and Redis)', function () {
  this.timeout(30_000);
  let a: TrafficFixture;
  let replicaB: TestGateway;
  let release: () => void = () => undefined;
  // Before the schema and key prefix are removed (the after hook of sharedReplicaOptions, declared below).
  after(async () => {
    release();
    await replicaB?.close();
    await a?.close();
  });
  const { options } = sharedReplicaOptions({ secret: 'close-in-flight-secret-0123456789' });
  before(async () => {
    a = await createTrafficFixture(options());
    replicaB = await createTestGateway(options());
  });

  it('the answer in flight when close() is called is logged, counted and spent; a request after the last flush is 503 not_ready', async () => {
    await oneDollarPerAnswer(a);
    await a.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(a, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 100, period: 'day' } }).expect(200);
    const b = { ...a, ...replicaB } as TrafficFixture;

    a.fake.script({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const answer = chat(a).then((res) => res);
    await eventually(() => assert.equal(a.fake.requests.length, 1, 'the request reached the provider'), 10_000);
    const closing = a.gateway.close();
    release();
    const res = await answer;
    assert.equal(res.status, 200);
    const id = res.headers['x-gateway-request-id'] as string;
    await closing;

    // Read through the other replica: the closed one wrote everything before it stopped.
    const entry = await admin(b, 'get', `/v1/admin/applications/app/chronicles/${id}`);
    assert.equal(entry.status, 200, 'the entry of the answer in flight is in Chronicles');
    assert.equal(entry.body.status, 200);
    const usage = (await admin(b, 'get', '/v1/admin/usage').expect(200)).body.data as Array<{ application: string; requests: number; cost_usd: number }>;
    assert.deepEqual(
      usage.filter((row) => row.application === 'app').map((row) => [row.requests, row.cost_usd]),
      [[1, 1]],
      'the request is in the usage totals',
    );
    const budgets = (await admin(b, 'get', '/v1/admin/budgets').expect(200)).body.data as Array<{ spent_usd: number }>;
    assert.equal(budgets[0]?.spent_usd, 1, 'its spend is in the shared budget');

    // The closed gateway serves nothing it could no longer log or count.
    const late = await chat(a);
    assert.equal(late.status, 503);
    assert.equal(late.body.error.code, 'not_ready');
    assert.match(late.body.error.message, /stopping/);
    assert.equal(a.fake.requests.length, 1, 'no provider call after close');
  });
});
