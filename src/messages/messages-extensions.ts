// Extended thinking and prompt caching of a Messages request: their schemas, Anthropic's rules, and their OpenAI-form carriers.
import { Errors } from '../errors/error-registry.js';

/** The longest thinking block signature taken back in a conversation (Anthropic's are a few hundred to a few thousand characters). */
export const MAX_THINKING_SIGNATURE_LENGTH = 64 * 1024;
/** The longest redacted thinking block (`data`, encrypted thinking) taken back in a conversation. */
export const MAX_REDACTED_THINKING_LENGTH = 4 * 1024 * 1024;
/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** A prompt cache breakpoint: `{type: 'ephemeral'}`, with a `ttl` of `5m` (the default) or `1h`. */
export const CACHE_CONTROL_SCHEMA = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: { type: { enum: ['ephemeral'] }, ttl: { enum: ['5m', '1h'] } },
} as const;

/**
 * `thinking`: `{type: 'enabled', budget_tokens}`, `{type: 'disabled'}`, `{type: 'between_tools'}`, or
 * `{type: 'adaptive'}` (the model decides how much to think; a `display` word and a `budget_tokens` are passed on as
 * sent). The budget's rules are checked by
 * {@link checkThinking}.
 */
export const THINKING_SCHEMA = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { enum: ['enabled', 'disabled', 'adaptive', 'between_tools'] },
    budget_tokens: { type: 'integer', minimum: MIN_THINKING_BUDGET },
    display: { type: 'string', pattern: '^[a-z_]{1,32}$' },
  },
} as const;

/** Efforts Anthropic takes in `output_config.effort`. */
export const OUTPUT_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

/**
 * `output_config`: an `effort` and a JSON schema `format` (structured outputs). Another member is 400 naming it, never
 * dropped: it would change the answer.
 */
export const OUTPUT_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    effort: { enum: [...OUTPUT_EFFORTS, null] },
    format: {
      type: ['object', 'null'],
      required: ['type', 'schema'],
      additionalProperties: false,
      properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
    },
  },
} as const;

/** The members of a content block beyond its `type` that the schema bounds: a breakpoint, and a thinking block's opaque fields. */
export const BLOCK_EXTENSION_PROPERTIES = {
  cache_control: CACHE_CONTROL_SCHEMA,
  thinking: { type: 'string' },
  signature: { type: 'string', maxLength: MAX_THINKING_SIGNATURE_LENGTH },
  data: { type: 'string', maxLength: MAX_REDACTED_THINKING_LENGTH },
} as const;

/** A Messages request's `thinking`. */
export type MessagesThinking =
  | { type: 'enabled'; budget_tokens?: number; display?: string }
  | { type: 'disabled'; budget_tokens?: number; display?: string }
  | { type: 'adaptive'; budget_tokens?: number; display?: string }
  | { type: 'between_tools'; budget_tokens?: number; display?: string };

type Block = Record<string, unknown>;

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

/**
 * Anthropic's rules for `thinking`: enabled needs `budget_tokens`, at least 1,024 and below `max_tokens`; adaptive may
 * carry one (held to the same bounds) and a `display`; disabled and between_tools take neither.
 */
export function checkThinking(thinking: MessagesThinking, maxTokens: number): void {
  if (thinking.type === 'disabled' || thinking.type === 'between_tools') {
    if (thinking.budget_tokens !== undefined) invalid('thinking.budget_tokens is only taken with thinking of type enabled or adaptive.', 'thinking.budget_tokens');
    if (thinking.display !== undefined) invalid('thinking.display is only taken with thinking of type enabled or adaptive.', 'thinking.display');
    return;
  }
  if (thinking.budget_tokens === undefined) {
    if (thinking.type === 'adaptive') return;
    invalid('thinking.budget_tokens is required with thinking of type enabled (at least 1024, below max_tokens).', 'thinking.budget_tokens');
  }
  if (thinking.budget_tokens >= maxTokens) {
    invalid(`thinking.budget_tokens (${thinking.budget_tokens}) must be below max_tokens (${maxTokens}): thinking counts toward max_tokens.`, 'thinking.budget_tokens');
  }
}

/** A checked `thinking` as the OpenAI-form chat body carries it: its type, and its budget and display when sent. */
export function chatThinking(thinking: MessagesThinking): Record<string, unknown> {
  if (thinking.type === 'disabled' || thinking.type === 'between_tools') return { type: thinking.type };
  return {
    type: thinking.type,
    ...(thinking.budget_tokens === undefined ? {} : { budget_tokens: thinking.budget_tokens }),
    ...(thinking.display === undefined ? {} : { display: thinking.display }),
  };
}

/** `{ cache_control }` of a block when it has one, else `{}`: for spreading into its OpenAI-form part, call, message or tool. */
export function breakpointOf(block: Block): { cache_control?: unknown } {
  return block.cache_control === undefined ? {} : { cache_control: block.cache_control };
}

/**
 * A thinking or redacted thinking block of an assistant turn as it goes in the turn's `thinking_blocks`: exactly its
 * text and signature, or its data (never changed: Anthropic checks them). 400 naming the block when a member is missing
 * or it carries a cache breakpoint, which Anthropic does not take on thinking.
 */
export function historyThinkingBlock(item: Block, where: string): Block {
  if (item.cache_control !== undefined) invalid(`${where}.cache_control is not taken on a thinking block: Anthropic caches thinking with the turn it belongs to.`, `${where}.cache_control`);
  if (item.type === 'redacted_thinking') {
    if (typeof item.data !== 'string') invalid(`${where}.data is required: a redacted thinking block is sent back as it came.`, `${where}.data`);
    return { type: 'redacted_thinking', data: item.data };
  }
  if (typeof item.thinking !== 'string') invalid(`${where}.thinking is required.`, `${where}.thinking`);
  if (typeof item.signature !== 'string') invalid(`${where}.signature is required: a thinking block is sent back with the signature it came with.`, `${where}.signature`);
  return { type: 'thinking', thinking: item.thinking, signature: item.signature };
}

/** The breakpoint of a tool result: its own, else the last one of its content's blocks (the result is one message in OpenAI form). */
export function toolResultBreakpoint(item: Block): { cache_control?: unknown } {
  if (item.cache_control !== undefined) return { cache_control: item.cache_control };
  const blocks = Array.isArray(item.content) ? (item.content as unknown[]) : [];
  for (let index = blocks.length - 1; index >= 0; index--) {
    const block = blocks[index];
    if (typeof block === 'object' && block !== null && (block as Block).cache_control !== undefined) return { cache_control: (block as Block).cache_control };
  }
  return {};
}
