// Answer builders of the fake provider: OpenAI, Anthropic and Gemini bodies, streams and errors, shaped as their docs show.

/** The wire formats the fake provider speaks. */
export type WireFormat = 'openai' | 'anthropic' | 'gemini';
/** The endpoints the fake provider serves. */
export type FakeEndpoint = 'chat' | 'completions' | 'embeddings';

/** A tool call the fake answers with instead of text. */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Default `call_fake_1` (OpenAI), `toolu_fake_1` (Anthropic); Gemini sends no id. */
  id?: string;
}

/** What one answer says. */
export interface AnswerSpec {
  format: WireFormat;
  endpoint: FakeEndpoint;
  model: string;
  text: string;
  toolCall?: FakeToolCall;
  /** Number of content pieces a stream splits the text (or tool arguments) into. */
  chunks: number;
  /** OpenAI only: the client asked `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Embeddings: how many inputs, and the vector length. */
  inputs: number;
  dimensions: number;
  /** Anthropic only: prompt-cache tokens reported beside `input_tokens` (which leaves them out). */
  promptCache?: FakePromptCache;
}

/**
 * Anthropic's prompt-cache counts of one answer: tokens read from the cache and written to it; with `write1h`, also
 * Anthropic's `cache_creation` breakdown of `write` (that many to the 1-hour cache, the rest to the 5-minute one).
 */
export interface FakePromptCache {
  read: number;
  write: number;
  write1h?: number;
}

/** A stream as SSE frames: `head` always, then each of `pieces` (the content), then `tail`. */
export interface StreamPlan {
  head: string[];
  pieces: string[];
  tail: string[];
}

/** Token counts every fake answer reports. */
export const FAKE_USAGE = { prompt: 10, completion: 5 } as const;
/** The `created` of every OpenAI answer. */
export const FAKE_CREATED = 1_700_000_000;

/** Splits text into `count` pieces of near-equal length (at least one piece). */
export function splitText(text: string, count: number): string[] {
  const n = Math.max(1, Math.min(count, text.length || 1));
  const size = Math.ceil(text.length / n);
  return Array.from({ length: n }, (_, i) => text.slice(i * size, (i + 1) * size)).filter((piece, i) => piece !== '' || i === 0);
}

/** The deterministic vector of input `i`. */
export function fakeVector(i: number, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, k) => Number(((i + 1) * 0.1 + k * 0.01).toFixed(4)));
}

const frame = (data: unknown, event?: string): string => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** The error body a provider sends with `status`. */
export function errorBody(format: WireFormat, status: number, message: string): unknown {
  if (format === 'anthropic') return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error', message } };
  if (format === 'gemini') return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' } };
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } };
}

function openaiJson(spec: AnswerSpec): unknown {
  const usage = { prompt_tokens: FAKE_USAGE.prompt, completion_tokens: FAKE_USAGE.completion, total_tokens: FAKE_USAGE.prompt + FAKE_USAGE.completion };
  if (spec.endpoint === 'embeddings') {
    const data = Array.from({ length: spec.inputs }, (_, i) => ({ object: 'embedding', index: i, embedding: fakeVector(i, spec.dimensions) }));
    return { object: 'list', data, model: spec.model, usage: { prompt_tokens: FAKE_USAGE.prompt, total_tokens: FAKE_USAGE.prompt } };
  }
  if (spec.endpoint === 'completions') {
    return { id: 'cmpl-fake', object: 'text_completion', created: FAKE_CREATED, model: spec.model, choices: [{ text: spec.text, index: 0, logprobs: null, finish_reason: 'stop' }], usage };
  }
  const call = spec.toolCall;
  const message = call
    ? { role: 'assistant', content: null, tool_calls: [{ id: call.id ?? 'call_fake_1', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }
    : { role: 'assistant', content: spec.text, refusal: null };
  const choice = { index: 0, message, logprobs: null, finish_reason: call ? 'tool_calls' : 'stop' };
  return { id: 'chatcmpl-fake', object: 'chat.completion', created: FAKE_CREATED, model: spec.model, choices: [choice], usage };
}

function openaiStream(spec: AnswerSpec): StreamPlan {
  const base = { id: spec.endpoint === 'chat' ? 'chatcmpl-fake' : 'cmpl-fake', created: FAKE_CREATED, model: spec.model };
  if (spec.endpoint === 'completions') {
    const piece = (text: string, finish: string | null) => frame({ ...base, object: 'text_completion', choices: [{ text, index: 0, logprobs: null, finish_reason: finish }] });
    return { head: [], pieces: splitText(spec.text, spec.chunks).map((t) => piece(t, null)), tail: [piece('', 'stop'), frame('[DONE]')] };
  }
  const extra = spec.includeUsage ? { usage: null } : {};
  const chunk = (delta: unknown, finish: string | null = null) =>
    frame({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra });
  const call = spec.toolCall;
  const head = [chunk(call
    ? { role: 'assistant', content: null, tool_calls: [{ index: 0, id: call.id ?? 'call_fake_1', type: 'function', function: { name: call.name, arguments: '' } }] }
    : { role: 'assistant', content: '', refusal: null })];
  const pieces = call
    ? splitText(JSON.stringify(call.arguments), spec.chunks).map((args) => chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }))
    : splitText(spec.text, spec.chunks).map((content) => chunk({ content }));
  const tail = [chunk({}, call ? 'tool_calls' : 'stop')];
  if (spec.includeUsage) {
    tail.push(frame({ ...base, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: FAKE_USAGE.prompt, completion_tokens: FAKE_USAGE.completion, total_tokens: FAKE_USAGE.prompt + FAKE_USAGE.completion } }));
  }
  tail.push(frame('[DONE]'));
  return { head, pieces, tail };
}

/** Anthropic's input counts: `input_tokens`, and the cache counts when the answer reports them. */
function anthropicInput(spec: AnswerSpec): Record<string, unknown> {
  const cache = spec.promptCache;
  if (!cache) return { input_tokens: FAKE_USAGE.prompt };
  const counts: Record<string, unknown> = { input_tokens: FAKE_USAGE.prompt, cache_creation_input_tokens: cache.write, cache_read_input_tokens: cache.read };
  if (cache.write1h !== undefined) counts.cache_creation = { ephemeral_5m_input_tokens: cache.write - cache.write1h, ephemeral_1h_input_tokens: cache.write1h };
  return counts;
}

function anthropicJson(spec: AnswerSpec): unknown {
  const call = spec.toolCall;
  const content = call ? [{ type: 'tool_use', id: call.id ?? 'toolu_fake_1', name: call.name, input: call.arguments }] : [{ type: 'text', text: spec.text }];
  return {
    id: 'msg_fake', type: 'message', role: 'assistant', model: spec.model, content,
    stop_reason: call ? 'tool_use' : 'end_turn', stop_sequence: null,
    usage: { ...anthropicInput(spec), output_tokens: FAKE_USAGE.completion },
  };
}

function anthropicStream(spec: AnswerSpec): StreamPlan {
  const call = spec.toolCall;
  const event = (type: string, data: Record<string, unknown>) => frame({ type, ...data }, type);
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: spec.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...anthropicInput(spec), output_tokens: 1 } };
  const block = call ? { type: 'tool_use', id: call.id ?? 'toolu_fake_1', name: call.name, input: {} } : { type: 'text', text: '' };
  const pieces = call
    ? splitText(JSON.stringify(call.arguments), spec.chunks).map((partial_json) => event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json } }))
    : splitText(spec.text, spec.chunks).map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
  return {
    head: [event('message_start', { message }), event('content_block_start', { index: 0, content_block: block }), event('ping', {})],
    pieces,
    tail: [
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: call ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: FAKE_USAGE.completion } }),
      event('message_stop', {}),
    ],
  };
}

function geminiUsage(): Record<string, number> {
  return { promptTokenCount: FAKE_USAGE.prompt, candidatesTokenCount: FAKE_USAGE.completion, totalTokenCount: FAKE_USAGE.prompt + FAKE_USAGE.completion };
}

function geminiJson(spec: AnswerSpec): unknown {
  if (spec.endpoint === 'embeddings') return { embeddings: Array.from({ length: spec.inputs }, (_, i) => ({ values: fakeVector(i, spec.dimensions) })) };
  const parts = spec.toolCall ? [{ functionCall: { name: spec.toolCall.name, args: spec.toolCall.arguments } }] : [{ text: spec.text }];
  const candidate = { content: { role: 'model', parts }, finishReason: 'STOP', index: 0 };
  return { candidates: [candidate], usageMetadata: geminiUsage(), modelVersion: spec.model, responseId: 'fake-response-id' };
}

function geminiStream(spec: AnswerSpec): StreamPlan {
  const parts = spec.toolCall
    ? [[{ functionCall: { name: spec.toolCall.name, args: spec.toolCall.arguments } }]]
    : splitText(spec.text, spec.chunks).map((text) => [{ text }]);
  const pieces = parts.map((piece, i) => {
    const last = i === parts.length - 1;
    const candidate = { content: { role: 'model', parts: piece }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
    return frame({ candidates: [candidate], usageMetadata: geminiUsage(), modelVersion: spec.model, responseId: 'fake-response-id' });
  });
  return { head: [], pieces, tail: [] };
}

/** The JSON body of a successful answer. */
export function jsonAnswer(spec: AnswerSpec): unknown {
  if (spec.format === 'anthropic') return anthropicJson(spec);
  if (spec.format === 'gemini') return geminiJson(spec);
  return openaiJson(spec);
}

/** The SSE frames of a successful streamed answer. */
export function streamAnswer(spec: AnswerSpec): StreamPlan {
  if (spec.format === 'anthropic') return anthropicStream(spec);
  if (spec.format === 'gemini') return geminiStream(spec);
  return openaiStream(spec);
}
