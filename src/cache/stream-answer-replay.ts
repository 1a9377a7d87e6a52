// A cached JSON answer replayed as OpenAI stream chunks that a client joins back into the same answer.
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { HEAD_FIELDS, membersOf } from './stream-answer-assembly.js';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Message members replayed by their own rule; any other (non-null) member goes out as it is, in one delta. */
const MESSAGE_HANDLED = new Set(['role', 'content', 'refusal', 'reasoning_content', 'reasoning', 'thinking_blocks', 'tool_calls', 'function_call']);
/** Choice members replayed by their own rule; any other (a server's `stop_reason`) goes out with the finish reason. */
const CHOICE_HANDLED = new Set(['index', 'message', 'text', 'logprobs', 'finish_reason']);

/** The choice members other than those with a rule of their own, non-null ones only. */
function others(holder: Json, handled: ReadonlySet<string>): Json {
  const rest: Json = {};
  for (const [key, value] of membersOf(holder)) if (!handled.has(key) && value !== null && value !== undefined) rest[key] = value;
  return rest;
}

/**
 * The deltas of a message's thinking: per thinking block, its text (as `reasoning_content`, or `reasoning` when the
 * answer named it so) then the block with its signature and no text (as Anthropic's signature ends a block); a
 * redacted block as it is. Without thinking blocks, the reasoning text in one delta.
 */
function thinkingDeltas(message: Json): Json[] {
  const field = typeof message.reasoning_content !== 'string' && typeof message.reasoning === 'string' ? 'reasoning' : 'reasoning_content';
  const blocks = Array.isArray(message.thinking_blocks) ? message.thinking_blocks.filter(isRecord) : [];
  if (blocks.length === 0) {
    return ['reasoning_content', 'reasoning'].flatMap((key) => (typeof message[key] === 'string' && message[key] !== '' ? [{ [key]: message[key] }] : []));
  }
  return blocks.flatMap((block): Json[] => {
    if (block.type !== 'thinking') return [{ thinking_blocks: [block] }];
    const text = typeof block.thinking === 'string' && block.thinking !== '' ? [{ [field]: block.thinking }] : [];
    return [...text, { thinking_blocks: [{ type: 'thinking', thinking: '', signature: typeof block.signature === 'string' ? block.signature : '' }] }];
  });
}

/**
 * The chunks of one chat choice: role; thinking; content; its logprobs; refusal; tool calls (each with its index, id,
 * type, name and whole arguments); a legacy `function_call`; any other message member; then the finish reason with the
 * choice's other members.
 */
function chatChoiceChunks(choice: Json): Json[] {
  const index = choice.index ?? 0;
  const message = isRecord(choice.message) ? choice.message : {};
  const delta = (fields: Json): Json => ({ index, delta: fields, logprobs: null, finish_reason: null });
  const chunks: Json[] = [delta({ role: message.role ?? 'assistant', content: '' }), ...thinkingDeltas(message).map(delta)];
  if (typeof message.content === 'string' && message.content !== '') chunks.push(delta({ content: message.content }));
  if (isRecord(choice.logprobs)) chunks.push({ index, delta: {}, logprobs: choice.logprobs, finish_reason: null });
  if (typeof message.refusal === 'string' && message.refusal !== '') chunks.push(delta({ refusal: message.refusal }));
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
  if (calls.length > 0) chunks.push(delta({ tool_calls: calls.map((call, callIndex) => ({ index: callIndex, ...call })) }));
  if (isRecord(message.function_call)) chunks.push(delta({ function_call: message.function_call }));
  const rest = others(message, MESSAGE_HANDLED);
  if (Object.keys(rest).length > 0) chunks.push(delta(rest));
  chunks.push({ index, delta: {}, logprobs: null, finish_reason: choice.finish_reason ?? 'stop', ...others(choice, CHOICE_HANDLED) });
  return chunks;
}

/** The one chunk of a completions choice: its whole text, logprobs, finish reason and other members. */
function completionChoiceChunk(choice: Json): Json {
  const logprobs = isRecord(choice.logprobs) ? choice.logprobs : null;
  return { index: choice.index ?? 0, text: choice.text ?? '', logprobs, finish_reason: choice.finish_reason ?? 'stop', ...others(choice, CHOICE_HANDLED) };
}

/**
 * The stream payloads (JSON texts, then `[DONE]`) that replay a cached chat or completions answer, every choice in
 * turn (see {@link chatChoiceChunks}), with the answer's id, created, model, `system_fingerprint` and `service_tier` on
 * every chunk; then, with `includeUsage` (the client asked for `stream_options.include_usage`), a usage chunk with no
 * choices, as OpenAI sends it. A client that joins the deltas gets the cached answer back.
 */
export function replayPayloads(endpoint: ModelEndpoint, answer: Json, includeUsage: boolean): string[] {
  const head: Json = {};
  for (const field of HEAD_FIELDS) if (answer[field] !== undefined) head[field] = answer[field];
  const object = endpoint === 'chat' ? 'chat.completion.chunk' : 'text_completion';
  const choices = Array.isArray(answer.choices) ? answer.choices.filter(isRecord) : [];
  const chunkChoices = endpoint === 'chat' ? choices.flatMap(chatChoiceChunks) : choices.map(completionChoiceChunk);
  const payloads = chunkChoices.map((choice) => JSON.stringify({ ...head, object, choices: [choice] }));
  if (includeUsage && answer.usage) payloads.push(JSON.stringify({ ...head, object, choices: [], usage: answer.usage }));
  payloads.push('[DONE]');
  return payloads;
}
