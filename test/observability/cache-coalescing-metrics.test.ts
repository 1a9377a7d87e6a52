// The miss-coalescing gauges: keys in flight and followers waiting, read by a Prometheus parser while a leader is held, and 0 once it answered.
import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import { coalescing, read, until, type Coalescing } from '../helpers/coalescing-fixture.js';
import { scrape } from '../helpers/prometheus-scrape.js';

describe('observability: response cache miss-coalescing gauges', function () {
  this.timeout(60_000);
  let c: Coalescing;
  let metrics: Express;
  afterEach(() => c.close());

  it('two held leaders with three and two followers read keys 2 and waiting 5; once they answer, both read 0', async () => {
    c = await coalescing({ metrics: { defaultMetrics: false } });
    metrics = express().use(c.f.gateway.metrics);
    const idle = await scrape(metrics);
    assert.equal(idle.families.find((family) => family.name === 'gateway_cache_coalescing_keys')?.type, 'GAUGE');
    assert.equal(idle.families.find((family) => family.name === 'gateway_cache_coalescing_waiting')?.type, 'GAUGE');
    assert.equal(idle.value('gateway_cache_coalescing_keys'), 0);
    assert.equal(idle.value('gateway_cache_coalescing_waiting'), 0);

    const releases = [c.holdNext('First'), c.holdNext('Second')];
    const leaders = [c.ask('First'), c.ask('Second')];
    await until(() => assert.equal(c.f.fake.requests.length, 2));
    const followers = [...[1, 2, 3].map(() => c.ask('First')), ...[1, 2].map(() => c.ask('Second'))];
    await c.followersIn(5, 2);
    const held = await scrape(metrics);
    assert.equal(held.value('gateway_cache_coalescing_keys'), 2);
    assert.equal(held.value('gateway_cache_coalescing_waiting'), 5);

    for (const release of releases) release();
    const answers = await Promise.all([...leaders, ...followers].map(read));
    assert.deepEqual(answers.map((answer) => answer.cache), ['miss', 'miss', 'hit', 'hit', 'hit', 'hit', 'hit']);
    // A follower is answered only after its leader settled (its answer stored) and its own wait ended: nothing is left.
    const done = await scrape(metrics);
    assert.equal(done.value('gateway_cache_coalescing_keys'), 0);
    assert.equal(done.value('gateway_cache_coalescing_waiting'), 0);
  });

  it('with coalescing off, both gauges are there and read 0', async () => {
    c = await coalescing({ metrics: { defaultMetrics: false }, cache: { coalescing: false } });
    const m = await scrape(express().use(c.f.gateway.metrics));
    assert.equal(m.samples('gateway_cache_coalescing_keys').length, 1);
    assert.equal(m.value('gateway_cache_coalescing_keys'), 0);
    assert.equal(m.samples('gateway_cache_coalescing_waiting').length, 1);
    assert.equal(m.value('gateway_cache_coalescing_waiting'), 0);
  });
});
