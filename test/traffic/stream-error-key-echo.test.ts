// A provider that echoes its key in a stream's error event (or in an event that is not JSON) never passes the key on.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback } from '../helpers/loopback-server.js';

const KEY = 'AIzaEchoedProviderKey0123456789';

/** An upstream that starts a stream in its format, then fails it with an event echoing the key it was sent. */
async function startEchoingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const key = url.searchParams.get('key') ?? String(req.headers['x-api-key'] ?? '');
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (data: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
      if (url.pathname.includes(':streamGenerateContent')) {
        if (url.pathname.includes('not-json')) res.end(event(`upstream says: bad key ${key}`));
        else res.end(event({ error: { code: 401, message: `API key ${key} not valid (${Buffer.from(key).toString('base64')})` } }));
      } else {
        res.write(event({ type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 1 } } }, 'message_start'));
        res.end(event({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${key.toUpperCase()}` } }, 'error'));
      }
    });
  });
  return listenRawOnLoopback(server);
}

function assertNoKey(text: string): void {
  assert.ok(!text.toLowerCase().includes(KEY.toLowerCase()), `the key is not in ${text}`);
  assert.ok(!text.includes(Buffer.from(KEY).toString('base64').slice(0, 24)), 'nor its base64');
}

describe('provider keys echoed in stream errors', () => {
  let f: TrafficFixture;
  let upstream: Awaited<ReturnType<typeof startEchoingUpstream>>;
  before(async () => {
    f = await createTrafficFixture();
    upstream = await startEchoingUpstream();
    await f.create('/v1/admin/providers', { name: 'gem', type: 'gemini', config: { api_base: upstream.url, models: ['gemini-x', 'not-json'] }, api_keys: [{ api_key: KEY, query_param_key: 'key' }] });
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: upstream.url, models: ['claude-x'] }, api_keys: [{ api_key: KEY }] });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  const stream = (model: string) => request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model, stream: true }));

  it('masks the key in the error a Gemini stream error becomes (a 502 when it is the first event, as here)', async () => {
    const res = await stream('gemini-x');
    assert.equal(res.status, 502);
    assert.equal(res.body.error.code, 'upstream_stream_error');
    assertNoKey(res.text);
  });

  it('masks the key in the excerpt of a stream event that is not JSON', async () => {
    const res = await stream('not-json');
    assert.match(res.text, /upstream_invalid_response|not JSON/);
    assertNoKey(res.text);
  });

  it('masks the key, in any letter case, in an Anthropic stream error, on chat completions and on /v1/messages', async () => {
    const chat = await stream('claude-x');
    assert.match(chat.text, /upstream_stream_error/);
    assertNoKey(chat.text);
    const messages = await request(f.app)
      .post('/v1/messages')
      .set('x-api-key', f.developerKey)
      .send({ model: 'claude-x', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Hello' }] });
    // An error event in the first chunk read is a 502 in Anthropic's shape; after it, the stream's error event.
    assert.match(messages.text, /event: error|"type":"error"/);
    assertNoKey(messages.text);
  });
});
