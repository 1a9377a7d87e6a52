// Headers at the boundary: no client header but the gateway's own reaches a provider, and no provider header but the content type reaches the client.
import assert from 'node:assert/strict';
import request from 'supertest';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const KEY = 'sk-header-boundary-key-0123456789';
/** What a browser, a proxy in front or a hostile client may add to a request. */
const CLIENT_HEADERS = {
  cookie: 'session=client-cookie-value',
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-host': 'evil.example',
  forwarded: 'for=203.0.113.9;host=evil.example',
  'x-real-ip': '203.0.113.9',
  origin: 'https://evil.example',
  referer: 'https://evil.example/page',
  'openai-organization': 'org-client-chosen',
  'openai-project': 'proj-client-chosen',
  'x-custom-header': 'client-custom-value',
  baggage: 'user=client-baggage-value',
};
/** What a provider (or something in front of it) may answer with, the key echoed among them. */
const UPSTREAM_HEADERS = {
  'set-cookie': 'provider_session=upstream-cookie-value; Path=/',
  'x-echoed-authorization': `Bearer ${KEY}`,
  'openai-organization': 'org-provider-account',
  'www-authenticate': 'Bearer realm="provider"',
  'x-request-id': 'req_provider_internal',
  location: 'https://internal.example/',
};

describe('headers at the boundary between clients and providers', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let received: Record<string, string | string[] | undefined> = {};
  let fail = false;
  before(async () => {
    upstream = await listenJsonUpstream((res, body, req) => {
      received = req.headers;
      if (fail) {
        res.writeHead(401, { ...UPSTREAM_HEADERS, 'content-type': 'application/json' });
        res.end('{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}');
      } else if (body.stream === true) {
        res.writeHead(200, { ...UPSTREAM_HEADERS, 'content-type': 'text/event-stream' });
        res.end('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
      } else {
        res.writeHead(200, { ...UPSTREAM_HEADERS, 'content-type': 'application/json' });
        res.end('{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}');
      }
    });
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'hdr', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['hdr-model'] }, api_keys: [{ api_key: KEY }] });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  const chat = (extra: Record<string, unknown> = {}) =>
    request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).set(CLIENT_HEADERS).set('host', 'evil.example').send(chatBody({ model: 'hdr-model', ...extra }));

  it('sends the provider none of the client headers, and the stored key as its only credential', async () => {
    fail = false;
    await chat().expect(200);
    for (const name of Object.keys(CLIENT_HEADERS)) assert.equal(received[name], undefined, name);
    assert.ok(!JSON.stringify(received).includes('client'), JSON.stringify(received));
    assert.equal(received.authorization, `Bearer ${KEY}`);
    assert.equal(received.host, new URL(upstream.url).host, "the provider's own host, not the client's");
  });

  for (const [name, extra, status] of [['a JSON answer', {}, 200], ['a stream', { stream: true }, 200], ['an error', {}, 401]] as const) {
    it(`answers the client none of the provider headers, on ${name}`, async () => {
      fail = status === 401;
      const res = await chat(extra).expect(status);
      for (const header of Object.keys(UPSTREAM_HEADERS)) {
        if (header === 'x-request-id') assert.notEqual(res.headers[header], UPSTREAM_HEADERS[header], header);
        else assert.equal(res.headers[header], undefined, header);
      }
      assert.ok(!JSON.stringify(res.headers).includes(KEY));
    });
  }
});
