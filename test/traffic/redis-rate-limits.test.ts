// Issue 14: route rate limits shared by gateways on one real Redis, exact under concurrent bursts, and their behaviour while Redis is down.
import assert from 'node:assert/strict';
import request from 'supertest';
import type { RedisRouteRateLimits } from '../../src/traffic/redis-rate-limiter.js';
import { reservoirFor } from '../../src/traffic/route-rate-limits.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix, redisThroughCut } from '../helpers/redis-test.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import type { TcpCut } from '../helpers/tcp-cut.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import { uncheckedAdmissions } from '../helpers/unchecked-admissions.js';

/** The gateway's shared route rate limits (these fixtures have Redis). */
const limits = (f: TrafficFixture): RedisRouteRateLimits => f.gateway.rateLimits as RedisRouteRateLimits;

const send = (f: TrafficFixture, route: string) =>
  request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(chatBody());

async function addRoute(fixtures: TrafficFixture[], name: string, rate: number): Promise<void> {
  for (const f of fixtures) await f.create('/v1/admin/routes', { name, type: 'chat', config: { settings: { rate_limit: rate } }, models: [{ name: 'm', provider: 'fake' }] });
}

/** Polls the shared budget (no guessed sleep) until the route's window is empty again (a route not used yet has a fresh key). */
async function windowEmpty(f: TrafficFixture, route: string, amount: number): Promise<void> {
  const started = Date.now();
  while (((await f.gateway.rateLimits.remaining(route)) ?? amount) !== amount) {
    assert.ok(Date.now() - started < 10_000, 'the window emptied within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('14.3 Redis: route rate limits shared by two gateways', function () {
  this.timeout(60_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let a: TrafficFixture;
  let b: TrafficFixture;
  before(async () => {
    a = await createTrafficFixture({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix } });
    b = await createTrafficFixture({ redis: { url: TEST_REDIS_URL, keyPrefix: prefix } });
    await addRoute([a, b], 'shared5', 5);
    await addRoute([a, b], 'shared19', 1.9);
    await addRoute([a, b], 'free', 0);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await deleteKeys(prefix);
  });

  /**
   * Runs `bursts` concurrent bursts of `perGateway` requests to each gateway, each burst starting on an empty
   * window. Redis and this process share one clock, so every admission lies inside the burst's measured span:
   * with at most `amount` admissions in any `intervalMs`, a burst spanning L ms admits at most
   * amount × (floor(L / intervalMs) + 1), a bound no timing can break. A burst shorter than the interval
   * starting on an empty window admits exactly `amount`. Requests admitted unchecked (a stall of this process past the
   * Redis command timeout fails them open) are not counted against the budget; `admitted` counts what Redis checked.
   */
  async function bursts(route: string, rate: number, count: number, perGateway: number): Promise<{ admitted: number[]; spans: number[]; latencies: number[] }> {
    const { amount, intervalMs } = reservoirFor(rate);
    const admitted: number[] = [];
    const spans: number[] = [];
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      await windowEmpty(a, route, amount);
      const unchecked = uncheckedAdmissions([limits(a), limits(b)]);
      const started = performance.now();
      const answers = await Promise.all(
        [a, b].flatMap((f) =>
          Array.from({ length: perGateway }, async () => {
            const t0 = performance.now();
            const res = await send(f, route);
            latencies.push(performance.now() - t0);
            return res;
          }),
        ),
      );
      const span = performance.now() - started;
      const failedOpen = unchecked();
      const ok = answers.filter((r) => r.status === 200).length - failedOpen;
      assert.ok(answers.every((r) => r.status === 200 || r.status === 429), JSON.stringify(answers.map((r) => r.status)));
      assert.ok(ok <= amount * (Math.floor(span / intervalMs) + 1), `burst ${i}: ${ok} admitted (and ${failedOpen} unchecked) in ${span.toFixed(0)} ms`);
      if (span < intervalMs && failedOpen === 0) assert.equal(ok, amount, `burst ${i}: exactly the budget is admitted when the burst fits in one window`);
      const refused = answers.find((r) => r.status === 429);
      if (refused) assert.equal(refused.body.error.code, 'rate_limit_exceeded');
      admitted.push(ok);
      spans.push(span);
    }
    return { admitted, spans, latencies };
  }

  it('14.3: rate_limit 5, 9 concurrent bursts of 2×8 requests: at most 5 admitted per second across both gateways', async () => {
    const { admitted, spans, latencies } = await bursts('shared5', 5, 9, 8);
    latencies.sort((x, y) => x - y);
    console.log(`      admitted per burst ${admitted.join(',')}; burst spans ${spans.map((s) => s.toFixed(0)).join(',')} ms; latency p50 ${latencies[latencies.length >> 1].toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`);
    assert.ok(admitted.some((n) => n === 5), 'the budget is used, not refused wholesale');
  });

  it('14.3: fractional rate 1.9 (1 per 526 ms) is shared too: 6 bursts of 2×4 requests', async () => {
    const { admitted } = await bursts('shared19', 1.9, 6, 4);
    assert.ok(admitted.some((n) => n === 1));
  });

  it('14.3: sustained load for 3 s to both gateways admits at most 5 per second in total', async () => {
    await windowEmpty(a, 'shared5', 5);
    const unchecked = uncheckedAdmissions([limits(a), limits(b)]);
    const started = performance.now();
    let ok = 0;
    let sent = 0;
    const worker = async (f: TrafficFixture): Promise<void> => {
      while (performance.now() - started < 3000) {
        const res = await send(f, 'shared5');
        sent++;
        if (res.status === 200) ok++;
      }
    };
    await Promise.all([a, b, a, b, a, b].map(worker));
    const span = performance.now() - started;
    // Admitted unchecked when this process stalled past the Redis command timeout (a loaded machine): not the budget's.
    const failedOpen = unchecked();
    const checked = ok - failedOpen;
    console.log(`      sustained: ${sent} requests in ${span.toFixed(0)} ms, ${checked} admitted (and ${failedOpen} unchecked)`);
    assert.ok(checked <= 5 * (Math.floor(span / 1000) + 1), `${checked} admitted (and ${failedOpen} unchecked) in ${span.toFixed(0)} ms`);
    assert.ok(checked >= 5, 'at least the first window was used');
  });

  it('14.3: routes without a rate limit never touch the limiter', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? a : b, 'free')));
    assert.ok(answers.every((r) => r.status === 200));
  });

  it('14.3: changing a route forgets its limiter locally; the new rate applies at once across gateways', async () => {
    await addRoute([a, b], 'changing', 1);
    await send(a, 'changing').expect(200);
    await send(b, 'changing').expect(429);
    const before = a.gateway.rateLimits.size;
    for (const f of [a, b]) await request(f.app).put('/v1/admin/routes/changing').set('x-api-key', TEST_KEYS.admin).send({ config: { settings: { rate_limit: 4 } } }).expect(200);
    assert.equal(a.gateway.rateLimits.size, before - 1);
    await windowEmpty(a, 'changing', 4);
    const answers = await Promise.all([a, b, a, b, a, b].map((f) => send(f, 'changing')));
    assert.ok(answers.filter((r) => r.status === 200).length <= 4 * 2);
  });
});

describe('14.5 Redis down: rate limits fail open (default) or closed, never hang, and recover by themselves', function () {
  this.timeout(60_000);
  requireRedis();
  const prefix = testKeyPrefix();
  let relay: TcpCut;
  let open: TrafficFixture;
  let closed: TrafficFixture;
  const logs: LoggedLine[] = [];
  before(async () => {
    let url: string;
    ({ relay, url } = await redisThroughCut());
    open = await createTrafficFixture({ redis: { url, keyPrefix: prefix }, logger: capturingLogger(logs) });
    closed = await createTrafficFixture({ redis: { url, keyPrefix: prefix, rateLimitFailure: 'closed' } });
    await addRoute([open, closed], 'one', 1);
    await addRoute([open, closed], 'free', 0);
  });
  after(async () => {
    await relay?.restore();
    await open?.close();
    await closed?.close();
    await relay?.close();
    await deleteKeys(prefix);
  });

  const stats = (f: TrafficFixture) => (f.gateway.rateLimits as RedisRouteRateLimits).stats;

  /** Sends until `status` comes back, returning the ms it took; fails after 10 s. */
  async function until(f: TrafficFixture, route: string, status: number): Promise<number> {
    const started = performance.now();
    for (;;) {
      if ((await send(f, route)).status === status) return performance.now() - started;
      assert.ok(performance.now() - started < 10_000, `got ${status} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('14.5: with Redis cut, a rate-limited route answers at once (fail open, one warning), closed mode answers 503, model traffic goes on, and limits return when Redis is back', async () => {
    await windowEmpty(open, 'one', 1);
    await send(open, 'one').expect(200);
    await send(open, 'one').expect(429);

    await relay.cut();
    const started = performance.now();
    const during = await Promise.all(Array.from({ length: 10 }, () => send(open, 'one')));
    const failOpenMs = performance.now() - started;
    console.log(`      Redis cut: 10 requests answered in ${failOpenMs.toFixed(0)} ms`);
    assert.deepEqual(during.map((r) => r.status), Array(10).fill(200), 'fail open: every request admitted');
    assert.ok(failOpenMs < 3000, `answered without waiting for Redis (${failOpenMs.toFixed(0)} ms)`);
    assert.ok(stats(open).failedOpen >= 10);
    assert.equal(logs.filter((l) => l.level === 'warn' && /rate limits are unavailable/.test(l.message)).length, 1, 'one warning per outage');
    const refused = await send(closed, 'one');
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, 'rate_limiter_unavailable');
    await send(closed, 'free').expect(200);

    await relay.restore();
    const recoveredMs = await until(open, 'one', 429);
    console.log(`      Redis back: limits enforced again after ${recoveredMs.toFixed(0)} ms`);
    await until(closed, 'one', 429);
    assert.ok(logs.some((l) => l.level === 'info' && /work again/.test(l.message)));
  });

  it('14.5: with Redis hung (connection open, no answer), requests fail open after the command timeout, not later', async () => {
    relay.hang();
    const started = performance.now();
    const during = await Promise.all(Array.from({ length: 5 }, () => send(open, 'one')));
    const ms = performance.now() - started;
    console.log(`      Redis hung: 5 requests answered in ${ms.toFixed(0)} ms`);
    assert.deepEqual(during.map((r) => r.status), Array(5).fill(200));
    assert.ok(ms < 3000, `answered within the command timeout (${ms.toFixed(0)} ms)`);
    await relay.restore();
    await until(open, 'one', 429);
  });

  it('14.5: a gateway started while Redis is down serves rate-limited routes (fail open) and enforces them once Redis comes up', async () => {
    const { relay: late, url } = await redisThroughCut();
    await late.cut();
    const f = await createTrafficFixture({ redis: { url, keyPrefix: prefix } });
    try {
      await addRoute([f], 'late', 1);
      const started = performance.now();
      await send(f, 'late').expect(200);
      await send(f, 'late').expect(200);
      const ms = performance.now() - started;
      console.log(`      started without Redis: first requests answered in ${ms.toFixed(0)} ms`);
      assert.ok(ms < 1500, `a refused first connection is not waited for (${ms.toFixed(0)} ms)`);
      await late.restore();
      await until(f, 'late', 429);
    } finally {
      await f.close();
      await late.close();
    }
  });
});
