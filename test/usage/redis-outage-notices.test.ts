// With Redis cut and restored, caller limits and budget spend fall back to the process and tell each outage once: one warning, then one line when Redis answers again.
import assert from 'node:assert/strict';
import { deleteKeys, requireRedis, testKeyPrefix, redisThroughCut } from '../helpers/redis-test.js';
import type { TcpCut } from '../helpers/tcp-cut.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';

describe('14.5 Redis down: caller limits and budget spend tell each outage once', function () {
  this.timeout(30_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let relay: TcpCut;
  let f: TrafficFixture;
  const lines: LoggedLine[] = [];
  const logger = capturingLogger(lines);
  before(async () => {
    let url: string;
    ({ relay, url } = await redisThroughCut());
    f = await createTrafficFixture({ redis: { url, keyPrefix: prefix, maxReconnectDelayMs: 50 }, logger });
    await oneDollarPerAnswer(f);
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 100, period: 'day' }, limits: { requests_per_minute: 100 } }).expect(200);
  });
  after(async () => {
    await relay?.restore();
    await f?.close();
    await relay?.close();
    await deleteKeys(prefix);
  });

  const named = (level: string, pattern: RegExp) => lines.filter((line) => line.level === level && pattern.test(line.message));

  it('14.5: three requests during an outage log one warning per feature (with the error), requests go on, and one line each when Redis answers again', async () => {
    await chat(f).expect(200);
    await metered(f, 1);
    await relay.cut();
    for (let i = 0; i < 3; i++) await chat(f).expect(200);
    await metered(f, 4);
    const limitsDown = named('warn', /^shared key and application limits are unavailable \(Redis\); this process limits on its own until Redis answers$/);
    const spendDown = named('warn', /^shared budget spend is unavailable \(Redis\); this process counts on its own until Redis answers$/);
    assert.equal(limitsDown.length, 1, JSON.stringify(lines));
    assert.equal(spendDown.length, 1, JSON.stringify(lines));
    assert.equal(typeof limitsDown[0]!.fields?.error, 'string');
    assert.equal(typeof spendDown[0]!.fields?.error, 'string');

    await relay.restore();
    const started = Date.now();
    while (named('info', /^shared (key and application limits|budget spend) works? again: Redis answers$/).length < 2) {
      assert.ok(Date.now() - started < 10_000, `both features told their recovery within 10 s: ${JSON.stringify(lines)}`);
      await chat(f).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(named('info', /^shared key and application limits work again: Redis answers$/).length, 1);
    assert.equal(named('info', /^shared budget spend works again: Redis answers$/).length, 1);
  });
});
