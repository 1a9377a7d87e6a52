// An audio answer the provider breaks off mid-way is the provider's failure (its status and a stream error), not the client leaving (499), in Chronicles and metrics.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import express, { type Express } from 'express';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** A speech endpoint that sends the audio's headers and first bytes, then drops the connection. */
function startBreakingSpeech(): Promise<RawLoopbackServer> {
  return listenRawOnLoopback(
    createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        res.write(Buffer.alloc(4096, 7));
        setTimeout(() => res.socket?.destroy(), 30);
      });
    }),
  );
}

describe('a raw-relayed answer the provider breaks off', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let loopback: LoopbackServer;
  let metrics: Express;
  beforeEach(async () => {
    f = await createTrafficFixture({ metrics: { defaultMetrics: false } });
    metrics = express().use(f.gateway.metrics);
    upstream = await startBreakingSpeech();
    await f.create('/v1/admin/providers', { name: 'voice', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['tts-broken'] } });
    loopback = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    loopback.close();
    await f.close();
    await upstream.close();
  });

  it('is recorded with the status it was sent with and its stream error, not as the client leaving (499)', async () => {
    const response = await fetch(`${loopback.base}/v1/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.developerKey}` },
      body: JSON.stringify({ model: 'voice/tts-broken', input: 'Hello there.', voice: 'alloy' }),
    });
    assert.equal(response.status, 200);
    await assert.rejects(response.arrayBuffer(), 'the client sees the answer break off');
    const entry = await eventually(async () => {
      const [found] = (await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data;
      assert.ok(found, 'the entry is recorded');
      return found as { status: number; error: { code: string; type: string } | null };
    });
    assert.equal(entry.status, 200);
    assert.equal(entry.error?.code, 'stream_error');
    assert.equal(entry.error?.type, 'upstream_error');
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.value('gateway_requests_total'), 1));
    assert.equal(m.value('gateway_requests_total', { status: '499' }), 0, 'not counted as the client leaving');
  });
});
