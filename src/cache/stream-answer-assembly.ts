// A relayed OpenAI stream assembled into the JSON answer the response cache stores: every member a client joins from the deltas kept.
import type { ModelEndpoint } from '../plugins/plugin-types.js';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The own members of a parsed object, but a `__proto__` one (assigning it would change the target's prototype). */
export const membersOf = (value: Json): Array<[string, unknown]> => Object.entries(value).filter(([key]) => key !== '__proto__');

/** The chunk members kept as the answer's own (the first non-null one of each); `usage` is kept from the last chunk that has it. */
export const HEAD_FIELDS = ['id', 'created', 'model', 'system_fingerprint', 'service_tier'] as const;

/** Delta members assembled by their own rule; any other member's strings are joined, and other values kept as last sent. */
const JOINED_REASONING = ['reasoning_content', 'reasoning'] as const;

/**
 * One choice as it is assembled: the JSON choice, the thinking text not yet closed by a signed thinking block, and its
 * tool calls by their `index` (a map, not an array: an index is the upstream's number, and a huge one must not make a
 * sparse list the cache would write out element by element).
 */
interface ChoiceState {
  choice: Json;
  openThinking: string;
  calls: Map<number, Json>;
}

/** The values of a map keyed by stream indexes, in index order. */
const inIndexOrder = <T>(byIndex: ReadonlyMap<number, T>): T[] => [...byIndex].sort(([a], [b]) => a - b).map(([, value]) => value);

/** `target[key]` with `text` appended (a missing or null member counts as empty). */
function join(target: Json, key: string, text: string): void {
  const before = target[key];
  target[key] = (typeof before === 'string' ? before : '') + text;
}

/** Merges a chunk's `logprobs` into the choice's: lists (tokens, refusal tokens, completion offsets) appended, other members set. */
function addLogprobs(choice: Json, logprobs: unknown): void {
  if (!isRecord(logprobs)) return;
  const target = isRecord(choice.logprobs) ? choice.logprobs : (choice.logprobs = {});
  for (const [key, value] of membersOf(logprobs)) {
    if (Array.isArray(value)) target[key] = [...(Array.isArray(target[key]) ? target[key] : []), ...value];
    else if (value !== null || !(key in target)) target[key] = value;
  }
}

/** Adds one streamed tool call to the choice's calls, by its `index`: id, type and name set, arguments appended. */
function addToolCall(calls: Map<number, Json>, call: Json): void {
  const index = typeof call.index === 'number' ? call.index : calls.size;
  let target = calls.get(index);
  if (!target) calls.set(index, (target = { type: 'function', function: { name: '', arguments: '' } }));
  const { index: _index, id, type, function: fn, ...rest } = call;
  for (const [key, value] of membersOf(rest)) target[key] = value;
  if (typeof id === 'string' && id !== '') target.id = id;
  if (typeof type === 'string' && type !== '') target.type = type;
  const targetFn = target.function as Json;
  if (isRecord(fn) && typeof fn.name === 'string' && fn.name !== '') targetFn.name = fn.name;
  if (isRecord(fn) && typeof fn.arguments === 'string') join(targetFn, 'arguments', fn.arguments);
}

/**
 * Adds a delta's `thinking_blocks` (Anthropic's thinking through an OpenAI-format stream): a thinking block closes the
 * thinking text streamed since the last block with its signature; a redacted block is kept as it came.
 */
function addThinkingBlocks(message: Json, state: ChoiceState, blocks: unknown): void {
  if (!Array.isArray(blocks)) return;
  const target = (Array.isArray(message.thinking_blocks) ? message.thinking_blocks : (message.thinking_blocks = [])) as Json[];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    if (block.type !== 'thinking') {
      target.push(Object.fromEntries(membersOf(block)));
      continue;
    }
    const text = state.openThinking + (typeof block.thinking === 'string' ? block.thinking : '');
    target.push({ type: 'thinking', thinking: text, signature: typeof block.signature === 'string' ? block.signature : '' });
    state.openThinking = '';
  }
}

/** Adds one chat delta to the message being assembled. */
function addChatDelta(message: Json, state: ChoiceState, delta: Json): void {
  for (const [key, value] of membersOf(delta)) {
    if (value === null || value === undefined) continue;
    if (key === 'role') message.role = value;
    else if (key === 'tool_calls') for (const call of Array.isArray(value) ? value : []) addToolCall(state.calls, isRecord(call) ? call : {});
    else if (key === 'thinking_blocks') addThinkingBlocks(message, state, value);
    else if (key === 'function_call' && isRecord(value)) {
      const target = isRecord(message.function_call) ? message.function_call : (message.function_call = { name: '', arguments: '' });
      if (typeof value.name === 'string' && value.name !== '') target.name = value.name;
      if (typeof value.arguments === 'string') join(target, 'arguments', value.arguments);
    } else if (typeof value === 'string') {
      join(message, key, value);
      if ((JOINED_REASONING as readonly string[]).includes(key)) state.openThinking += value;
    } else message[key] = value;
  }
}

/** Adds one chunk choice (a chat delta or completion text, its logprobs, finish reason and other members) to its assembled choice. */
function addChoice(endpoint: ModelEndpoint, choices: Map<number, ChoiceState>, chunkChoice: Json): void {
  const index = typeof chunkChoice.index === 'number' ? chunkChoice.index : 0;
  let state = choices.get(index);
  if (!state) {
    const choice = endpoint === 'chat' ? { index, message: { role: 'assistant', content: null }, logprobs: null, finish_reason: null } : { index, text: '', logprobs: null, finish_reason: null };
    choices.set(index, (state = { choice, openThinking: '', calls: new Map() }));
  }
  const { index: _index, delta, text, logprobs, finish_reason: finish, ...rest } = chunkChoice;
  const target = state.choice;
  if (endpoint === 'chat' && isRecord(delta)) addChatDelta(target.message as Json, state, delta);
  if (endpoint !== 'chat' && typeof text === 'string') join(target, 'text', text);
  addLogprobs(target, logprobs);
  if (finish) target.finish_reason = finish;
  // Members of the choice itself (a server's `stop_reason`, content filter results): kept as last sent.
  for (const [key, value] of membersOf(rest)) if (value !== null && value !== undefined) target[key] = value;
}

/** Closes what a choice's stream left open: its tool calls, in index order, and thinking text after its last thinking block, as an unsigned block. */
function finishChoice(state: ChoiceState): Json {
  const message = state.choice.message;
  if (isRecord(message) && state.calls.size > 0) message.tool_calls = inIndexOrder(state.calls);
  if (isRecord(message) && Array.isArray(message.thinking_blocks) && state.openThinking !== '') {
    message.thinking_blocks.push({ type: 'thinking', thinking: state.openThinking, signature: '' });
  }
  return state.choice;
}

/**
 * Assembles the payloads of a relayed stream (chat or completions chunks in OpenAI's format, `[DONE]` ignored) into
 * the JSON answer the same request would have had without `stream`, with every member a client joins from the deltas:
 * content, refusal, reasoning (`reasoning_content`, `reasoning`), thinking blocks with their signatures, tool calls,
 * a legacy `function_call`, logprobs, any other member (strings joined), every choice (n > 1), the finish reason and
 * choice members (`stop_reason`), `system_fingerprint`, `service_tier` and usage. Undefined when a payload is not a
 * JSON chunk, or reports an error.
 */
export function assembleStreamAnswer(endpoint: ModelEndpoint, payloads: readonly string[]): Json | undefined {
  const head: Json = {};
  const choices = new Map<number, ChoiceState>();
  let usage: unknown;
  for (const payload of payloads) {
    if (payload === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(payload);
    } catch {
      return undefined;
    }
    if (!isRecord(chunk) || chunk.error !== undefined) return undefined;
    for (const field of HEAD_FIELDS) if (head[field] === undefined && chunk[field] !== undefined && chunk[field] !== null) head[field] = chunk[field];
    if (chunk.usage) usage = chunk.usage;
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) if (isRecord(choice)) addChoice(endpoint, choices, choice);
  }
  if (choices.size === 0) return undefined;
  return {
    ...head,
    object: endpoint === 'chat' ? 'chat.completion' : 'text_completion',
    choices: inIndexOrder(choices).map(finishChoice),
    ...(usage ? { usage } : {}),
  };
}
