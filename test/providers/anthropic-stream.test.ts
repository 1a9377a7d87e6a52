// Tests of the Anthropic stream translator: documented event sequences in, OpenAI chat.completion.chunk payloads out.
import assert from 'node:assert/strict';
import anthropic from '../../plugins/providers/anthropic/index.js';
import { assertCoded, chunksOf, deltasOf, events, makeContext, translateAll } from './provider-test-kit.js';

const translator = (body: Record<string, unknown> = {}) =>
  anthropic.createStreamTranslator!(makeContext('anthropic', { stream: true, body: { messages: [{ role: 'user', content: 'Hi' }], stream: true, ...body } }));

const messageStart = events(['message_start', {
  type: 'message_start',
  message: { id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5-20250929', stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } },
}]);
const textStream = [
  ...messageStart,
  ...events(
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['ping', { type: 'ping' }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '!' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 15 } }],
    ['message_stop', { type: 'message_stop' }],
  ),
];

describe('anthropic stream translator', () => {
  it('translates a text stream: role first, content deltas, finish_reason, then [DONE]', () => {
    const chunks = chunksOf(translateAll(translator(), textStream));
    assert.equal(chunks.length, 4);
    for (const chunk of chunks) {
      assert.equal(chunk.id, 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY');
      assert.equal(chunk.object, 'chat.completion.chunk');
      assert.equal(chunk.model, 'claude-sonnet-4-5-20250929');
      assert.equal(typeof chunk.created, 'number');
      assert.equal('usage' in chunk, false, 'no usage member unless the client asked for it');
    }
    assert.deepEqual(chunks.map((chunk) => chunk.choices), [
      [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: 'Hello' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: '!' }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
    ]);
  });

  it('adds usage: null to every chunk and a final usage chunk when include_usage is asked', () => {
    const chunks = chunksOf(translateAll(translator({ stream_options: { include_usage: true } }), textStream));
    assert.equal(chunks.length, 5);
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage === null));
    assert.deepEqual(chunks.at(-1)?.choices, []);
    assert.deepEqual(chunks.at(-1)?.usage, { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 });
  });

  it('translates tool_use blocks into indexed tool_calls deltas, thinking into reasoning_content and its signature, skipping empty JSON', () => {
    const input = [
      ...messageStart,
      ...events(
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I need the weather.' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Checking.' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 1 }],
        ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} } }],
        ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"location": "San Fra' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'ncisco, CA"}' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 2 }],
        ['content_block_start', { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'toolu_02', name: 'get_time', input: {} } }],
        ['content_block_delta', { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{}' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 3 }],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } }],
        ['message_stop', { type: 'message_stop' }],
      ),
    ];
    const deltas = deltasOf(chunksOf(translateAll(translator(), input)));
    assert.deepEqual(deltas, [
      { role: 'assistant', content: '' },
      { reasoning_content: 'I need the weather.' },
      { thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'EqQBCgIYAhIM' }] },
      { content: 'Checking.' },
      { tool_calls: [{ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"location": "San Fra' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'ncisco, CA"}' } }] },
      { tool_calls: [{ index: 1, id: 'toolu_02', type: 'function', function: { name: 'get_time', arguments: '' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{}' } }] },
      {},
    ]);
    const last = chunksOf(translateAll(translator(), input)).at(-1);
    assert.equal((last?.choices as Array<{ finish_reason: string }>)[0]?.finish_reason, 'tool_calls');
  });

  it('maps max_tokens to length', () => {
    const input = [...messageStart, ...events(
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 4096 } }],
      ['message_stop', { type: 'message_stop' }],
    )];
    const chunks = chunksOf(translateAll(translator(), input));
    assert.equal((chunks.at(-1)?.choices as Array<{ finish_reason: string }>)[0]?.finish_reason, 'length');
  });

  it('reads the type from the data when the event line is missing', () => {
    const bare = textStream.map((event) => ({ data: event.data }));
    assert.equal(chunksOf(translateAll(translator(), bare)).length, 4);
  });

  it('throws upstream_stream_error on an error event, with Anthropic\'s message', () => {
    const stream = translator();
    stream.onEvent(messageStart[0]!);
    const [error] = events(['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    assert.throws(() => stream.onEvent(error!), (thrown: unknown) =>
      (thrown as { code?: string; statusCode?: number; message: string }).code === 'upstream_stream_error'
      && (thrown as { statusCode: number }).statusCode === 502 && /Overloaded/.test((thrown as Error).message));
  });

  it('throws upstream_stream_error when the stream ends before message_stop', () => {
    const stream = translator();
    for (const event of textStream.slice(0, 4)) stream.onEvent(event);
    assertCoded(() => stream.onEnd(), 'upstream_stream_error', 502);
  });

  it('throws upstream_invalid_response on an event that is not JSON', () => {
    assertCoded(() => translator().onEvent({ event: 'message_start', data: '{oops' }), 'upstream_invalid_response', 502);
  });
});
