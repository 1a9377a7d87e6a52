// Tests of the Gemini stream translator: streamGenerateContent chunks in, OpenAI chat.completion.chunk payloads out.
import assert from 'node:assert/strict';
import gemini from '../../plugins/providers/gemini/index.js';
import { assertCoded, chunksOf, deltasOf, events, makeContext, translateAll } from './provider-test-kit.js';

const translator = (body: Record<string, unknown> = {}) =>
  gemini.createStreamTranslator!(makeContext('gemini', { model: 'gemini-2.5-flash', stream: true, body: { messages: [{ role: 'user', content: 'Hi' }], ...body } }));

const usage = (candidates: number) => ({ promptTokenCount: 9, candidatesTokenCount: candidates, totalTokenCount: 9 + candidates });
const piece = (parts: unknown[], extra: Record<string, unknown> = {}, tokens = 3) => ({
  candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
  usageMetadata: usage(tokens), modelVersion: 'gemini-2.5-flash', responseId: 'resp-42',
});
const textStream = events(
  [undefined, piece([{ text: 'The sky' }])],
  [undefined, piece([{ text: ' is blue' }], {}, 5)],
  [undefined, piece([{ text: '.' }], { finishReason: 'STOP' }, 6)],
);

describe('gemini stream translator', () => {
  it('translates text chunks: role first, content deltas, finish_reason, then [DONE]', () => {
    const chunks = chunksOf(translateAll(translator(), textStream));
    assert.ok(chunks.every((chunk) => chunk.id === 'resp-42' && chunk.model === 'gemini-2.5-flash' && chunk.object === 'chat.completion.chunk'));
    assert.deepEqual(chunks.map((chunk) => chunk.choices), [
      [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: 'The sky' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: ' is blue' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: '.' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
    ]);
  });

  it('sends the last usageMetadata as the usage chunk when include_usage is asked', () => {
    const chunks = chunksOf(translateAll(translator({ stream_options: { include_usage: true } }), textStream));
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
    assert.deepEqual(chunks.at(-1), { id: 'resp-42', object: 'chat.completion.chunk', created: chunks.at(-1)?.created, model: 'gemini-2.5-flash', choices: [], usage: { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 } });
  });

  it('sends each functionCall as one complete tool_calls delta and finishes with tool_calls', () => {
    const input = events([undefined, piece([
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
      { functionCall: { id: 'fc-2', name: 'get_time', args: {} } },
    ], { finishReason: 'STOP' })]);
    const deltas = deltasOf(chunksOf(translateAll(translator(), input))) as Array<{ tool_calls?: Array<Record<string, unknown>> }>;
    assert.equal(deltas.length, 4);
    const [first, second] = [deltas[1]?.tool_calls?.[0], deltas[2]?.tool_calls?.[0]];
    assert.equal(first?.index, 0);
    assert.match(String(first?.id), /^call-/);
    assert.deepEqual({ ...first, id: 'x' }, { index: 0, id: 'x', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    assert.deepEqual(second, { index: 1, id: 'fc-2', type: 'function', function: { name: 'get_time', arguments: '{}' } });
    const chunks = chunksOf(translateAll(translator(), input));
    assert.equal((chunks.at(-1)?.choices as Array<{ finish_reason: string }>)[0]?.finish_reason, 'tool_calls');
  });

  it('maps MAX_TOKENS and SAFETY, and ends a blocked prompt with content_filter', () => {
    const reason = (finishReason: string) => {
      const chunks = chunksOf(translateAll(translator(), events([undefined, piece([{ text: 'x' }], { finishReason })])));
      return (chunks.at(-1)?.choices as Array<{ finish_reason: string }>)[0]?.finish_reason;
    };
    assert.equal(reason('MAX_TOKENS'), 'length');
    assert.equal(reason('SAFETY'), 'content_filter');
    const blocked = chunksOf(translateAll(translator(), events([undefined, { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: usage(0) }])));
    assert.deepEqual(deltasOf(blocked), [{ role: 'assistant', content: '' }, {}]);
    assert.equal((blocked.at(-1)?.choices as Array<{ finish_reason: string }>)[0]?.finish_reason, 'content_filter');
  });

  it('skips thought parts', () => {
    const input = events([undefined, piece([{ text: 'hmm', thought: true }, { text: 'Answer' }], { finishReason: 'STOP' })]);
    assert.deepEqual(deltasOf(chunksOf(translateAll(translator(), input))), [{ role: 'assistant', content: '' }, { content: 'Answer' }, {}]);
  });

  it('throws upstream_stream_error on an error chunk and when the stream ends unfinished', () => {
    const error = events([undefined, { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }]);
    assert.throws(() => translator().onEvent(error[0]!), /overloaded/);
    assertCoded(() => translator().onEvent(error[0]!), 'upstream_stream_error', 502);
    const stream = translator();
    stream.onEvent(textStream[0]!);
    assertCoded(() => stream.onEnd(), 'upstream_stream_error', 502);
  });
});
