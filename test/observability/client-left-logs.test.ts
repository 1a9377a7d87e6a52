// A client that leaves before its answer writes no error line: its aborted attempt is not the provider's failure.
import assert from 'node:assert/strict';
import express from 'express';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import { eventually } from '../helpers/eventually.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** How long to wait for what the gateway does once the client has gone: long enough for a loaded machine. */
const SERVER_SIDE_MS = 15_000;
const eventuallyLoaded = <T>(check: () => T | Promise<T>): Promise<T> => eventually(check, SERVER_SIDE_MS);

describe('a client that leaves before its answer', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let server: LoopbackServer;
  let lines: LoggedLine[];
  let release: () => void;
  beforeEach(async () => {
    lines = [];
    f = await createTrafficFixture({ logger: capturingLogger(lines), logRequests: true, metrics: { defaultMetrics: false } });
    // Retries would try again after the abort if the proxy took it for a network failure: the route allows two.
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', config: { settings: { retries: 2 } }, models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    const held = new Promise<void>((resolve) => (release = resolve));
    f.fake.script({ hold: held });
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    release();
    server.close();
    await f.close();
  });

  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['POST /v1/chat/completions', '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }],
    ['POST /v1/chat/completions (stream)', '/v1/chat/completions', { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }],
    ['POST /v1/messages', '/v1/messages', { model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }],
  ];
  for (const [name, path, body] of cases) {
    it(`${name}: recorded as 499, one attempt, and no "request failed" line blaming the provider`, async () => {
      const abort = new AbortController();
      const sent = fetch(`${server.base}${path}`, {
        method: 'POST',
        signal: abort.signal,
        headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' },
        body: JSON.stringify(body),
      }).catch(() => undefined);
      await eventuallyLoaded(() => assert.equal(f.fake.requests.length, 1, 'the provider holds the request'));
      abort.abort();
      await sent;
      // The attempt is counted as it ends, before the request's error (if any) goes to the error middleware.
      await scrapeUntil(express().use(f.gateway.metrics), (m) => assert.equal(m.value('gateway_upstream_attempts_total', { cause: 'aborted' }), 1));
      const entry = await eventuallyLoaded(async () => {
        const res = await fetch(`${server.base}/v1/admin/applications/app/chronicles`, { headers: { 'x-api-key': TEST_KEYS.viewer } });
        const [found] = ((await res.json()) as { data: Array<{ status: number; attempts: unknown[] }> }).data;
        assert.ok(found);
        return found;
      });
      assert.equal(entry.status, 499);
      assert.equal(entry.attempts.length, 1, 'the gateway did not try again for a client that left');
      assert.equal(f.fake.requests.length, 1);
      const request = lines.find((line) => line.message === 'request' && line.fields?.path === path);
      assert.equal(request?.fields?.status, 499);
      assert.deepEqual(lines.filter((line) => line.level === 'error'), [], 'no error line for a client that left');
    });
  }
});
