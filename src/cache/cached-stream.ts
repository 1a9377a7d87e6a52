// Streams and cached answers: a relayed OpenAI stream assembled into one JSON answer, and a cached answer replayed as stream chunks.
import type { ModelEndpoint } from '../plugins/plugin-types.js';

type Json = Record<string, unknown>;

interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

interface ChunkChoice {
  index?: number;
  delta?: { role?: string; content?: string | null; refusal?: string | null; tool_calls?: ToolCallDelta[] };
  text?: string;
  finish_reason?: string | null;
}

const HEAD_FIELDS = ['id', 'created', 'model', 'system_fingerprint', 'service_tier'] as const;

/** Adds one chat delta to the message being assembled. */
function addChatDelta(message: Json, delta: NonNullable<ChunkChoice['delta']>): void {
  if (typeof delta.role === 'string') message.role = delta.role;
  if (typeof delta.content === 'string') message.content = ((message.content as string | null) ?? '') + delta.content;
  if (typeof delta.refusal === 'string') message.refusal = ((message.refusal as string | null) ?? '') + delta.refusal;
  for (const call of delta.tool_calls ?? []) {
    const calls = (message.tool_calls ??= []) as Array<{ id?: string; type: string; function: { name: string; arguments: string } }>;
    const index = call.index ?? calls.length;
    const target = (calls[index] ??= { type: 'function', function: { name: '', arguments: '' } });
    if (call.id) target.id = call.id;
    if (call.type) target.type = call.type;
    if (call.function?.name) target.function.name = call.function.name;
    if (call.function?.arguments) target.function.arguments += call.function.arguments;
  }
}

/**
 * Assembles the payloads of a relayed stream (chat or completions chunks in OpenAI's format, `[DONE]` ignored) into
 * the JSON answer the same request would have had without `stream`. Undefined when a payload is not a JSON chunk.
 */
export function assembleStreamAnswer(endpoint: ModelEndpoint, payloads: readonly string[]): Json | undefined {
  const head: Json = {};
  const choices: Json[] = [];
  let usage: unknown;
  for (const payload of payloads) {
    if (payload === '[DONE]') continue;
    let chunk: Json & { choices?: ChunkChoice[] };
    try {
      chunk = JSON.parse(payload) as typeof chunk;
    } catch {
      return undefined;
    }
    if (!chunk || typeof chunk !== 'object' || chunk.error !== undefined) return undefined;
    for (const field of HEAD_FIELDS) if (head[field] === undefined && chunk[field] !== undefined && chunk[field] !== null) head[field] = chunk[field];
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const index = choice.index ?? 0;
      const target = (choices[index] ??=
        endpoint === 'chat'
          ? { index, message: { role: 'assistant', content: null }, logprobs: null, finish_reason: null }
          : { index, text: '', logprobs: null, finish_reason: null });
      if (endpoint === 'chat' && choice.delta) addChatDelta(target.message as Json, choice.delta);
      if (endpoint !== 'chat' && typeof choice.text === 'string') target.text = (target.text as string) + choice.text;
      if (choice.finish_reason) target.finish_reason = choice.finish_reason;
    }
  }
  if (choices.length === 0) return undefined;
  return {
    ...head,
    object: endpoint === 'chat' ? 'chat.completion' : 'text_completion',
    choices: choices.filter(Boolean),
    ...(usage ? { usage } : {}),
  };
}

/** The chunks of one chat choice: role, content, refusal and tool calls, then the finish reason. */
function chatChoiceChunks(choice: Json): Json[] {
  const index = choice.index ?? 0;
  const message = (choice.message ?? {}) as Json;
  const delta = (fields: Json): Json => ({ index, delta: fields, logprobs: null, finish_reason: null });
  const chunks: Json[] = [delta({ role: message.role ?? 'assistant', content: '' })];
  if (typeof message.content === 'string' && message.content !== '') chunks.push(delta({ content: message.content }));
  if (typeof message.refusal === 'string' && message.refusal !== '') chunks.push(delta({ refusal: message.refusal }));
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
  if (calls.length > 0) chunks.push(delta({ tool_calls: calls.map((call, callIndex) => ({ index: callIndex, ...call })) }));
  chunks.push({ index, delta: {}, logprobs: null, finish_reason: choice.finish_reason ?? 'stop' });
  return chunks;
}

/**
 * The stream payloads (JSON texts, then `[DONE]`) that replay a cached chat or completions answer: per choice, a role
 * chunk, the whole content in one chunk, the tool calls in one chunk and the finish reason; then, when the client
 * asked for `stream_options.include_usage`, a usage chunk with no choices, as OpenAI sends it.
 */
export function replayPayloads(endpoint: ModelEndpoint, answer: Json, includeUsage: boolean): string[] {
  const head: Json = {};
  for (const field of HEAD_FIELDS) if (answer[field] !== undefined) head[field] = answer[field];
  const object = endpoint === 'chat' ? 'chat.completion.chunk' : 'text_completion';
  const choices = Array.isArray(answer.choices) ? (answer.choices as Json[]) : [];
  const chunkChoices =
    endpoint === 'chat'
      ? choices.flatMap(chatChoiceChunks)
      : choices.map((choice) => ({ index: choice.index ?? 0, text: choice.text ?? '', logprobs: null, finish_reason: choice.finish_reason ?? 'stop' }));
  const payloads = chunkChoices.map((choice) => JSON.stringify({ ...head, object, choices: [choice] }));
  if (includeUsage && answer.usage) payloads.push(JSON.stringify({ ...head, object, choices: [], usage: answer.usage }));
  payloads.push('[DONE]');
  return payloads;
}
