// An OpenAI client's reasoning_effort reaches Anthropic and Gemini models as a thinking budget (it was dropped), within the client's max_tokens.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import OpenAI from 'openai';
import { addTranslatedRoutes, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Json = Record<string, unknown>;

const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const anthropicAnswer = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'thinking', thinking: 'Two and two.', signature: 'c2lnbmVk' }, { type: 'text', text: 'Four.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 3 } };
const geminiAnswer = { candidates: [{ content: { role: 'model', parts: [{ text: 'Four.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1 } };

describe('reasoning_effort on Anthropic and Gemini routes', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let sent: Json[] = [];

  before(async () => {
    upstream = await listenJsonUpstream((res, body, req) => {
      sent.push(body);
      sendJson(res, req.url?.includes('generateContent') ? geminiAnswer : anthropicAnswer);
    });
    f = await createTrafficFixture();
    await addTranslatedRoutes(f, upstream.url);
    server = await listenOnLoopback(f.app);
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });
  beforeEach(() => {
    sent = [];
  });
  const client = (route: string) => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const ask = (route: string, extra: Record<string, unknown>) =>
    client(route).chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'What is 2 + 2?' }], ...extra } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);

  it('Anthropic: each effort is a thinking budget, added to the default answer length or held to half the client\'s max_tokens; the thinking comes back as reasoning_content', async () => {
    const answer = await ask('via-anthropic', { reasoning_effort: 'high' });
    assert.deepEqual(sent[0]!.thinking, { type: 'enabled', budget_tokens: 16384 });
    assert.equal(sent[0]!.max_tokens, 4096 + 16384);
    assert.equal((answer.choices[0]!.message as unknown as Json).reasoning_content, 'Two and two.');
    await ask('via-anthropic', { reasoning_effort: 'low', max_completion_tokens: 10000 });
    assert.deepEqual(sent[1]!.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.equal(sent[1]!.max_tokens, 10000);
    await ask('via-anthropic', { reasoning_effort: 'high', max_tokens: 3000 });
    assert.deepEqual(sent[2]!.thinking, { type: 'enabled', budget_tokens: 1500 });
    await ask('via-anthropic', { reasoning_effort: 'none' });
    assert.equal(sent[3]!.thinking, undefined);
    assert.equal(sent[3]!.max_tokens, 4096);
    await ask('via-anthropic', {});
    assert.equal(sent[4]!.thinking, undefined);
  });

  it('Gemini: the effort\'s budget becomes thinkingConfig.thinkingBudget', async () => {
    await ask('via-gemini', { reasoning_effort: 'medium' });
    assert.deepEqual((sent[0]!.generationConfig as Json).thinkingConfig, { thinkingBudget: 8192 });
    await ask('via-gemini', { reasoning_effort: 'none' });
    assert.equal((sent[1]!.generationConfig as Json | undefined)?.thinkingConfig, undefined);
  });

  it('an unknown effort, or a max_tokens too small for any budget, is 400 naming reasoning_effort and reaches no provider', async () => {
    for (const [route, extra] of [['via-anthropic', { reasoning_effort: 'extreme' }], ['via-gemini', { reasoning_effort: 7 }], ['via-anthropic', { reasoning_effort: 'minimal', max_tokens: 1500 }]] as Array<[string, Record<string, unknown>]>) {
      await assert.rejects(ask(route, extra), (error: unknown) => error instanceof OpenAI.BadRequestError && (error.error as Json).param === 'reasoning_effort', JSON.stringify(extra));
    }
    assert.deepEqual(sent, []);
  });

  it('a chat client\'s own thinking is taken when Anthropic would take it, and is 400 naming the member otherwise (it was dropped)', async () => {
    await ask('via-anthropic', { thinking: { type: 'enabled', budget_tokens: 2048 }, reasoning_effort: 'high', max_tokens: 8000 });
    assert.deepEqual(sent[0]!.thinking, { type: 'enabled', budget_tokens: 2048 }, 'thinking wins over reasoning_effort');
    sent = [];
    const cases: Array<[unknown, string]> = [
      [{ type: 'enabled' }, 'thinking.budget_tokens'],
      [{ type: 'enabled', budget_tokens: 'lots' }, 'thinking.budget_tokens'],
      [{ type: 'enabled', budget_tokens: 100 }, 'thinking.budget_tokens'],
      [{ type: 'sometimes' }, 'thinking.type'],
      [{ type: 'adaptive', display: 'Shown To All' }, 'thinking.display'],
      [{ type: 'adaptive', extra: true }, 'thinking.extra'],
      [{ type: 'disabled', budget_tokens: 2048 }, 'thinking'],
      ['on', 'thinking'],
    ];
    for (const [thinking, param] of cases) {
      for (const route of ['via-anthropic', 'via-gemini']) {
        await assert.rejects(ask(route, { thinking }), (error: unknown) => error instanceof OpenAI.BadRequestError && (error.error as Json).param === param, `${route} ${JSON.stringify(thinking)}`);
      }
    }
    assert.deepEqual(sent, []);
  });
});
