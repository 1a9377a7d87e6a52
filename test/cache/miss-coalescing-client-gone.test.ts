// A cache miss whose client left before it reached the cache step (during a check, or while its route was read) takes no lead: identical requests after it are not held waiting for an answer nobody asks for.
import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import { defineGuardrail } from '../../src/index.js';
import { holdingStorage } from '../helpers/holding-storage.js';
import { coalescing, read, until, type Coalescing } from '../helpers/coalescing-fixture.js';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

/** An input check that holds each request until the test opens it, and says when one is held. */
function gate(): { plugin: ReturnType<typeof defineGuardrail>; held: Promise<void>; open(): void } {
  let heldNow!: () => void;
  let open!: () => void;
  const held = new Promise<void>((resolve) => (heldNow = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  const plugin = defineGuardrail({
    name: 'gate',
    defaultThreshold: 0.5,
    async evaluate() {
      heldNow();
      await opened;
      return { results: {}, flagged: false };
    },
  });
  return { plugin, held, open };
}

describe('response cache: a miss whose client is gone before the cache step', function () {
  this.timeout(30_000);
  let c: Coalescing;
  let g: ReturnType<typeof gate>;
  let hold: ReturnType<typeof holdingStorage>;
  beforeEach(async () => {
    g = gate();
    hold = holdingStorage();
    c = await coalescing({ plugins: [g.plugin], metrics: { defaultMetrics: false }, storage: hold.adapter });
    await request(c.f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'inspect', processors: { gate: {} } }).expect(200);
  });
  afterEach(async () => {
    g.open();
    await c.close();
  });

  it('leads no key, calls no provider, and the next identical request is answered at once', async () => {
    const abort = new AbortController();
    const gone = c.ask('Gone', { signal: abort.signal }).catch((error: Error) => error);
    await g.held;
    abort.abort();
    assert.ok((await gone) instanceof Error);
    // The request goes on once its check ends: the cache step, then the provider, whose attempt ends at once.
    // Its Chronicles entry (written at the close) says the gateway has seen the client go.
    await until(async () => {
      const list = await request(c.f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.equal(list.body.data[0]?.status, 499);
    });
    g.open();
    await scrapeUntil(express().use(c.f.gateway.metrics), (m) => assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'aborted' }), 1));
    assert.equal(c.coalescer().keys, 0, 'no key is left in flight for the request that left');
    assert.equal(c.f.fake.requests.length, 0);
    // Not a follower of the request that left (which would wait the whole route timeout): a miss that goes upstream.
    const next = await read(c.ask('Gone'));
    assert.equal(next.status, 200);
    assert.equal(next.cache, 'miss');
    assert.equal(next.body.choices[0]!.message.content, 'Fresh.');
    assert.equal(c.f.fake.requests.length, 1);
    await until(() => assert.equal(c.coalescer().keys, 0));
  });

  it('also when it left while its route was read from storage: no lead, no provider call', async () => {
    // A route written just now is read from storage by the next request that names it; the read is held.
    await c.f.create('/v1/admin/routes', { name: 'fresh', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { settings: { retries: 0 }, cache: { ttl_seconds: 60 } } });
    g.open();
    const read = hold.arm('routes/fresh');
    const abort = new AbortController();
    const gone = c.ask('Gone', { signal: abort.signal, headers: { 'x-gateway-route': 'fresh' } }).catch((error: Error) => error);
    await read.reached;
    abort.abort();
    assert.ok((await gone) instanceof Error);
    await until(async () => {
      const list = await request(c.f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
      assert.equal(list.body.data[0]?.status, 499);
    });
    read.release();
    const m = await scrapeUntil(express().use(c.f.gateway.metrics), (scraped) => assert.equal(scraped.value('gateway_upstream_attempts_total'), 1));
    assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'aborted' }), 1, 'the attempt for the client that left ended at once');
    assert.equal(c.coalescer().keys, 0);
    assert.equal(c.f.fake.requests.length, 0);
  });
});
