// gen_ai_client_token_usage counts the usage the gateway estimates for answers that reported none, as Chronicles, usage totals and budgets count it.
import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import { scrapeUntil, type Scrape } from '../helpers/prometheus-scrape.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, metered } from '../usage/usage-helpers.js';

/** A 400-character prompt: 100 estimated prompt tokens (one per 4 characters). */
const PROMPT = 'x'.repeat(400);
const SERIES = { gen_ai_request_model: 'gpt-4o-mini' };

describe('observability: estimated usage in the token metric', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let metrics: Express;
  let server: LoopbackServer;
  beforeEach(async () => {
    f = await createTrafficFixture({ metrics: { defaultMetrics: false } });
    metrics = express().use(f.gateway.metrics);
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  const send = (stream: boolean, signal?: AbortSignal) =>
    fetch(`${server.base}/v1/chat/completions`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }], stream }),
    });

  /** The request's Chronicle entry, once metered, and a scrape that has its token observations. */
  async function entryAndScrape(): Promise<{ entry: { status: number; usage: Record<string, unknown> }; m: Scrape }> {
    await metered(f, 1);
    const [entry] = (await admin(f, 'get', '/v1/admin/applications/app/chronicles').expect(200)).body.data;
    const m = await scrapeUntil(metrics, (m) => assert.equal(m.count('gen_ai_client_token_usage', { ...SERIES, gen_ai_token_type: 'input' }), 1));
    return { entry, m };
  }

  /** The metric's input and output token sums equal the entry's (estimated) usage. */
  function assertAgree(m: Scrape, usage: Record<string, unknown>): void {
    assert.equal(usage.estimated, true);
    assert.equal(m.sum('gen_ai_client_token_usage', { ...SERIES, gen_ai_token_type: 'input' }), usage.prompt_tokens);
    assert.equal(m.sum('gen_ai_client_token_usage', { ...SERIES, gen_ai_token_type: 'output' }), usage.completion_tokens);
    assert.equal(m.count('gen_ai_client_token_usage', { ...SERIES, gen_ai_token_type: 'output' }), 1);
  }

  it('a stream the upstream broke off before its usage chunk: its estimated tokens are observed', async () => {
    f.fake.script({ text: 'abcdefgh'.repeat(5), chunks: 4, failAfterChunks: 2 });
    await (await send(true)).text();
    const { entry, m } = await entryAndScrape();
    assert.equal(entry.usage.prompt_tokens, 100);
    assert.ok((entry.usage.completion_tokens as number) > 0, 'the text relayed before the break is estimated');
    assertAgree(m, entry.usage);
  });

  it('a client that left mid-stream: its estimated tokens are observed', async () => {
    // The content chunks wait long after the stream's first event, which the client reads before it leaves.
    f.fake.script({ chunks: 3, chunkDelayMs: 5000 });
    const abort = new AbortController();
    const res = await send(true, abort.signal);
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /^data: /);
    abort.abort();
    await reader.read().catch(() => undefined);
    const { entry, m } = await entryAndScrape();
    assert.equal(entry.status, 499);
    assert.equal(m.value('gateway_requests_total', { status: '499' }), 1);
    assert.equal(entry.usage.prompt_tokens, 100);
    assertAgree(m, entry.usage);
  });

  it('a client that left while the provider was answering a JSON request: its estimated prompt is observed', async () => {
    f.fake.script({ delayMs: 5000 });
    const abort = new AbortController();
    const sent = send(false, abort.signal).catch(() => undefined);
    while (f.fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    abort.abort();
    await sent;
    const { entry, m } = await entryAndScrape();
    assert.equal(entry.status, 499);
    assert.deepEqual(entry.usage, { prompt_tokens: 100, completion_tokens: 0, total_tokens: 100, estimated: true });
    assertAgree(m, entry.usage);
  });
});
