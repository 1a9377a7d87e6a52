// Anthropic's request body: OpenAI chat messages, tools and sampling options as a Messages API request.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import {
  contentText, isRecord, maxTokens, numberField, parseArguments, readMessages, readToolChoice, readTools, stopSequences,
  type OpenAiContentPart, type OpenAiMessage,
} from '../shared/openai-chat.js';
import { refuseUnsupportedOptions } from '../shared/unsupported-options.js';
import { cacheControlMember, readOutputEffort, readThinking, thinkingForEffort } from '../shared/chat-extensions.js';
import { anthropicImageBlock, anthropicTool, anthropicToolChoice } from './mapping.js';
import { anthropicDocumentBlock } from '../shared/file-parts.js';

/** The `max_tokens` sent when the client gives none (Anthropic requires it); `config.default_max_tokens` overrides. */
export const DEFAULT_MAX_TOKENS = 4096;

/** One content block of a Messages API turn. */
export type AnthropicBlock = Record<string, unknown>;
/** One turn of a Messages API conversation. */
export interface AnthropicTurn {
  role: 'user' | 'assistant' | 'system';
  content: string | AnthropicBlock[];
}

/** The block of one part: text, an image, or a file as a document. */
function partBlock(part: OpenAiContentPart, where: string): AnthropicBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return part.type === 'image_url' ? anthropicImageBlock(part.image_url.url) : anthropicDocumentBlock(part, where);
}

/** The blocks of a message's content (`where` names it, for errors); empty text parts are left out, as Anthropic refuses them. */
function partBlocks(content: string | OpenAiContentPart[] | null, where: string): AnthropicBlock[] {
  if (content === null || content === '') return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.flatMap((part, index) => (part.type === 'text' && part.text === '' ? [] : [{ ...partBlock(part, `${where}[${index}]`), ...cacheControlMember(part) }]));
}

/** An assistant turn's blocks: its thinking blocks (signatures and redacted data as they came) first, then text and tool calls. */
function assistantBlocks(message: OpenAiMessage, index: number): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [...(message.thinking_blocks ?? []).map((block) => ({ ...block })), ...partBlocks(message.content, `messages[${index}].content`)];
  (message.tool_calls ?? []).forEach((call, callIndex) => {
    const input = parseArguments(call.function.arguments, `messages[${index}].tool_calls[${callIndex}].function.arguments`);
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input, ...cacheControlMember(call) });
  });
  return blocks;
}

function toolResultBlock(message: OpenAiMessage, index: number): AnthropicBlock {
  const content = typeof message.content === 'string' || message.content === null ? contentText(message.content) : partBlocks(message.content, `messages[${index}].content`);
  return { type: 'tool_result', tool_use_id: message.tool_call_id, content, ...cacheControlMember(message) };
}

/**
 * The system blocks of a system or developer message: one text block, or, when a part carries a cache breakpoint, one
 * block per text part (so the breakpoint stays where the client put it). Empty text is left out: Anthropic refuses it.
 */
function systemBlocks(message: OpenAiMessage): AnthropicBlock[] {
  const { content } = message;
  if (Array.isArray(content) && content.some((part) => part.cache_control !== undefined)) {
    return content.flatMap((part) => (part.type === 'text' && part.text !== '' ? [{ type: 'text', text: part.text, ...cacheControlMember(part) }] : []));
  }
  const text = contentText(content);
  return text === '' ? [] : [{ type: 'text', text }];
}

/**
 * Splits OpenAI messages into Anthropic's `system` and turns. System and developer messages join
 * `system` (blank line between), as text blocks when one carries a cache breakpoint (`cache_control`); with
 * `systemInPlace` (a POST /v1/messages request, whose system turns Anthropic takes where they are) those after the
 * first turn stay where they are, as `system` turns, so a later instruction neither moves nor changes the cached
 * prefix; tool messages
 * become `tool_result` blocks of a user turn; consecutive turns of one role merge into one (so consecutive tool
 * results share a turn, as Anthropic requires); a turn of one text block without a breakpoint is sent as a plain string.
 */
export function anthropicMessages(messages: OpenAiMessage[], options: { systemInPlace?: boolean } = {}): { system?: string | AnthropicBlock[]; messages: AnthropicTurn[] } {
  const system: AnthropicBlock[] = [];
  const turns: Array<{ role: AnthropicTurn['role']; content: AnthropicBlock[] }> = [];
  const push = (role: AnthropicTurn['role'], blocks: AnthropicBlock[]): void => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  messages.forEach((message, index) => {
    const instruction = message.role === 'system' || message.role === 'developer';
    if (instruction && options.systemInPlace && turns.length > 0) push('system', systemBlocks(message));
    else if (instruction) system.push(...systemBlocks(message));
    else if (message.role === 'user') push('user', partBlocks(message.content, `messages[${index}].content`));
    else if (message.role === 'assistant') push('assistant', assistantBlocks(message, index));
    else push('user', [toolResultBlock(message, index)]);
  });
  const simplified = turns.map((turn): AnthropicTurn => {
    const only = turn.content.length === 1 ? turn.content[0] : undefined;
    return only?.type === 'text' && only.cache_control === undefined ? { role: turn.role, content: only.text as string } : turn;
  });
  if (system.length === 0) return { messages: simplified };
  const cached = system.some((block) => block.cache_control !== undefined);
  return { system: cached ? system : system.map((block) => block.text as string).join('\n\n'), messages: simplified };
}

/**
 * Anthropic's `output_config`: a `response_format` of type `json_schema` as its `format` (structured outputs; the
 * schema as sent, 400 naming `response_format.json_schema.schema` without one) and `output_config.effort` as sent;
 * undefined when there is neither.
 */
function outputConfig(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const output: Record<string, unknown> = {};
  const format = body.response_format;
  if (isRecord(format) && format.type === 'json_schema') {
    const schema = isRecord(format.json_schema) ? format.json_schema.schema : undefined;
    if (!isRecord(schema)) throw Errors.validation(['response_format.json_schema.schema must be a JSON schema object.'], { param: 'response_format.json_schema.schema' });
    output.format = { type: 'json_schema', schema };
  }
  const effort = readOutputEffort(body);
  if (effort !== undefined) output.effort = effort;
  return Object.keys(output).length > 0 ? output : undefined;
}

/** Adds `tools` and `tool_choice`; `parallel_tool_calls: false` becomes `disable_parallel_tool_use`. */
function addTools(body: Record<string, unknown>, request: Record<string, unknown>): void {
  const tools = readTools(body);
  if (!tools || tools.length === 0) return;
  // `strict` and Anthropic's own members (input examples, deferred loading, eager streaming, callers) as the client sent them.
  request.tools = tools.map((tool) => ({ ...anthropicTool({ name: tool.name, description: tool.description, schema: tool.parameters, strict: tool.strict }), ...cacheControlMember(tool), ...tool.anthropic }));
  const choice = readToolChoice(body);
  let toolChoice = choice ? anthropicToolChoice(choice) : undefined;
  if (body.parallel_tool_calls === false && choice?.mode !== 'none') {
    toolChoice = { ...(toolChoice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  }
  if (toolChoice) request.tool_choice = toolChoice;
}

/**
 * The Messages API body for an OpenAI chat body. Copies `temperature`, `top_p` and `top_k` as given
 * (Anthropic accepts temperature 0-1 and answers 400 above), `stop` → `stop_sequences`,
 * `max_completion_tokens` or `max_tokens` → `max_tokens` (default {@link DEFAULT_MAX_TOKENS}),
 * `safety_identifier` (else `user`) → `metadata.user_id`, `thinking` (Anthropic's extended thinking, `enabled` with `budget_tokens`, `adaptive` or `disabled`) as is,
 * else a `reasoning_effort` as a thinking budget (see `thinkingForEffort`; without a client limit the budget is added to the default `max_tokens`),
 * the cache breakpoints (`cache_control`) of parts, tool calls, tool messages and tools onto their blocks (and the
 * body's own, the automatic one, as is), and a `json_schema` `response_format` and `output_config.effort` as
 * `output_config` (see outputConfig). Sampling options Anthropic lacks (penalties, `seed`) are dropped; options that
 * change the answer's shape (`n` above 1, `logprobs`, `top_logprobs`, a `json_object` `response_format`) and the other
 * options of refuseUnsupportedOptions are 400 naming the field.
 */
export function anthropicBody(context: ProviderRequestContext): string {
  const { body } = context;
  refuseUnsupportedOptions(body, 'anthropic', { n: false, responseFormats: ['json_schema'] });
  const configured = context.provider.config.default_max_tokens;
  const limit = maxTokens(body);
  // A `thinking` (from POST /v1/messages) wins; else an OpenAI client's reasoning_effort asks for a budget.
  const thinking = readThinking(body) ?? thinkingForEffort(body, limit);
  const answerTokens = typeof configured === 'number' ? configured : DEFAULT_MAX_TOKENS;
  const request: Record<string, unknown> = {
    model: context.model,
    ...anthropicMessages(readMessages(body), { systemInPlace: context.clientFormat === 'anthropic' }),
    // Without a client limit, an effort's budget comes on top of the default answer length.
    max_tokens: limit ?? (thinking?.type === 'enabled' && body.thinking === undefined ? answerTokens + thinking.budget_tokens : answerTokens),
  };
  for (const key of ['temperature', 'top_p', 'top_k'] as const) {
    const value = numberField(body, key);
    if (value !== undefined) request[key] = value;
  }
  const stop = stopSequences(body);
  if (stop && stop.length > 0) request.stop_sequences = stop;
  // OpenAI's safety_identifier replaces its deprecated user: either names the end user to Anthropic.
  const user = typeof body.safety_identifier === 'string' ? body.safety_identifier : body.user;
  if (typeof user === 'string') request.metadata = { user_id: user };
  addTools(body, request);
  if (thinking) request.thinking = thinking;
  const output = outputConfig(body);
  if (output) request.output_config = output;
  Object.assign(request, cacheControlMember(body));
  Object.assign(request, messagesClientMembers(context));
  if (context.stream) request.stream = true;
  return JSON.stringify(request);
}

/**
 * Anthropic's own members a `POST /v1/messages` client sent, as it sent them: `service_tier` (its capacity choice) and
 * `context_management` (server-side context editing). An OpenAI chat client's `service_tier` names OpenAI's tiers and is
 * not sent.
 */
function messagesClientMembers(context: ProviderRequestContext): Record<string, unknown> {
  if (context.clientFormat !== 'anthropic') return {};
  const { service_tier: tier, context_management: editing } = context.body;
  return {
    ...(tier === 'auto' || tier === 'standard_only' ? { service_tier: tier } : {}),
    ...(typeof editing === 'object' && editing !== null ? { context_management: editing } : {}),
  };
}

/**
 * The body of a token count (`/v1/messages/count_tokens`) for an OpenAI chat body: what the prompt is made of, as
 * {@link anthropicBody} sends it (`model`, `system`, `messages`, `tools`, `tool_choice`, `thinking`), without the
 * answer's options, which Anthropic's counting endpoint refuses.
 */
export function anthropicCountBody(context: ProviderRequestContext): string {
  const { body } = context;
  const request: Record<string, unknown> = { model: context.model, ...anthropicMessages(readMessages(body), { systemInPlace: context.clientFormat === 'anthropic' }) };
  addTools(body, request);
  const thinking = readThinking(body);
  if (thinking) request.thinking = thinking;
  return JSON.stringify(request);
}
