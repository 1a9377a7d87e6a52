// The response cache keeps every member of an answer: a streamed miss and its streamed or JSON hit, and a JSON miss and its streamed hit, read alike by the openai client.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import OpenAI from 'openai';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenJsonUpstream, listenOnLoopback, type LoopbackServer, type RawLoopbackServer } from '../helpers/loopback-server.js';

type Json = Record<string, unknown>;

const HEAD = { id: 'chatcmpl-fid1', object: 'chat.completion.chunk', created: 1760000000, model: 'gpt-x', system_fingerprint: 'fp_fid', service_tier: 'default' };
const token = (text: string) => ({ token: text, logprob: -0.25, bytes: [...Buffer.from(text)], top_logprobs: [] });
const chunk = (choice: Json): Json => ({ ...HEAD, choices: [choice] });
const delta = (index: number, fields: Json, extra: Json = {}): Json => chunk({ index, delta: fields, logprobs: null, finish_reason: null, ...extra });

/**
 * A stream with two choices: choice 0 reasons in pieces, answers with logprobs and calls two tools (their arguments
 * interleaved and cut); choice 1 refuses and carries a legacy function_call and a server's stop_reason. Usage last.
 */
const streamedChunks = (): Json[] => [
  delta(0, { role: 'assistant', content: '' }),
  delta(1, { role: 'assistant', content: null, refusal: null }),
  delta(0, { reasoning_content: 'First I look ' }),
  delta(0, { reasoning_content: 'up the weather.' }),
  delta(1, { reasoning_content: 'This is not allowed.' }),
  delta(0, { content: 'Checking ' }, { logprobs: { content: [token('Checking ')], refusal: null } }),
  delta(0, { content: 'both.' }, { logprobs: { content: [token('both.')], refusal: null } }),
  delta(1, { refusal: 'I cannot ' }),
  delta(1, { refusal: 'help with that.' }),
  delta(0, { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] }),
  delta(0, { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  delta(0, { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"zone"' } }] }),
  delta(0, { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  delta(0, { tool_calls: [{ index: 1, function: { arguments: ':"CET"}' } }] }),
  delta(1, { function_call: { name: 'legacy', arguments: '{"a":' } }),
  delta(1, { function_call: { arguments: '1}' } }),
  chunk({ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }),
  chunk({ index: 1, delta: {}, logprobs: null, finish_reason: 'stop', stop_reason: '###' }),
  { ...HEAD, choices: [], usage: { prompt_tokens: 11, completion_tokens: 22, total_tokens: 33 } },
];

/** The same kind of answer as one JSON body (what a non-streamed request gets). */
const jsonAnswer = (): Json => ({
  id: 'chatcmpl-fid2', object: 'chat.completion', created: 1760000001, model: 'gpt-x', system_fingerprint: 'fp_json', service_tier: 'priority',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant', content: 'Checking both.', refusal: null, reasoning_content: 'I should look up the weather.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"zone":"CET"}' } },
        ],
      },
      logprobs: { content: [token('Checking '), token('both.')], refusal: null },
      finish_reason: 'tool_calls',
    },
    { index: 1, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.', function_call: { name: 'legacy', arguments: '{"a":1}' } }, logprobs: null, finish_reason: 'stop', stop_reason: '###' },
  ],
  usage: { prompt_tokens: 11, completion_tokens: 22, total_tokens: 33 },
});

async function sendChunks(res: ServerResponse, chunks: Json[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const data of [...chunks.map((c) => JSON.stringify(c)), '[DONE]']) await new Promise<void>((resolve) => res.write(`data: ${data}\n\n`, () => setTimeout(resolve, 2)));
  res.end();
}

/** A stream's chunks joined as a client that keeps every member does: strings appended, tool calls by index, logprobs lists appended. */
function joinChunks(chunks: Json[]): Json {
  const answer: Json = { choices: [] as Json[] };
  const join = (target: Json, key: string, value: unknown): void => {
    if (value === null || value === undefined) return;
    target[key] = typeof value === 'string' ? String(target[key] ?? '') + value : value;
  };
  for (const c of chunks) {
    for (const key of ['id', 'created', 'model', 'system_fingerprint', 'service_tier', 'usage']) if (c[key] !== undefined && c[key] !== null) answer[key] = c[key];
    for (const choice of c.choices as Json[]) {
      const { index, delta: d = {}, logprobs, ...rest } = choice as Json & { index: number; delta?: Json };
      const target = ((answer.choices as Json[])[index] ??= { index, message: {} });
      const message = target.message as Json;
      for (const [key, value] of Object.entries(rest)) if (value !== null) target[key] = value;
      if (logprobs) {
        const into = (target.logprobs ??= {}) as Json;
        for (const [key, value] of Object.entries(logprobs as Json)) into[key] = Array.isArray(value) ? [...((into[key] as unknown[]) ?? []), ...value] : (into[key] ?? value);
      }
      for (const [key, value] of Object.entries(d)) {
        if (key === 'tool_calls') {
          const calls = (message.tool_calls ??= []) as Json[];
          for (const call of value as Json[]) {
            const into = (calls[call.index as number] ??= { function: { arguments: '' } });
            if (call.id) into.id = call.id;
            if (call.type) into.type = call.type;
            const fn = (call.function ?? {}) as Json;
            if (fn.name) (into.function as Json).name = fn.name;
            join(into.function as Json, 'arguments', fn.arguments);
          }
        } else if (key === 'function_call') {
          const into = (message.function_call ??= {}) as Json;
          for (const [k, v] of Object.entries(value as Json)) join(into, k, v);
        } else if (key !== 'content' || value !== '') join(message, key, value);
      }
    }
  }
  return answer;
}

/** An answer without its null members, at any depth (a JSON answer's `refusal: null` is no content a stream carries). */
const withoutNulls = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutNulls)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]))
      : value;

describe('response cache: a hit gives every member a miss gave', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let server: LoopbackServer;
  let calls = 0;
  let answer: (res: ServerResponse, body: Json) => void;
  let client: OpenAI;

  before(async () => {
    upstream = await listenJsonUpstream((res, body) => {
      calls += 1;
      answer(res, body);
    });
    f = await createTrafficFixture();
    await f.create('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${upstream.url}/v1` }, api_keys: [{ api_key: 'sk-oai-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'cached-oai', type: 'chat', models: [{ name: 'gpt-x', provider: 'oai' }], config: { cache: { ttl_seconds: 60 } } });
    server = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'cached-oai' } });
  });
  after(async () => {
    server.close();
    await f.close();
    await upstream.close();
  });
  beforeEach(() => {
    calls = 0;
  });

  const params = (content: string) => ({ model: 'any', n: 2, messages: [{ role: 'user' as const, content }] });
  async function streamed(content: string, headers: Record<string, string> = {}): Promise<{ cache: string | null; joined: Json }> {
    const { data, response } = await client.chat.completions
      .create({ ...params(content), stream: true, stream_options: { include_usage: true } }, { headers })
      .withResponse();
    const chunks: Json[] = [];
    for await (const c of data) chunks.push(c as unknown as Json);
    return { cache: response.headers.get('x-gateway-cache'), joined: joinChunks(chunks) };
  }

  it('a streamed miss and its streamed hit join to the same answer: reasoning, logprobs, refusal, two tool calls, function_call, stop_reason, n=2, fingerprint, tier, usage', async () => {
    answer = (res) => void sendChunks(res, streamedChunks());
    const miss = await streamed('Weather and time?');
    const hit = await streamed('Weather and time?');
    assert.equal(miss.cache, 'miss');
    assert.equal(hit.cache, 'hit');
    assert.equal(calls, 1);
    assert.deepEqual(hit.joined, miss.joined);
    const [first, second] = miss.joined.choices as Json[];
    assert.equal((first!.message as Json).reasoning_content, 'First I look up the weather.');
    assert.equal(((first!.message as Json).tool_calls as Json[]).length, 2);
    assert.equal((second!.message as Json).refusal, 'I cannot help with that.');
    assert.equal(second!.stop_reason, '###');
    assert.equal(miss.joined.system_fingerprint, 'fp_fid');

    // The openai client's own assembly (which keeps the last reasoning delta only) agrees on every standard member.
    const final = async () => {
      const completion = await client.chat.completions.stream({ ...params('Weather and time?'), stream_options: { include_usage: true } }).finalChatCompletion();
      for (const choice of completion.choices) delete (choice.message as unknown as Json).reasoning_content;
      return completion;
    };
    const fromCache = await final();
    assert.equal(calls, 1);
    answer = (res) => void sendChunks(res, streamedChunks());
    const live = await client.chat.completions.stream({ ...params('Weather and time?'), stream_options: { include_usage: true } }, { headers: { 'cache-control': 'no-store' } }).finalChatCompletion();
    for (const choice of live.choices) delete (choice.message as unknown as Json).reasoning_content;
    assert.equal(calls, 2);
    assert.deepEqual(fromCache, live);
    assert.deepEqual(fromCache.choices[0]!.logprobs!.content!.map((t) => t.token), ['Checking ', 'both.']);
    assert.deepEqual(fromCache.choices[1]!.message.function_call, { name: 'legacy', arguments: '{"a":1}' });

    // A JSON request on the entry a stream stored gets that answer whole.
    const json = (await client.chat.completions.create(params('Weather and time?'))) as unknown as Json;
    assert.equal(calls, 2);
    const { object: _object, ...jsonRest } = json;
    assert.deepEqual(withoutNulls(jsonRest), withoutNulls(miss.joined));
  });

  it('a JSON miss replayed to a streamed request joins back to the same answer, every member kept', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(jsonAnswer()));
    };
    const { data, response } = await client.chat.completions.create(params('Weather, as JSON?')).withResponse();
    assert.equal(response.headers.get('x-gateway-cache'), 'miss');
    const hit = await streamed('Weather, as JSON?');
    assert.equal(hit.cache, 'hit');
    assert.equal(calls, 1);
    const { object: _object, ...missRest } = data as unknown as Json;
    assert.deepEqual(withoutNulls(hit.joined), withoutNulls(missRest));
  });
});
