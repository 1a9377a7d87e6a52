// Anthropic's members an OpenAI chat body may carry (thinking, cache_control, thinking_blocks): read for adapters that send them, left out for those that cannot.
import { Errors } from '../../../src/plugins/plugin-api.js';

/** A prompt cache breakpoint, as Anthropic takes it on a block or tool. */
export interface CacheControl {
  type: string;
  ttl?: string;
}

/** A thinking block of an earlier assistant turn: its text and signature, or Anthropic's encrypted (redacted) thinking. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/**
 * Extended thinking as requested: on with a budget of tokens, adaptive (the model decides; a budget and display when
 * sent), only between tool calls, or off.
 */
export type ThinkingRequest =
  | { type: 'enabled'; budget_tokens: number; display?: string }
  | { type: 'adaptive'; budget_tokens?: number; display?: string }
  | { type: 'between_tools' }
  | { type: 'disabled' };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

/** The `cache_control` of a part, tool call, tool message or tool, copied (its `type` and `ttl` only); undefined when absent. */
export function readCacheControl(holder: unknown): CacheControl | undefined {
  const value = isRecord(holder) ? holder.cache_control : undefined;
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  return typeof value.ttl === 'string' ? { type: value.type, ttl: value.ttl } : { type: value.type };
}

/** `{ cache_control }` when the holder has one, else `{}`: for spreading into a block. */
export function cacheControlMember(holder: unknown): { cache_control?: CacheControl } {
  const found = readCacheControl(holder);
  return found ? { cache_control: found } : {};
}

/** Anthropic's own members of a tool, with the check of each value's shape: examples of its input, tool search, streaming and callers. */
const ANTHROPIC_TOOL_MEMBER_SHAPES: Readonly<Record<string, { valid: (value: unknown) => boolean; shape: string }>> = {
  input_examples: { valid: (value) => Array.isArray(value) && value.every(isRecord), shape: 'an array of example inputs (objects)' },
  defer_loading: { valid: (value) => typeof value === 'boolean', shape: 'a boolean' },
  eager_input_streaming: { valid: (value) => typeof value === 'boolean', shape: 'a boolean' },
  allowed_callers: { valid: (value) => Array.isArray(value) && value.every((caller) => typeof caller === 'string'), shape: 'an array of caller names' },
};

/** The names of Anthropic's own tool members a chat tool may carry beside `function` (only the Anthropic adapter sends them on). */
export const ANTHROPIC_TOOL_MEMBERS: readonly string[] = Object.keys(ANTHROPIC_TOOL_MEMBER_SHAPES);

/**
 * Anthropic's own members of a chat tool (`input_examples`, `defer_loading`, `eager_input_streaming`,
 * `allowed_callers`), as sent; undefined when it has none (null counts as absent). A value of another shape is 400
 * naming it (`tools[0].defer_loading`).
 */
export function readAnthropicToolMembers(tool: Record<string, unknown>, where: string): Record<string, unknown> | undefined {
  const members: Record<string, unknown> = {};
  for (const [name, { valid, shape }] of Object.entries(ANTHROPIC_TOOL_MEMBER_SHAPES)) {
    const value = tool[name];
    if (value === undefined || value === null) continue;
    if (!valid(value)) invalid(`${where}.${name} must be ${shape}.`, `${where}.${name}`);
    members[name] = value;
  }
  return Object.keys(members).length > 0 ? members : undefined;
}

/** An assistant message's `thinking_blocks`, checked (400 naming the block); undefined when absent. */
export function readThinkingBlocks(value: unknown, param: string): ThinkingBlock[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return invalid(`${param} must be an array of thinking blocks.`, param);
  return value.map((block: unknown, index): ThinkingBlock => {
    const where = `${param}[${index}]`;
    if (isRecord(block) && block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string') {
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    }
    if (isRecord(block) && block.type === 'redacted_thinking' && typeof block.data === 'string') return { type: 'redacted_thinking', data: block.data };
    return invalid(`${where} must be {"type":"thinking","thinking","signature"} or {"type":"redacted_thinking","data"}.`, where);
  });
}

/** A thinking budget as Anthropic takes it: an integer of at least 1,024 tokens. */
const isBudget = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1024;
/** A `display` word: lower-case letters and underscores, at most 32. */
const DISPLAY = /^[a-z_]{1,32}$/;

/**
 * The body's `thinking` (undefined when absent): `{type: 'enabled', budget_tokens}` or `{type: 'adaptive'}` with an
 * optional budget, each with an optional `display` word, or `{type: 'between_tools'}` or `{type: 'disabled'}`. Another shape (a chat
 * client may send one; POST /v1/messages has checked its own) is 400 naming the member, never dropped.
 */
export function readThinking(body: Record<string, unknown>): ThinkingRequest | undefined {
  const thinking = body.thinking;
  if (thinking === undefined || thinking === null) return undefined;
  if (!isRecord(thinking)) return invalid('thinking must be an object: {"type":"enabled","budget_tokens":N}, {"type":"adaptive"} or {"type":"disabled"}.', 'thinking');
  for (const key of Object.keys(thinking)) {
    if (key !== 'type' && key !== 'budget_tokens' && key !== 'display') invalid(`thinking.${key} is not a member of thinking.`, `thinking.${key}`);
  }
  if (thinking.type === 'disabled' || thinking.type === 'between_tools') {
    if (thinking.budget_tokens !== undefined || thinking.display !== undefined) invalid(`thinking of type ${thinking.type} takes neither budget_tokens nor display.`, 'thinking');
    return { type: thinking.type };
  }
  if (thinking.type !== 'enabled' && thinking.type !== 'adaptive') return invalid('thinking.type must be enabled, adaptive, between_tools or disabled.', 'thinking.type');
  if (thinking.display !== undefined && (typeof thinking.display !== 'string' || !DISPLAY.test(thinking.display))) {
    invalid('thinking.display must be a word of lower-case letters and underscores, at most 32.', 'thinking.display');
  }
  if (thinking.budget_tokens !== undefined && !isBudget(thinking.budget_tokens)) invalid('thinking.budget_tokens must be an integer of at least 1024.', 'thinking.budget_tokens');
  if (thinking.type === 'enabled' && thinking.budget_tokens === undefined) invalid('thinking.budget_tokens is required with thinking of type enabled.', 'thinking.budget_tokens');
  const display = typeof thinking.display === 'string' ? { display: thinking.display } : {};
  const budget = typeof thinking.budget_tokens === 'number' ? { budget_tokens: thinking.budget_tokens } : {};
  return thinking.type === 'enabled' ? { type: 'enabled', budget_tokens: thinking.budget_tokens as number, ...display } : { type: 'adaptive', ...budget, ...display };
}

/** Efforts Anthropic takes in `output_config.effort`. */
const OUTPUT_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];

/**
 * Anthropic's `output_config.effort` riding on a chat body (from POST /v1/messages, or a chat client's own), checked:
 * undefined when absent; an effort not in Anthropic's list, or another member of `output_config`, is 400 naming it
 * (a JSON schema output format comes as `response_format`).
 */
export function readOutputEffort(body: Record<string, unknown>): string | undefined {
  const config = body.output_config;
  if (config === undefined || config === null) return undefined;
  if (!isRecord(config)) return invalid('output_config must be an object.', 'output_config');
  for (const key of Object.keys(config)) {
    if (key !== 'effort') invalid(`output_config.${key} is not taken on a chat body${key === 'format' ? ': send a response_format of type json_schema' : ''}.`, `output_config.${key}`);
  }
  if (config.effort === undefined || config.effort === null) return undefined;
  if (typeof config.effort !== 'string' || !OUTPUT_EFFORTS.includes(config.effort)) invalid(`output_config.effort must be one of ${OUTPUT_EFFORTS.join(', ')}.`, 'output_config.effort');
  return config.effort;
}

/** The thinking budget an OpenAI `reasoning_effort` asks of a model that takes a budget (Anthropic, Gemini); `none` asks none. */
const EFFORT_BUDGETS: Readonly<Record<string, number | undefined>> = { none: undefined, minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768 };

/** The smallest thinking budget Anthropic takes. */
const MIN_THINKING_BUDGET = 1024;

/**
 * Thinking for an OpenAI client's `reasoning_effort` (`minimal` 1,024 tokens, `low` 2,048, `medium` 8,192, `high`
 * 16,384, `xhigh` 32,768; `none` and absent: undefined), for adapters whose models think to a budget. With
 * `maxTokens` (the client's limit, which counts thinking as OpenAI's does) the budget is at most half of it, and a
 * limit that leaves less than Anthropic's smallest budget is 400 naming `reasoning_effort`; without one the adapter
 * adds the budget to its default. Another value is 400 naming `reasoning_effort`.
 */
export function thinkingForEffort(body: Record<string, unknown>, maxTokens?: number): { type: 'enabled'; budget_tokens: number } | undefined {
  const effort = body.reasoning_effort;
  if (effort === undefined || effort === null) return undefined;
  if (typeof effort !== 'string' || !Object.hasOwn(EFFORT_BUDGETS, effort)) {
    return invalid(`reasoning_effort must be one of ${Object.keys(EFFORT_BUDGETS).join(', ')}.`, 'reasoning_effort');
  }
  const budget = EFFORT_BUDGETS[effort];
  if (budget === undefined) return undefined;
  if (maxTokens === undefined) return { type: 'enabled', budget_tokens: budget };
  const capped = Math.min(budget, Math.floor(maxTokens / 2));
  if (capped < MIN_THINKING_BUDGET) {
    return invalid(`reasoning_effort ${effort} needs max_tokens (or max_completion_tokens) of at least ${2 * MIN_THINKING_BUDGET} on this provider: thinking counts toward it.`, 'reasoning_effort');
  }
  return { type: 'enabled', budget_tokens: capped };
}

/**
 * The `reasoning_effort` an OpenAI-format model gets for a thinking budget: under 4,096 tokens `low`, under 16,384
 * `medium`, else `high`. Undefined for thinking that is off, or adaptive without a budget: such a model reasons as it is configured to.
 */
export function reasoningEffortOf(thinking: ThinkingRequest | undefined): 'low' | 'medium' | 'high' | undefined {
  if (thinking?.type === 'disabled' || thinking?.type === 'between_tools' || thinking?.budget_tokens === undefined) return undefined;
  if (thinking.budget_tokens < 4096) return 'low';
  return thinking.budget_tokens < 16384 ? 'medium' : 'high';
}

/** A copy of a tool without its breakpoint and Anthropic's own members (the same object when it has none). */
function withoutAnthropicToolMembers(tool: unknown): unknown {
  const rest = withoutCacheControl(tool);
  if (!isRecord(rest) || !ANTHROPIC_TOOL_MEMBERS.some((name) => name in rest)) return rest;
  return Object.fromEntries(Object.entries(rest).filter(([name]) => !ANTHROPIC_TOOL_MEMBERS.includes(name)));
}

/** A copy of a part, message or tool without its `cache_control` (the same object when it has none). */
function withoutCacheControl<T>(holder: T): T {
  if (!isRecord(holder) || !('cache_control' in holder)) return holder;
  const { cache_control: _dropped, ...rest } = holder;
  return rest as T;
}

/**
 * Content that was parts only to carry breakpoints, as the text the translation otherwise sends (blocks joined by
 * `separator`: a blank line between system blocks, nothing between a turn's); parts with an image stay parts.
 */
function textOrParts(parts: unknown[], separator: string): unknown {
  const texts = parts.map((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : undefined));
  return texts.every((text) => text !== undefined) ? texts.join(separator) : parts;
}

/**
 * The body of a POST /v1/messages request as an OpenAI-format server takes it: without Anthropic's members, which it
 * would refuse (`thinking_blocks` of assistant messages, `cache_control` of parts, tool calls, messages and tools: such
 * servers cache prompts by themselves; text parts that carried breakpoints are joined back into text, and the
 * top-level breakpoint), without `top_k` (OpenAI has no counterpart), `output_config` (its effort is Anthropic's),
 * `service_tier` (Anthropic's capacity choice, not OpenAI's tiers) and `context_management` (Anthropic's context editing),
 * and with
 * `thinking` as `reasoning_effort` (see {@link reasoningEffortOf}) unless the body sets one. The body is not changed:
 * what it does not carry is shared, the rest copied.
 */
export function withoutAnthropicMembers(body: Record<string, unknown>): Record<string, unknown> {
  const { thinking: _thinking, top_k: _topK, output_config: _output, cache_control: _cache, service_tier: _tier, context_management: _context, ...rest } = body;
  const effort = reasoningEffortOf(readThinking(body));
  if (effort !== undefined && rest.reasoning_effort === undefined) rest.reasoning_effort = effort;
  if (Array.isArray(body.messages)) {
    rest.messages = body.messages.map((message: unknown) => {
      if (!isRecord(message)) return message;
      const { thinking_blocks: _blocks, ...kept } = withoutCacheControl(message);
      if (Array.isArray(kept.content)) kept.content = textOrParts(kept.content.map(withoutCacheControl), kept.role === 'system' || kept.role === 'developer' ? '\n\n' : '');
      if (Array.isArray(kept.tool_calls)) kept.tool_calls = kept.tool_calls.map(withoutCacheControl);
      return kept;
    });
  }
  if (Array.isArray(body.tools)) rest.tools = body.tools.map(withoutAnthropicToolMembers);
  return rest;
}
