// A provider key an upstream streams in small deltas (split across events) never reaches the client: chat content, tool-call arguments, completions, /v1/messages, and the Anthropic and Gemini adapters.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import type { FakeRequest } from '../helpers/fake-provider.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** 39 characters, so its base64 has no padding and is masked whole. */
const KEY = 'sk-split-provider-key-0123456789abcdefg';
const MASK = 'sk-...defg';
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const hex = (text: string): string => Buffer.from(text).toString('hex');

/** The key in the forms a client must never read, and how to look for each. */
const FORMS = [
  { name: 'as is', form: KEY, anyCase: true },
  { name: 'base64', form: b64(KEY), anyCase: false },
  { name: 'hex', form: hex(KEY), anyCase: true },
];

function assertNoKey(text: string, where: string): void {
  for (const { name, form, anyCase } of FORMS) {
    const found = anyCase ? text.toLowerCase().includes(form.toLowerCase()) : text.includes(form);
    assert.ok(!found, `${where}: the key ${name} is in ${text}`);
  }
}

/** `text` in pieces of `size` characters, as a model streams it. */
const pieces = (text: string, size: number): string[] => Array.from({ length: Math.ceil(text.length / size) }, (_, at) => text.slice(at * size, (at + 1) * size));

/** The answer text that echoes the key it was sent as is, in capitals, in base64 and in hex. */
const echoText = (key: string): string => `Your key is ${key}, in capitals ${key.toUpperCase()}, in base64 ${b64(key)}, in hex ${hex(key)}. Bye.`;
const ECHO_MASKED = `Your key is ${MASK}, in capitals ${MASK}, in base64 ${MASK}, in hex ${MASK}. Bye.`;

/** A piece whose end cannot begin a form: the event that carries it must reach the client as the upstream wrote it. */
const PLAIN_PIECE = 'Hello there. ';

/** One OpenAI chunk's choice. */
type Choice = { index?: number; delta?: Record<string, unknown>; text?: string; finish_reason: string | null };
/** How the fake upstream answers a model: its choices event by event (or a data line's JSON as written), and how the stream ends. */
type Plan = { choices: Array<Choice[] | string>; end: 'done' | 'close' };

/** `text` written as JSON `\u` escapes, character by character. */
const escaped = (text: string): string => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const content = (text: string, index = 0): Choice[] => [{ index, delta: { content: text }, finish_reason: null }];
const finish = (reason = 'stop', index = 0): Choice[] => [{ index, delta: {}, finish_reason: reason }];
const toolStart = (tool: number, id: string): Choice[] => [{ index: 0, delta: { tool_calls: [{ index: tool, id, type: 'function', function: { name: 'lookup', arguments: '' } }] }, finish_reason: null }];
const toolArgs = (tool: number, args: string): Choice[] => [{ index: 0, delta: { tool_calls: [{ index: tool, function: { arguments: args } }] }, finish_reason: null }];

/** What the tool-call answer's text and arguments are, from the key it was sent. */
const TOOL_TEXT = 'Calling the tools';
const toolArgsOf = (key: string): [string, string] => [JSON.stringify({ token: key, note: 'sk-' }), JSON.stringify({ b64: b64(key) })];

/** The plans, by model name; each echoes the key the request carried. */
const PLANS: Record<string, (key: string) => Plan> = {
  'echo-text': (key) => ({ choices: [[{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], content(PLAIN_PIECE), ...pieces(echoText(key), 4).map((piece) => content(piece)), finish()], end: 'done' }),
  // Text that merely ends with "sk-" (or "s") and goes on harmlessly, the key, and a stream that ends in "sk-" without a finish_reason nor [DONE].
  'harmless-sk': (key) => ({
    choices: [...['Ask', ' the ta', 'sk-', 'runner to ', 'sk-', 'ip nothing; your key: ', ...pieces(key, 5), ' ok; ends in sk-'].map((piece) => content(piece))],
    end: 'close',
  }),
  'tool-args': (key) => {
    const [first, second] = toolArgsOf(key);
    return {
      // The text ends in "s", which may begin the key: it is held, and must still come before the tool calls.
      choices: [[{ index: 0, delta: { role: 'assistant', content: 'Calling the tool' }, finish_reason: null }], content('s'), toolStart(0, 'call_1'), ...pieces(first, 3).map((args) => toolArgs(0, args)), toolStart(1, 'call_2'), ...pieces(second, 3).map((args) => toolArgs(1, args)), finish('tool_calls')],
      end: 'done',
    };
  },
  // The key's first part written with JSON escapes, which hide it from a look at the raw text.
  escaped: (key) => ({
    choices: [content('key: '), `{"id":"chatcmpl-split","object":"chat.completion.chunk","created":1700000000,"model":"escaped","choices":[{"index":0,"delta":{"content":"${escaped(key.slice(0, 5))}"},"finish_reason":null}]}`, content(key.slice(5)), content(' end'), finish()],
    end: 'done',
  }),
  // Two choices, their deltas interleaved: each choice's text is joined on its own.
  'two-choices': (key) => ({
    choices: [...pieces(`one ${key} end`, 3).flatMap((piece, at) => [content(piece, 0), content(pieces(`two ${key.toUpperCase()} end`, 3)[at] ?? '', 1)]), [...finish('stop', 0), ...finish('stop', 1)]],
    end: 'done',
  }),
};

/** The data line of one chunk, written with spaces after colons so a re-serialised event would show. */
function frame(model: string, choices: Choice[], usage?: unknown): string {
  const chunk = { id: 'chatcmpl-split', object: 'chat.completion.chunk', created: 1700000000, model, choices, ...(usage ? { usage } : {}) };
  return `data: ${JSON.stringify(chunk, null, 1).replace(/\n */g, ' ')}\n\n`;
}

/** An OpenAI-compatible upstream that streams each plan event by event, one write each, echoing the Bearer it was sent. */
async function startSplittingUpstream(): Promise<RawLoopbackServer> {
  const server: Server = createServer((req, res) => {
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; stream_options?: { include_usage?: boolean } };
      const plan = PLANS[parsed.model]!(key);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const choices of plan.choices) res.write(typeof choices === 'string' ? `data: ${choices}\n\n` : frame(parsed.model, choices));
      if (parsed.stream_options?.include_usage) res.write(frame(parsed.model, [], { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 }));
      res.end(plan.end === 'done' ? 'data: [DONE]\n\n' : '');
    });
  });
  return listenRawOnLoopback(server);
}

/** The provider key a request to the fake provider carried, wherever its format puts it. */
function keyOf(req: FakeRequest): string {
  const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
  return bearer ?? String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? req.query.key ?? '');
}

describe('a provider key split across stream events', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let loopback: LoopbackServer;
  let openai: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    upstream = await startSplittingUpstream();
    await f.create('/v1/admin/providers', { name: 'splitter', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: Object.keys(PLANS) }, api_keys: [{ api_key: KEY }] });
    // The fake provider streams the echo three characters an event, in each wire format.
    f.fake.script((req) => (req.model?.startsWith('echo-') ? { text: echoText(keyOf(req)), chunks: Math.ceil(echoText(keyOf(req)).length / 3), ...(req.model.endsWith('-tool') ? { toolCall: { name: 'lookup', arguments: { token: keyOf(req) } } } : {}) } : undefined));
    await f.create('/v1/admin/providers', { name: 'echo-openai', type: 'openai', config: { api_base: `${f.fake.url}/v1`, models: ['echo-completion'] }, api_keys: [{ api_key: KEY }] });
    await f.create('/v1/admin/providers', { name: 'echo-claude', type: 'anthropic', config: { api_base: f.fake.url, models: ['echo-claude', 'echo-claude-tool'] }, api_keys: [{ api_key: KEY }] });
    await f.create('/v1/admin/providers', { name: 'echo-gemini', type: 'gemini', config: { api_base: f.fake.url, models: ['echo-gemini'] }, api_keys: [{ api_key: KEY }] });
    loopback = await listenOnLoopback(f.app);
    openai = new OpenAI({ apiKey: f.developerKey, baseURL: `${loopback.base}/v1`, maxRetries: 0 });
  });
  after(async () => {
    loopback.close();
    await f.close();
    await upstream.close();
  });

  /** The texts the openai client joins from a chat stream: each choice's content. */
  async function joinedContent(model: string, extra: Record<string, unknown> = {}): Promise<string[]> {
    const stream = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Echo my key' }], ...extra });
    const texts: string[] = [];
    for await (const chunk of stream) for (const choice of chunk.choices) texts[choice.index] = (texts[choice.index] ?? '') + (choice.delta?.content ?? '');
    return texts;
  }

  for (const [how, extra] of [['usage the gateway asked for taken out', {}], ['the client asks for usage', { stream_options: { include_usage: true } }]] as const) {
    it(`chat content: the key in four-character deltas (as is, capitals, base64, hex) is masked, every other character in order (${how})`, async () => {
      const [text] = await joinedContent('echo-text', extra);
      assertNoKey(text!, 'joined content');
      assert.equal(text, PLAIN_PIECE + ECHO_MASKED);
    });
  }

  it('an event whose text cannot begin a form reaches the client as the upstream wrote it, not re-serialised', async () => {
    const res = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send({ model: 'echo-text', stream: true, messages: [{ role: 'user', content: 'Echo my key' }] }).expect(200);
    assert.ok(res.text.includes(frame('echo-text', content(PLAIN_PIECE))), res.text);
    assertNoKey(res.text.split('\n').filter((line) => line.startsWith('data: {')).map((line) => (JSON.parse(line.slice(6)) as { choices: Choice[] }).choices[0]?.delta?.content ?? '').join(''), 'the joined deltas');
  });

  it('text that merely ends in "sk-" and goes on harmlessly arrives intact, also at the end of a stream without finish_reason or [DONE]', async () => {
    const [text] = await joinedContent('harmless-sk');
    assert.equal(text, `Ask the task-runner to sk-ip nothing; your key: ${MASK} ok; ends in sk-`);
  });

  it('tool-call arguments: the key split across argument deltas is masked; text, calls and their order kept (the openai stream helper)', async () => {
    const stream = openai.chat.completions.stream({ model: 'tool-args', messages: [{ role: 'user', content: 'Look it up' }] });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    assert.equal(message.content, TOOL_TEXT);
    const calls = (message.tool_calls ?? []) as Array<{ id: string; function: { name: string; arguments: string } }>;
    assert.deepEqual(calls.map((call) => [call.id, call.function.name]), [['call_1', 'lookup'], ['call_2', 'lookup']]);
    assertNoKey(calls.map((call) => call.function.arguments).join(' '), 'tool-call arguments');
    assert.deepEqual(JSON.parse(calls[0]!.function.arguments), { token: MASK, note: 'sk-' });
    assert.deepEqual(JSON.parse(calls[1]!.function.arguments), { b64: MASK });
  });

  it('a key whose first part is written with JSON escapes is masked too', async () => {
    const [text] = await joinedContent('escaped');
    assert.equal(text, `key: ${MASK} end`);
  });

  it('each choice of a stream with several is joined and masked on its own, deltas interleaved', async () => {
    const texts = await joinedContent('two-choices');
    assert.deepEqual(texts, [`one ${MASK} end`, `two ${MASK} end`]);
  });

  describe('POST /v1/messages streaming from an OpenAI-shaped upstream (@anthropic-ai/sdk)', () => {
    const anthropic = () => new Anthropic({ apiKey: f.developerKey, baseURL: loopback.base, maxRetries: 0 });

    it('the text, with the key split across deltas, is masked and whole in one text block', async () => {
      const message = await anthropic().messages.stream({ model: 'echo-text', max_tokens: 256, messages: [{ role: 'user', content: 'Echo my key' }] }).finalMessage();
      assert.deepEqual(message.content.map((block) => block.type), ['text']);
      assert.equal((message.content[0] as Anthropic.TextBlock).text, PLAIN_PIECE + ECHO_MASKED);
    });

    it('tool-call arguments split across deltas are masked; one text block, then one tool_use block per call', async () => {
      const message = await anthropic().messages.stream({ model: 'tool-args', max_tokens: 256, messages: [{ role: 'user', content: 'Look it up' }] }).finalMessage();
      assert.deepEqual(message.content.map((block) => block.type), ['text', 'tool_use', 'tool_use']);
      assert.equal((message.content[0] as Anthropic.TextBlock).text, TOOL_TEXT);
      assert.deepEqual((message.content[1] as Anthropic.ToolUseBlock).input, { token: MASK, note: 'sk-' });
      assert.deepEqual((message.content[2] as Anthropic.ToolUseBlock).input, { b64: MASK });
      assert.equal(message.stop_reason, 'tool_use');
    });
  });

  describe('provider adapters and the completions endpoint, the key three characters an event', () => {
    for (const model of ['echo-claude', 'echo-gemini']) {
      it(`${model}: the translated chat stream's joined text holds the mask, not the key`, async () => {
        const [text] = await joinedContent(model);
        assertNoKey(text!, model);
        assert.equal(text, ECHO_MASKED);
      });
    }

    it('echo-claude-tool: tool-call arguments from input_json_delta events are masked', async () => {
      const completion = await openai.chat.completions.stream({ model: 'echo-claude-tool', messages: [{ role: 'user', content: 'Look it up' }] }).finalChatCompletion();
      const args = completion.choices[0]!.message.tool_calls?.[0] as { function: { arguments: string } } | undefined;
      assert.deepEqual(JSON.parse(args?.function.arguments ?? '{}'), { token: MASK });
    });

    it('/v1/messages from the Anthropic adapter: the text block holds the mask, not the key', async () => {
      const message = await new Anthropic({ apiKey: f.developerKey, baseURL: loopback.base, maxRetries: 0 }).messages.stream({ model: 'echo-claude', max_tokens: 256, messages: [{ role: 'user', content: 'Echo my key' }] }).finalMessage();
      assert.deepEqual(message.content.map((block) => block.type), ['text']);
      assert.equal((message.content[0] as Anthropic.TextBlock).text, ECHO_MASKED);
    });

    it('/v1/completions: the completion text joined from its chunks holds the mask, not the key', async () => {
      const stream = await openai.completions.create({ model: 'echo-completion', prompt: 'Echo my key', stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
      assertNoKey(text, 'completion');
      assert.equal(text, ECHO_MASKED);
    });
  });
});
