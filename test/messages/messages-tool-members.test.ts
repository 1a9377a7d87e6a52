// POST /v1/messages through Anthropic's SDK: a tool's strict and Anthropic's own tool members, per provider type (carried, translated, ignored or refused).
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { startTranslatedGateway, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { LoopbackServer } from '../helpers/loopback-server.js';

const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const completion = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 } };
const anthropicMessage = { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } };
const geminiAnswer = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } };
const ANSWERS: Record<string, unknown> = { 'via-anthropic': anthropicMessage, 'via-openai': completion, 'via-gemini': geminiAnswer };

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const weather = { name: 'weather', description: 'The weather in a city', input_schema: schema };
const anthropicOnly = { input_examples: [{ city: 'Paris' }], defer_loading: true, eager_input_streaming: true, allowed_callers: ['code_execution_20250825'] };

describe('POST /v1/messages: tool members beyond name, description and schema', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let sent: Record<string, unknown>;
  let close: () => Promise<void>;
  const client = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const ask = (route: string, tool: Record<string, unknown>) =>
    client(route).messages.create({ model: 'any', max_tokens: 256, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [tool as unknown as Anthropic.Tool] });
  let route = 'via-anthropic';
  before(async () => {
    ({ f, server, close } = await startTranslatedGateway((res, body) => {
      sent = body;
      sendJson(res, ANSWERS[route]);
    }, { openai: true }));
  });
  after(() => close());

  it('an Anthropic provider gets strict and every Anthropic member as sent', async () => {
    route = 'via-anthropic';
    await ask(route, { ...weather, strict: true, ...anthropicOnly, cache_control: { type: 'ephemeral' } });
    assert.deepEqual((sent.tools as unknown[])[0], { ...weather, strict: true, ...anthropicOnly, cache_control: { type: 'ephemeral' } });
  });

  it("strict becomes the OpenAI function's strict; members that do not change the answer are not sent to OpenAI-format servers", async () => {
    route = 'via-openai';
    await ask(route, { ...weather, strict: true, eager_input_streaming: true, defer_loading: false, allowed_callers: ['direct'], input_examples: [] });
    assert.deepEqual((sent.tools as unknown[])[0], { type: 'function', function: { name: 'weather', description: 'The weather in a city', parameters: schema, strict: true } });
    await ask(route, { ...weather, strict: false });
    assert.equal(((sent.tools as Array<{ function: { strict?: unknown } }>)[0]!.function).strict, false);
  });

  it('members that would change what the model does are 400 naming tools[i].<member> on routes that may reach another provider type', async () => {
    const refused: Array<[string, Record<string, unknown>, string]> = [
      ['via-openai', { input_examples: [{ city: 'Paris' }] }, 'input_examples'],
      ['via-openai', { defer_loading: true }, 'defer_loading'],
      ['via-gemini', { allowed_callers: ['code_execution_20250825'] }, 'allowed_callers'],
      ['via-gemini', { strict: true }, 'strict'],
    ];
    for (const [name, members, member] of refused) {
      route = name;
      sent = {};
      await assert.rejects(ask(name, { ...weather, ...members }), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, `${name} ${member}: ${String(error)}`);
        assert.match((error.error as { error: { message: string } }).error.message, new RegExp(`^tools\\[0\\]\\.${member} cannot be honoured on this route`));
        return true;
      });
      assert.deepEqual(sent, {}, `${name} ${member}: no provider was called`);
    }
  });

  it('a Gemini provider is not sent the members that leave the answer as asked', async () => {
    route = 'via-gemini';
    await ask(route, { ...weather, strict: false, eager_input_streaming: true });
    const declaration = ((sent.tools as Array<{ functionDeclarations: Array<Record<string, unknown>> }>)[0]!.functionDeclarations)[0]!;
    assert.deepEqual(Object.keys(declaration).sort(), ['description', 'name', 'parametersJsonSchema']);
  });
});
