// A client that leaves while the provider is answering does not make the request free: its prompt is estimated and spent.
import assert from 'node:assert/strict';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, metered, oneDollarPerAnswer } from './usage-helpers.js';

describe('usage of requests whose client left before any answer', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let server: LoopbackServer;
  beforeEach(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await oneDollarPerAnswer(f);
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 100, period: 'day' } }).expect(200);
    server = await listenOnLoopback(f.app);
  });
  afterEach(async () => {
    server.close();
    await f.close();
  });

  /** Sends a request with a 400-character prompt and leaves once the provider has received it, before it answers. */
  async function leaveWhileAnswering(stream: boolean): Promise<void> {
    f.fake.script({ delayMs: 3000 });
    const abort = new AbortController();
    const sent = fetch(`${server.base}/v1/chat/completions`, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(400) }], stream }),
    }).catch(() => undefined);
    while (f.fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    abort.abort();
    await sent;
    await metered(f, 1);
  }

  for (const stream of [false, true]) {
    it(`${stream ? 'a stream before its first event' : 'a JSON request'}: the prompt is estimated, priced and spent`, async () => {
      await leaveWhileAnswering(stream);
      const [entry] = (await admin(f, 'get', '/v1/admin/applications/app/chronicles').expect(200)).body.data;
      assert.equal(entry.status, 499);
      assert.deepEqual(entry.usage, { prompt_tokens: 100, completion_tokens: 0, total_tokens: 100, estimated: true });
      assert.equal(entry.cost.usd, 5, '100 prompt tokens at 50,000 USD per million');
      const [budget] = (await admin(f, 'get', '/v1/admin/budgets').expect(200)).body.data;
      assert.equal(budget.spent_usd, 5);
    });
  }

  it('a request refused before any provider is called has no usage', async () => {
    await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 1 } }).expect(200);
    await fetch(`${server.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    await metered(f, 1);
    const refused = await fetch(`${server.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(400) }] }),
    });
    assert.equal(refused.status, 429);
    await metered(f, 2);
    const [entry] = (await admin(f, 'get', '/v1/admin/applications/app/chronicles').expect(200)).body.data;
    assert.equal(entry.usage, null, 'a refused request has no usage');
  });
});
