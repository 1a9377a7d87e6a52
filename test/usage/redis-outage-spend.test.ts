// Spend made while a replica could not reach Redis is added to the shared spend once Redis answers, so every replica's budget check counts it.
import assert from 'node:assert/strict';
import { sharedReplicaOptions } from '../helpers/shared-replica-options.js';
import { eventually } from '../helpers/eventually.js';
import { redisThroughCut } from '../helpers/redis-test.js';
import type { TcpCut } from '../helpers/tcp-cut.js';
import { createTestGateway, type TestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

describe('budget spend made during a Redis outage reaches the shared spend', function () {
  this.timeout(30_000);
  let relay: TcpCut;
  let a: TrafficFixture;
  let replicaB: TestGateway;
  // Before the schema and key prefix are removed (the after hook of sharedReplicaOptions, declared below).
  after(async () => {
    await relay?.restore();
    await replicaB?.close();
    await a?.close();
    await relay?.close();
  });
  const { options } = sharedReplicaOptions({ secret: 'outage-spend-secret-0123456789' });
  before(async () => {
    let url: string;
    ({ relay, url } = await redisThroughCut());
    // Replica A reaches Redis through a relay the test cuts; replica B reaches it directly.
    const base = options();
    a = await createTrafficFixture({ ...base, redis: { ...base.redis!, url, maxReconnectDelayMs: 50 } });
    replicaB = await createTestGateway(options());
  });

  it('a replica cut from Redis spends 2 USD; once Redis is back, the other replica counts them and refuses at the budget', async () => {
    await oneDollarPerAnswer(a);
    await a.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(a, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 4, period: 'day' } }).expect(200);
    const b = { ...a, ...replicaB } as TrafficFixture;
    await chat(a).expect(200);
    await metered(a, 1);
    await chat(b).expect(200);
    await metered(b, 1);

    await relay.cut();
    // A counts on its own (1 USD of its own, 3 after these): both are admitted, and the application has spent 4 USD.
    await chat(a).expect(200);
    await chat(a).expect(200);
    await metered(a, 3);
    await relay.restore();

    const spentOnB = async () => (await admin(b, 'get', '/v1/admin/budgets').expect(200)).body.data[0].spent_usd as number;
    await eventually(async () => assert.equal(await spentOnB(), 4, 'the 2 USD spent through A during the outage reached the shared spend'), 10_000);
    assert.equal((await chat(b).expect(429)).body.error.code, 'budget_exceeded');
    // Nothing counted twice: A's own later checks read the same 4 USD.
    assert.equal((await chat(a).expect(429)).body.error.code, 'budget_exceeded');
    assert.equal(await spentOnB(), 4);
  });
});
