// /v1/responses include, top_logprobs and stream_options: log probabilities translated to and from chat, other include values refused.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { startTranslatedGateway, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { LoopbackServer } from '../helpers/loopback-server.js';

const token = (text: string, logprob: number) => ({ token: text, logprob, bytes: [...Buffer.from(text)], top_logprobs: [{ token: text, logprob, bytes: [...Buffer.from(text)] }, { token: 'x', logprob: -5, bytes: [120] }] });
const LOGPROBS = [token('Hello', -0.1), token(' there', -0.4)];
let answerText = 'Hello there';
const sendJson = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('/v1/responses: include, top_logprobs and stream_options', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let sent: Record<string, unknown>;
  let calls = 0;
  let close: () => Promise<void>;
  const client = (route: string) => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  before(async () => {
    ({ f, server, close } = await startTranslatedGateway((res, body) => {
      sent = body;
      calls++;
      sendJson(res, { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: answerText }, logprobs: body.logprobs ? { content: LOGPROBS } : null, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    }));
  });
  after(() => close());
  beforeEach(() => {
    sent = {};
    calls = 0;
  });

  it("message.output_text.logprobs asks the chat model for logprobs (with top_logprobs) and answers them on the output_text part", async () => {
    const response = await client('via-openai').responses.create({ model: 'any', input: 'Hi', include: ['message.output_text.logprobs'], top_logprobs: 2 });
    assert.equal(sent.logprobs, true);
    assert.equal(sent.top_logprobs, 2);
    const part = (response.output[0] as { content: Array<{ type: string; logprobs?: unknown }> }).content[0]!;
    assert.equal(part.type, 'output_text');
    assert.deepEqual(part.logprobs, LOGPROBS);
    assert.equal((response as unknown as { top_logprobs: unknown }).top_logprobs, 2);

    const stream = await client('via-openai').responses.create({ model: 'any', input: 'Hi', include: ['message.output_text.logprobs'], stream: true });
    let done: unknown;
    let completed: unknown;
    for await (const event of stream) {
      if (event.type === 'response.output_text.done') done = event.logprobs;
      if (event.type === 'response.completed') completed = (event.response.output[0] as { content: Array<{ logprobs?: unknown }> }).content[0]!.logprobs;
    }
    assert.deepEqual(done, LOGPROBS);
    assert.deepEqual(completed, LOGPROBS);
  });

  it('under an output DLP transform that rewrites the text, the logprobs (which would spell out what was masked) are dropped', async () => {
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'inspect', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } }).expect(200);
    answerText = 'Mail me at jane.doe@example.com';
    try {
      const response = await client('via-openai').responses.create({ model: 'any', input: 'Hi', include: ['message.output_text.logprobs'] });
      const part = (response.output[0] as { content: Array<{ text: string; logprobs?: unknown }> }).content[0]!;
      assert.ok(!part.text.includes('jane.doe@example.com'), part.text);
      assert.deepEqual(part.logprobs, []);
    } finally {
      answerText = 'Hello there';
      await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'inspect' }).expect(200);
    }
  });

  it('a provider that cannot give logprobs refuses them with a 400 naming include, before any call', async () => {
    await assert.rejects(client('via-anthropic').responses.create({ model: 'any', input: 'Hi', include: ['message.output_text.logprobs'] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'include');
      return true;
    });
    assert.equal(calls, 0);
  });

  it('include values the gateway cannot produce are 400 naming include[i]; stream_options is checked and include_obfuscation taken', async () => {
    for (const [include, index] of [[['file_search_call.results'], 0], [['message.output_text.logprobs', 'file_search_call.results'], 1], [['message.input_image.image_url'], 0]] as const) {
      await assert.rejects(client('via-openai').responses.create({ model: 'any', input: 'Hi', include: [...include] as OpenAI.Responses.ResponseIncludable[] }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, `include[${index}]`);
        return true;
      });
    }
    assert.equal(calls, 0);
    await assert.rejects(client('via-openai').responses.create({ model: 'any', input: 'Hi', stream: true, stream_options: { include_obfuscation: 'yes' } } as unknown as OpenAI.Responses.ResponseCreateParamsStreaming), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'stream_options.include_obfuscation');
      return true;
    });
    const stream = await client('via-openai').responses.create({ model: 'any', input: 'Hi', stream: true, stream_options: { include_obfuscation: false } });
    for await (const _event of stream) void _event;
    assert.equal(calls, 1);
    assert.equal('logprobs' in sent, false, 'no logprobs asked without include');
  });

  it('reasoning.encrypted_content, which stateless agents send on every request, is taken and answered without reasoning items', async () => {
    const answer = await client('via-openai').responses.create({ model: 'any', input: 'Hi', store: false, include: ['reasoning.encrypted_content'] });
    assert.equal(answer.status, 'completed');
    assert.equal(answer.output.some((item) => item.type === 'reasoning'), false);
    assert.equal(answer.output_text.length > 0, true);
    assert.equal('logprobs' in sent, false, 'nothing else is asked of the provider');
  });
});
