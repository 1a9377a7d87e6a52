// POST /v1/messages through Anthropic's official SDK over upstreams scripted event by event: how streams end, stop sequences, cache usage and tool results.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Answer = (res: ServerResponse, body: Record<string, unknown>) => void;

const sse = (events: Array<Record<string, unknown> | string>): string =>
  events.map((data) => (typeof data === 'string' ? `data: ${data}\n\n` : `${typeof data.type === 'string' && !('object' in data) ? `event: ${data.type}\n` : ''}data: ${JSON.stringify(data)}\n\n`)).join('');
const sendSse = (res: ServerResponse, events: Array<Record<string, unknown> | string>): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(sse(events));
};
const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

describe('POST /v1/messages: protocol fidelity over scripted upstreams', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let answer: Answer;
  let sent: Record<string, unknown>;
  const client = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const hi = { model: 'any', max_tokens: 32, messages: [{ role: 'user' as const, content: 'Hi' }] };

  before(async () => {
    upstream = await listenRawOnLoopback(createServer(async (req, res) => {
      const parts: Buffer[] = [];
      for await (const part of req) parts.push(part as Buffer);
      sent = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      answer(res, sent);
    }));
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${upstream.url}/v1` }, api_keys: [{ api_key: 'sk-oai-provider-key-000001' }] });
    await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: upstream.url }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'via-openai', type: 'chat', models: [{ name: 'gpt-x', provider: 'oai' }] });
    await f.create('/v1/admin/routes', { name: 'via-anthropic', type: 'chat', models: [{ name: 'claude-x', provider: 'claude' }] });
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });

  it('an upstream stream that reports an error mid-way ends in an Anthropic error event, not a finished message', async () => {
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: 'Hel' }), { error: { message: 'The server had an error while processing your request.', type: 'server_error' } }]);
    const stream = client('via-openai').messages.stream(hi);
    let text = '';
    stream.on('text', (delta) => (text += delta));
    await assert.rejects(stream.finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.match(error.message, /api_error/);
      assert.match(error.message, /The server had an error while processing your request/);
      return true;
    });
    assert.equal(text, 'Hel', 'the text before the error is delivered');
  });

  it('an upstream stream that ends with neither a finish reason nor [DONE] ends in an error event, not end_turn', async () => {
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: 'Hel' }), chunk({ content: 'lo' })]);
    await assert.rejects(client('via-openai').messages.stream(hi).finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.match(error.message, /the stream ended before its finish reason/);
      return true;
    });
    // A stream that ends with [DONE] but without a finish reason is whole.
    answer = (res) => sendSse(res, [chunk({ role: 'assistant', content: 'Hello' }), '[DONE]']);
    const message = await client('via-openai').messages.stream(hi).finalMessage();
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello' }]);
    assert.equal(message.stop_reason, 'end_turn');
  });
});
