// Output DLP transforms reach streaming clients: text is masked as it flows (each joined text on its own), never sent raw.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { defineGuardrail, type TextReplacement } from '../../src/index.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { listenOnLoopback, listenRawOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const EMAIL = 'jane.doe@example.com';
const PHONE = '(415) 555-0132';
const CARD = '4111 1111 1111 1111';
const stars = (text: string): string => '*'.repeat(text.length);
/** An answer carrying the three, long enough that several transform steps run before its end. */
const ANSWER = `Here is what you asked for, in full and with every detail the record holds. Write to ${EMAIL} about the order, or call ${PHONE} before noon on weekdays. The card on file is ${CARD} and it expires next year, so update it soon.`;
const MASKED = ANSWER.replace(EMAIL, stars(EMAIL)).replace(PHONE, stars(PHONE)).replace(CARD, stars(CARD));

/** `text` cut into pieces of `size` characters: every entity above is cut inside. */
const pieces = (text: string, size = 7): string[] => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

/** A pause in an upstream's writes: it waits for `resume()`. */
const PAUSE = Symbol('pause');
type Write = string | typeof PAUSE;

const chatChunk = (choices: unknown[]): string => `data: ${JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices })}\n\n`;
const delta = (content: Record<string, unknown>, finish: string | null = null, index = 0) => ({ index, delta: content, finish_reason: finish });
const completionChunk = (text: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'cmpl-t', object: 'text_completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] })}\n\n`;

/** A chat stream of `text` in pieces, with a pause after `pauseAfter` pieces when given. */
function chatWrites(text: string, pauseAfter?: number): Write[] {
  const writes: Write[] = [chatChunk([delta({ role: 'assistant', content: '' })])];
  pieces(text).forEach((piece, i) => {
    writes.push(chatChunk([delta({ content: piece })]));
    if (i + 1 === pauseAfter) writes.push(PAUSE);
  });
  return [...writes, chatChunk([delta({}, 'stop')]), 'data: [DONE]\n\n'];
}

/** A custom transformer with spans: `SECRET-<digits>` becomes `[vault]`; it fails on a text holding `explode`. */
const vaultMasker = defineGuardrail<object, { replaced: number }>({
  name: 'vault_masker',
  defaultThreshold: 0.5,
  transformsText: () => true,
  evaluate(text) {
    if (text.includes('explode')) throw new Error('the vault is down');
    const replacements: TextReplacement[] = [...text.matchAll(/SECRET-\d+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, replacement: '[vault]' }));
    const transformedText = text.replace(/SECRET-\d+/g, '[vault]');
    return { results: { replaced: replacements.length }, flagged: false, ...(replacements.length > 0 ? { transformedText, replacements } : {}) };
  },
});

/** A custom transformer without spans: every `ACME` becomes `[company]`. */
const companyRedactor = defineGuardrail<object, { replaced: number }>({
  name: 'company_redactor',
  defaultThreshold: 0.5,
  transformsText: () => true,
  evaluate(text) {
    const replaced = text.split('ACME').length - 1;
    return { results: { replaced }, flagged: false, ...(replaced > 0 ? { transformedText: text.replaceAll('ACME', '[company]') } : {}) };
  },
});

describe('output transforms on streamed answers', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let gateway: LoopbackServer;
  let client: OpenAI;
  /** What the upstream writes next. */
  let writes: Write[] = [];
  /** Resumes a paused upstream (before or after it reached the pause); `upstreamDone` is set once it has written everything. */
  let resume: () => void = () => undefined;
  let resumed: Promise<void> = Promise.resolve();
  let upstreamDone = false;

  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: [vaultMasker, companyRedactor], streamWindowing: { stepChars: 20, windowChars: 100, holdChars: 40 } });
    upstream = await listenRawOnLoopback(
      createServer((req, res) => {
        req.resume();
        req.on('end', async () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const write of writes) {
            if (write === PAUSE) await resumed;
            else await new Promise<void>((resolve) => res.write(write, () => setTimeout(resolve, 2)));
          }
          upstreamDone = true;
          res.end();
        });
      }),
    );
    upstreamDone = false;
    resumed = new Promise<void>((resolve) => (resume = resolve));
    await f.create('/v1/admin/providers', { name: 'scripted', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['gpt-4o-mini'] }, api_keys: [{ api_key: 'sk-scripted-provider-key-01' }] });
    await f.create('/v1/admin/routes', { name: 'scripted', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'scripted' }] });
    await f.create('/v1/admin/routes', { name: 'scripted-completions', type: 'completions', models: [{ name: 'gpt-4o-mini', provider: 'scripted' }] });
    gateway = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${gateway.base}/v1`, defaultHeaders: { 'x-gateway-route': 'scripted' }, maxRetries: 0 });
  });
  afterEach(async () => {
    resume();
    gateway.close();
    await upstream.close();
    await f.close();
  });

  const setPolicy = (policy: Record<string, unknown>) => request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(policy).expect(200);
  const maskPolicy = (mode: 'reject' | 'inspect') => setPolicy({ mode, processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } });

  /** Reads a stream; once `check` says enough has come, resumes the paused upstream (and notes whether it was still paused). */
  async function readWhilePaused<T>(stream: AsyncIterable<T>, textOf: (part: T) => string, enough: (text: string) => boolean) {
    let text = '';
    let receivedWhilePaused: string | undefined;
    // Should the gateway buffer the stream whole, nothing comes while the upstream waits: resume after a while so the test ends.
    let waitedOut = false;
    const fallback = setTimeout(() => {
      waitedOut = true;
      resume();
    }, 3000);
    try {
      for await (const part of stream) {
        text += textOf(part);
        if (receivedWhilePaused === undefined && enough(text)) {
          receivedWhilePaused = upstreamDone || waitedOut ? undefined : text;
          resume();
        }
      }
    } finally {
      clearTimeout(fallback);
    }
    return { text, receivedWhilePaused };
  }

  for (const mode of ['reject', 'inspect'] as const) {
    it(`chat, ${mode} mode: an email, a phone number and a card cut across events reach the client masked, and text flows before the upstream ends`, async () => {
      await maskPolicy(mode);
      // Paused after the email: the client must already hold the opening text, masked where due.
      writes = chatWrites(ANSWER, Math.ceil((ANSWER.indexOf(EMAIL) + 60) / 7));
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
      const { text, receivedWhilePaused } = await readWhilePaused(stream, (part) => part.choices[0]?.delta?.content ?? '', (sofar) => sofar.length > 0);
      assert.equal(text, MASKED);
      assert.ok(receivedWhilePaused, 'text reached the client while the upstream was paused mid-stream');
      assert.ok(MASKED.startsWith(receivedWhilePaused));
    });
  }

  it('completions: the completion text reaches the client masked, as it flows', async () => {
    await maskPolicy('reject');
    writes = [...pieces(ANSWER).flatMap((piece, i): Write[] => (i === 20 ? [completionChunk(piece), PAUSE] : [completionChunk(piece)])), completionChunk('', 'stop'), 'data: [DONE]\n\n'];
    const completions = new OpenAI({ apiKey: f.developerKey, baseURL: `${gateway.base}/v1`, defaultHeaders: { 'x-gateway-route': 'scripted-completions' }, maxRetries: 0 });
    const stream = await completions.completions.create({ model: 'gpt-4o-mini', prompt: 'Hi', stream: true });
    const { text, receivedWhilePaused } = await readWhilePaused(stream, (part) => part.choices[0]?.text ?? '', (sofar) => sofar.length > 0);
    assert.equal(text, MASKED);
    assert.ok(receivedWhilePaused, 'text reached the client while the upstream was paused mid-stream');
  });

  it('/v1/messages through the Anthropic SDK: the streamed text blocks are masked', async () => {
    await maskPolicy('inspect');
    writes = chatWrites(ANSWER);
    const anthropic = new Anthropic({ apiKey: f.developerKey, baseURL: gateway.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'scripted' } });
    const stream = anthropic.messages.stream({ model: 'any', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    let text = '';
    stream.on('text', (piece) => (text += piece));
    const message = await stream.finalMessage();
    assert.equal(text, MASKED);
    assert.equal(message.content.length, 1);
    assert.equal(message.content[0]?.type === 'text' ? message.content[0].text : undefined, MASKED);
  });

  it('two choices and tool call arguments are each transformed on their own text, however their events interleave', async () => {
    await maskPolicy('reject');
    const other = `Choice one mentions ${CARD} once, nothing more, and then it ends here.`;
    const args = `{"to":"${EMAIL}","note":"call ${PHONE}"}`;
    const first = pieces(ANSWER);
    const second = pieces(other, 5);
    const calls = pieces(args, 6);
    writes = [chatChunk([delta({ role: 'assistant', content: '' }), delta({ role: 'assistant', content: '' }, null, 1)])];
    for (let i = 0; i < Math.max(first.length, second.length); i++) {
      const choices = [];
      if (first[i] !== undefined) choices.push(delta({ content: first[i] }));
      if (second[i] !== undefined) choices.push(delta({ content: second[i] }, null, 1));
      writes.push(chatChunk(choices));
    }
    // Choice 1 then calls two tools, the first one's arguments cut across events.
    writes.push(chatChunk([delta({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'send', arguments: '' } }] }, null, 1)]));
    for (const piece of calls) writes.push(chatChunk([delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null, 1)]));
    writes.push(chatChunk([delta({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'log', arguments: '{"card":"4111 1111' } }] }, null, 1)]));
    writes.push(chatChunk([delta({ tool_calls: [{ index: 1, function: { arguments: ' 1111 1111"}' } }] }, null, 1)]));
    writes.push(chatChunk([delta({}, 'stop'), delta({}, 'tool_calls', 1)]), 'data: [DONE]\n\n');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, n: 2 });
    const texts = ['', ''];
    const toolArgs: string[] = [];
    for await (const part of stream) {
      for (const choice of part.choices) {
        texts[choice.index] += choice.delta?.content ?? '';
        for (const call of choice.delta?.tool_calls ?? []) toolArgs[call.index] = (toolArgs[call.index] ?? '') + (call.function?.arguments ?? '');
      }
    }
    assert.equal(texts[0], MASKED);
    assert.equal(texts[1], other.replace(CARD, stars(CARD)));
    assert.equal(toolArgs[0], args.replace(EMAIL, stars(EMAIL)).replace(PHONE, stars(PHONE)));
    assert.equal(toolArgs[1], `{"card":"${stars(CARD)}"}`);
  });

  it('a custom transformer with spans streams masked; one that fails ends the stream with an error event and no raw text, in inspect mode too', async () => {
    await setPolicy({ mode: 'inspect', processors: { vault_masker: { apply_to: ['output'] } } });
    const clean = `The opening is harmless and long enough to pass a step. The code is SECRET-123456 and then more words follow it here. `;
    writes = chatWrites(clean.repeat(2));
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    for await (const part of stream) text += part.choices[0]?.delta?.content ?? '';
    assert.equal(text, clean.replaceAll('SECRET-123456', '[vault]').repeat(2));

    writes = chatWrites(`${clean}Now the vault will explode, and SECRET-999999 is right after it. ${'More text that never comes. '.repeat(4)}`);
    const raw = await fetch(`${gateway.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'scripted' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    });
    const body = await raw.text();
    const [before, error] = body.split('event: error\n');
    assert.ok(error !== undefined, body);
    assert.match(error, /guardrail_transform_failed/);
    assert.doesNotMatch(before!, /SECRET-|explode|never comes/, 'nothing past the failing step was sent');
    assert.doesNotMatch(before!, /\[DONE\]/);
  });

  it('thinking text an OpenAI-format server streams inside thinking_blocks is masked, and read by output checks', async () => {
    const thinkingWrites = (): Write[] => [
      chatChunk([delta({ role: 'assistant', content: '' })]),
      chatChunk([delta({ reasoning_content: 'I should write to the user.' })]),
      chatChunk([delta({ thinking_blocks: [{ type: 'thinking', thinking: `Their address is ${EMAIL}, so I use it.`, signature: 'sig-1' }] })]),
      chatChunk([delta({ content: 'Done.' })]),
      chatChunk([delta({}, 'stop')]),
      'data: [DONE]\n\n',
    ];
    const post = () => fetch(`${gateway.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'scripted' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    }).then((res) => res.text());
    await maskPolicy('inspect');
    writes = thinkingWrites();
    const masked = await post();
    assert.doesNotMatch(masked, /jane\.doe/);
    assert.match(masked, new RegExp(`Their address is \\*{${EMAIL.length}}, so I use it\\.`));
    assert.match(masked, /"signature":"sig-1"/);
    assert.match(masked, /\[DONE\]/);

    await setPolicy({ mode: 'reject', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'reject' } } });
    writes = thinkingWrites();
    const refused = await post();
    assert.match(refused, /event: error/);
    assert.doesNotMatch(refused, /jane\.doe/);
  });

  it('a custom transformer without spans: the text it changes is held to its end and sent transformed whole', async () => {
    await setPolicy({ mode: 'reject', processors: { company_redactor: { apply_to: ['output'] } } });
    const answer = `${'A long opening that says nothing of note at all. '.repeat(3)}Then ACME comes up, and ACME again near the end of it.`;
    writes = chatWrites(answer);
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    for await (const part of stream) text += part.choices[0]?.delta?.content ?? '';
    assert.equal(text, answer.replaceAll('ACME', '[company]'));
  });

  it('the Chronicles entry of a masked stream keeps the masked text the client got', async () => {
    await maskPolicy('inspect');
    writes = chatWrites(ANSWER);
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    for await (const _part of stream);
    let entry: { output?: string; stream?: boolean } | undefined;
    for (let tries = 0; tries < 100 && entry?.stream !== true; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      entry = (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
    }
    assert.equal(entry?.output, MASKED);
  });

  it('the response cache keeps a masked stream as sent: a hit replayed as a stream does not leak, even once the policy is gone', async () => {
    await request(f.app).put('/v1/admin/routes/scripted').set('x-api-key', TEST_KEYS.superAdmin).send({ config: { cache: { ttl_seconds: 60 } } }).expect(200);
    await maskPolicy('reject');
    const ask = async (): Promise<string> => {
      writes = chatWrites(ANSWER);
      const { data: stream, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }).withResponse();
      let text = '';
      for await (const part of stream) text += part.choices[0]?.delta?.content ?? '';
      return `${response.headers.get('x-gateway-cache')}:${text}`;
    };
    assert.equal(await ask(), `miss:${MASKED}`);
    // The answer is stored once the request has ended.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await ask(), `hit:${MASKED}`);
    await setPolicy({ mode: 'inspect', processors: {} });
    assert.equal(await ask(), `hit:${MASKED}`, 'the cache holds the masked answer, not the raw one');
  });

  it('a cache hit replayed as a stream is refused when the transform fails on it, rather than replayed raw', async () => {
    await request(f.app).put('/v1/admin/routes/scripted').set('x-api-key', TEST_KEYS.superAdmin).send({ config: { cache: { ttl_seconds: 60 } } }).expect(200);
    const answer = 'Stored before any policy: SECRET-424242, and the vault will explode when it reads this.';
    writes = chatWrites(answer);
    const ask = () =>
      fetch(`${gateway.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'scripted' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
      });
    const miss = await ask();
    assert.equal(miss.headers.get('x-gateway-cache'), 'miss');
    assert.match(await miss.text(), /\[DONE\]/, 'no policy yet: the answer goes out and is stored as it came');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await setPolicy({ mode: 'inspect', processors: { vault_masker: { apply_to: ['output'] } } });
    const hit = await ask();
    const body = await hit.text();
    assert.equal(hit.headers.get('x-gateway-cache'), 'hit');
    assert.equal(hit.status, 503, body);
    assert.match(body, /guardrail_transform_failed/);
    assert.doesNotMatch(body, /SECRET-|explode/);
  });
});
