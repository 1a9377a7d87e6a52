// A 200 answer that is not JSON is never relayed as JSON: 502 upstream_invalid_response, or the fallback's answer.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback } from '../helpers/loopback-server.js';

/** An OpenAI-compatible upstream that answers 200 with an HTML page. */
async function startHtmlUpstream(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome to the captive portal</body></html>');
    });
  });
  const listening = await listenRawOnLoopback(server);
  return { ...listening, hits: () => hits };
}

describe('upstream answers that are not JSON', () => {
  let f: TrafficFixture;
  let html: Awaited<ReturnType<typeof startHtmlUpstream>>;
  before(async () => {
    f = await createTrafficFixture();
    html = await startHtmlUpstream();
    await f.create('/v1/admin/providers', { name: 'portal', type: 'openai', config: { api_base: `${html.url}/v1` }, api_keys: [{ api_key: 'sk-portal-key-00001' }] });
    await f.create('/v1/admin/routes', { name: 'html', type: 'chat', config: { settings: { retries: 0 } }, models: [{ name: 'm', provider: 'portal' }] });
    await f.create('/v1/admin/routes', {
      name: 'html-then-fake',
      type: 'chat',
      config: { settings: { retries: 0 } },
      models: [
        { name: 'm', provider: 'portal', weight: 1, fallback_enabled: true, fallback_codes: [502] },
        { name: 'gpt-4o-mini', provider: 'fake', weight: 0 },
      ],
    });
  });
  after(async () => {
    await f.close();
    await html.close();
  });

  const chat = (route: string) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(chatBody());

  it('11.9: a 200 HTML answer is 502 upstream_invalid_response, not 200 application/json', async () => {
    const res = await chat('html').expect(502);
    assert.equal(res.body.error.code, 'upstream_invalid_response');
    assert.ok(!res.text.includes('captive portal'), 'the upstream body is not echoed');
  });

  it('11.9: it counts as a 502 for fallback: a model with fallback on 502 moves to the next one', async () => {
    const res = await chat('html-then-fake').expect(200);
    assert.equal(res.body.choices[0].message.content, 'Hello from the fake provider.');
    assert.equal(res.headers['x-gateway-model'], 'gpt-4o-mini');
  });
});
