// Gemini answers that end with a finish reason saying the model failed (MALFORMED_FUNCTION_CALL, …) are 502s that fall back, never empty "stop" answers.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

describe('Gemini answers whose finish reason says the model failed', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  /** The finish reason the fake Gemini ends its next answers with, and the text before it. */
  let finishReason = 'MALFORMED_FUNCTION_CALL';
  let text: string | undefined;
  let calls = 0;
  const client = (route: string) => new OpenAI({ apiKey: f.developerKey, baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const ask = { model: 'any', messages: [{ role: 'user' as const, content: 'Look up the weather.' }] };

  before(async () => {
    f = await createTrafficFixture();
    upstream = await listenJsonUpstream((res, _body, req) => {
      calls += 1;
      const candidate = { content: { role: 'model', parts: text === undefined ? [] : [{ text }] }, finishReason, index: 0 };
      const answer = { candidates: [candidate], usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } };
      if (req.url?.includes(':streamGenerateContent')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (text !== undefined) res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] })}\r\n\r\n`);
        res.end(`data: ${JSON.stringify({ ...answer, candidates: [{ ...candidate, content: { role: 'model', parts: [] } }] })}\r\n\r\n`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
    await f.create('/v1/admin/providers', { name: 'gem', type: 'gemini', config: { api_base: upstream.url }, api_keys: [{ api_key: 'AIzaGeminiFailedAnswers0001' }] });
    await f.create('/v1/admin/routes', { name: 'gemini-only', type: 'chat', config: { settings: { retries: 1 } }, models: [{ name: 'gemini-x', provider: 'gem' }] });
    await f.create('/v1/admin/routes', {
      name: 'gemini-then-openai',
      type: 'chat',
      config: { settings: { retries: 0 } },
      models: [
        { name: 'gemini-x', provider: 'gem', weight: 1, fallback_enabled: true, fallback_codes: [] },
        { name: 'gpt-4o-mini', provider: 'fake', weight: 0 },
      ],
    });
    server = await listenOnLoopback(f.app);
  });
  beforeEach(() => {
    finishReason = 'MALFORMED_FUNCTION_CALL';
    text = undefined;
    calls = 0;
  });
  after(async () => {
    server.close();
    await upstream.close();
    await f.close();
  });

  const failsWith502 = async (send: Promise<unknown>, reason: RegExp) => {
    await assert.rejects(send, (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError, String(error));
      assert.equal(error.status, 502);
      assert.equal((error.error as { code: string }).code, 'upstream_invalid_response');
      assert.match(error.message, reason);
      return true;
    });
  };

  it('MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL and TOO_MANY_TOOL_CALLS are 502 naming the reason, after the route\'s retries', async () => {
    await failsWith502(client('gemini-only').chat.completions.create(ask), /finishReason "MALFORMED_FUNCTION_CALL" \(the model wrote a function call that could not be read\)/);
    assert.equal(calls, 2, 'tried once and retried once');
    for (const reason of ['UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'SOMETHING_NEW']) {
      finishReason = reason;
      await failsWith502(client('gemini-only').chat.completions.create(ask), new RegExp(reason));
    }
  });

  it('a failed Gemini answer falls back to the next model, JSON and streamed', async () => {
    text = 'Let me call the tool: ';
    const answer = await client('gemini-then-openai').chat.completions.create(ask);
    assert.equal(answer.choices[0]!.message.content, 'Hello from the fake provider.');
    // Streamed, the failure is the first chunk (as Gemini sends it), read before anything is answered.
    text = undefined;
    const stream = await client('gemini-then-openai').chat.completions.create({ ...ask, stream: true });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    assert.equal(streamed, 'Hello from the fake provider.');
  });

  it('a stream with text before the failure ends with an error, never with a finish reason', async () => {
    text = 'Let me call the tool: ';
    const reasons: unknown[] = [];
    // When the failure comes in the first chunk the gateway reads, the answer is a 502; after it, the stream's error event.
    await assert.rejects(async () => {
      const stream = await client('gemini-only').chat.completions.create({ ...ask, stream: true });
      for await (const chunk of stream) reasons.push(chunk.choices[0]?.finish_reason ?? null);
    }, /MALFORMED_FUNCTION_CALL/);
    assert.ok(reasons.every((reason) => reason === null), JSON.stringify(reasons));
  });

  it('STOP, MAX_TOKENS and the filters keep their finish reasons', async () => {
    text = 'Sunny.';
    for (const [reason, expected] of [['STOP', 'stop'], ['MAX_TOKENS', 'length'], ['SAFETY', 'content_filter'], ['LANGUAGE', 'content_filter']] as const) {
      finishReason = reason;
      const answer = await client('gemini-only').chat.completions.create(ask);
      assert.equal(answer.choices[0]!.finish_reason, expected, reason);
    }
  });
});
