// An inbound Anthropic Messages request, checked and translated into the OpenAI chat body every route and provider takes.
import { Errors } from '../errors/error-registry.js';
import { shownType } from './messages-errors.js';
import { MODEL_NAME_SCHEMA } from '../traffic/model-endpoints.js';
import { compileValidator } from '../validation/schema-validator.js';
import { openaiImageUrl, openaiTool, openaiToolChoice } from '../../plugins/providers/anthropic/mapping.js';
import { documentPart } from './messages-documents.js';
import { notePartOrigin } from '../guardrails/pipeline/part-origins.js';
import { toolResultParts } from './messages-tool-results.js';
import { anthropicToolMembers, TOOL_MEMBER_SCHEMAS } from './messages-tool-members.js';
import { checkMessagesMembers, MEMBER_SCHEMAS } from './messages-members.js';
import {
  BLOCK_EXTENSION_PROPERTIES, breakpointOf, CACHE_CONTROL_SCHEMA, chatThinking, checkThinking, historyThinkingBlock, OUTPUT_CONFIG_SCHEMA, THINKING_SCHEMA, toolResultBreakpoint,
  type MessagesThinking,
} from './messages-extensions.js';

/** A Messages API request, as far as the gateway reads it. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: Array<{ role: 'user' | 'assistant' | 'system'; content: string | Array<Record<string, unknown>> }>;
  system?: string | Array<{ type: string; text?: string; cache_control?: unknown }>;
  stream?: boolean;
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  metadata?: { user_id?: string };
  tools?: Array<{ name: string; description?: string; input_schema?: Record<string, unknown>; type?: string; cache_control?: unknown; strict?: boolean } & Record<string, unknown>>;
  tool_choice?: { type: string; name?: string; disable_parallel_tool_use?: boolean };
  thinking?: MessagesThinking;
  output_config?: { effort?: string | null; format?: { type: 'json_schema'; schema: Record<string, unknown> } | null };
  /** The automatic breakpoint: Anthropic puts it on the last block it can cache. */
  cache_control?: Record<string, unknown> | null;
  /** Where Anthropic is asked to run the model: refused (see messagesToChat). */
  inference_geo?: string | null;
  /** The deprecated form of `output_config.format`, translated as it is. */
  output_format?: { type: 'json_schema'; schema: Record<string, unknown> } | null;
  /** Anthropic's capacity choice (`auto`, `standard_only`): sent to Anthropic providers. */
  service_tier?: 'auto' | 'standard_only' | null;
  /** Anthropic's server-side context editing: sent to Anthropic providers, refused on routes that may reach others. */
  context_management?: Record<string, unknown> | null;
}

/** A content block: its type, and the members bounded here (a tool result's blocks may carry a breakpoint too). */
const block = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' }, ...BLOCK_EXTENSION_PROPERTIES, content: { type: ['string', 'array'], items: { type: 'object', properties: { cache_control: CACHE_CONTROL_SCHEMA } } } },
};

const MESSAGES_SCHEMA = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    model: MODEL_NAME_SCHEMA,
    max_tokens: { type: 'integer', minimum: 1 },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: { role: { enum: ['user', 'assistant', 'system'] }, content: { type: ['string', 'array'], items: block } },
      },
    },
    system: { type: ['string', 'array'], items: { type: 'object', required: ['type'], properties: { type: { const: 'text' }, text: { type: 'string' }, cache_control: CACHE_CONTROL_SCHEMA } } },
    stream: { type: 'boolean' },
    stop_sequences: { type: 'array', items: { type: 'string' } },
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    top_k: { type: 'integer', minimum: 0 },
    metadata: { type: 'object', properties: { user_id: { type: 'string' } } },
    tools: {
      type: 'array',
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, description: { type: 'string' }, input_schema: { type: 'object' }, cache_control: CACHE_CONTROL_SCHEMA, ...TOOL_MEMBER_SCHEMAS } },
    },
    tool_choice: { type: 'object', required: ['type'], properties: { type: { enum: ['auto', 'any', 'tool', 'none'] }, name: { type: 'string' }, disable_parallel_tool_use: { type: 'boolean' } } },
    thinking: THINKING_SCHEMA,
    output_config: OUTPUT_CONFIG_SCHEMA,
    cache_control: { ...CACHE_CONTROL_SCHEMA, type: ['object', 'null'] },
    ...MEMBER_SCHEMAS,
  },
};

const validateMessages = compileValidator<MessagesRequest>(MESSAGES_SCHEMA);

/** A token count's body: the same prompt members, without `max_tokens` (not required; ignored when sent) and `stream`. */
const validateCount = compileValidator<Omit<MessagesRequest, 'max_tokens'> & { max_tokens?: number }>({
  ...MESSAGES_SCHEMA,
  required: ['model', 'messages'],
  properties: Object.fromEntries(Object.entries(MESSAGES_SCHEMA.properties).filter(([name]) => name !== 'max_tokens' && name !== 'stream')),
});

type ChatMessage = Record<string, unknown>;

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

/** The parts as OpenAI content: a string when there is only text and no cache breakpoint, else the parts. */
const partsContent = (parts: Array<Record<string, unknown>>): string | Array<Record<string, unknown>> =>
  parts.every((part) => part.type === 'text' && part.cache_control === undefined) ? parts.map((part) => part.text as string).join('') : parts;

/**
 * The text, image and document parts of blocks (with their cache breakpoints), as OpenAI content. `positions` are the
 * blocks' indices in the client's content (when some were taken out before), so an error or refusal names the block.
 */
function userContent(blocks: Array<Record<string, unknown>>, where: string, positions?: number[]): string | Array<Record<string, unknown>> {
  const parts = blocks.map((item, index) => {
    const param = `${where}[${positions?.[index] ?? index}]`;
    if (item.type === 'text' && typeof item.text === 'string') return { type: 'text', text: item.text, ...breakpointOf(item) };
    if (item.type === 'image') {
      const url = typeof item.source === 'object' && item.source !== null ? openaiImageUrl(item.source as Record<string, unknown>) : undefined;
      if (url) return notePartOrigin({ type: 'image_url', image_url: { url }, ...breakpointOf(item) }, param);
    }
    if (item.type === 'document') return notePartOrigin(documentPart(item, param), param);
    return invalid(`${param} has the type ${shownType(item.type)}, which this gateway does not translate; use text, image, document, tool_use or tool_result.`, param);
  });
  return partsContent(parts);
}

/**
 * A user turn as chat messages: each `tool_result` a `tool` message (text only: chat APIs take no image or file in a
 * tool message), then one user message with the images and documents the tool results held, in order, and the turn's
 * other blocks. A tool message whose result held some says so (`[1 image from this tool result follows]`).
 */
function userMessages(content: Array<Record<string, unknown>>, where: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  const rest: Array<Record<string, unknown>> = [];
  const positions: number[] = [];
  const images: Array<Record<string, unknown>> = [];
  content.forEach((item, index) => {
    if (item.type !== 'tool_result') {
      rest.push(item);
      positions.push(index);
      return;
    }
    if (typeof item.tool_use_id !== 'string') invalid(`${where}[${index}].tool_use_id is required.`, `${where}[${index}].tool_use_id`);
    const { text, held } = toolResultParts(item.content, `${where}[${index}]`);
    images.push(...held);
    out.push({ role: 'tool', tool_call_id: item.tool_use_id, content: item.is_error === true ? `Error: ${text}` : text, ...toolResultBreakpoint(item) });
  });
  if (images.length > 0 || rest.length > 0) {
    const others = rest.length > 0 ? userContent(rest, where, positions) : [];
    const parts = typeof others === 'string' ? [{ type: 'text', text: others }] : others;
    out.push({ role: 'user', content: images.length > 0 ? [...images, ...parts] : others });
  }
  return out;
}

/**
 * An assistant turn as an assistant message: text as content (parts when a block carries a cache breakpoint),
 * `tool_use` as `tool_calls`, and thinking and redacted thinking blocks, exactly as they came, as `thinking_blocks`.
 */
function assistantMessage(content: Array<Record<string, unknown>>, where: string): ChatMessage {
  const texts: Array<Record<string, unknown>> = [];
  const calls: Array<Record<string, unknown>> = [];
  const thinking: Array<Record<string, unknown>> = [];
  content.forEach((item, index) => {
    if (item.type === 'text' && typeof item.text === 'string') texts.push({ type: 'text', text: item.text, ...breakpointOf(item) });
    else if (item.type === 'thinking' || item.type === 'redacted_thinking') thinking.push(historyThinkingBlock(item, `${where}[${index}]`));
    else if (item.type === 'tool_use') {
      if (typeof item.id !== 'string' || typeof item.name !== 'string') invalid(`${where}[${index}] needs an id and a name.`, `${where}[${index}]`);
      // Anthropic requires `input`, the tool's arguments, as an object: a string or array is refused, never sent on as one.
      if (typeof item.input !== 'object' || item.input === null || Array.isArray(item.input)) {
        invalid(`${where}[${index}].input must be an object (the tool's arguments).`, `${where}[${index}].input`);
      }
      calls.push({ id: item.id, type: 'function', function: { name: item.name, arguments: JSON.stringify(item.input) }, ...breakpointOf(item) });
    } else {
      invalid(`${where}[${index}] has the type ${shownType(item.type)}, which an assistant turn cannot carry here.`, `${where}[${index}]`);
    }
  });
  return {
    role: 'assistant',
    content: texts.length > 0 ? partsContent(texts) : null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    ...(thinking.length > 0 ? { thinking_blocks: thinking } : {}),
  };
}

/** A system turn's content as system text blocks: text only (400 naming any other block). */
function systemBlocks(content: string | Array<Record<string, unknown>>, where: string): NonNullable<MessagesRequest['system']> {
  if (typeof content === 'string') return content;
  return content.map((item, index) => {
    if (item.type !== 'text' || typeof item.text !== 'string') invalid(`${where}[${index}] has the type ${shownType(item.type)}; a system turn takes text only.`, `${where}[${index}]`);
    return { type: 'text', text: item.text, ...(item.cache_control === undefined ? {} : { cache_control: item.cache_control }) };
  });
}

/** The system prompt as a system message: text blocks joined by a blank line, or text parts when one carries a cache breakpoint. */
function systemMessage(system: NonNullable<MessagesRequest['system']>): ChatMessage | undefined {
  if (typeof system !== 'string' && system.some((item) => item.cache_control !== undefined)) {
    return { role: 'system', content: system.map((item) => ({ type: 'text', text: item.text ?? '', ...breakpointOf(item) })) };
  }
  const text = typeof system === 'string' ? system : system.map((item) => item.text ?? '').join('\n\n');
  return text === '' ? undefined : { role: 'system', content: text };
}

/**
 * Checks a Messages API body (400 naming the field) and translates it into an OpenAI chat body: `system` → a system
 * message; `tool_result` blocks → `tool` messages (before the rest of their user turn; text, or text and image parts);
 * `tool_use` → `tool_calls`;
 * images (base64 or URL) → `image_url` parts; thinking and redacted thinking blocks → the assistant message's
 * `thinking_blocks`, unchanged; `max_tokens`, `stop_sequences` → `stop`,
 * `temperature`, `top_p`, `metadata.user_id` → `user`, `tools`, `tool_choice` (`disable_parallel_tool_use` →
 * `parallel_tool_calls: false`), `thinking` as is (checked against Anthropic's rules), and each `cache_control` onto
 * its part, tool call, tool message or tool (system blocks with one become text parts), `output_config` and a
 * top-level `cache_control` (see outputMembers), and `top_k` as is (the
 * Anthropic and Gemini adapters send it). Adapters that pass the body through leave Anthropic's members out, `top_k`
 * among them: OpenAI has no counterpart (see ProviderRequestContext.clientFormat). A stream asks for the usage chunk.
 * Members no route can honour (`inference_geo`, `container`, `mcp_servers`, `thread`, …) are 400 naming them (see
 * checkMessagesMembers); `service_tier` and `context_management` ride on the chat body for Anthropic providers.
 */
export function messagesToChat(body: unknown): { request: MessagesRequest; chat: Record<string, unknown> } {
  const request = validateMessages(body);
  if (request.thinking) checkThinking(request.thinking, request.max_tokens);
  // Members no route can honour (a region, containers, MCP connectors, threads, …) are refused by name, never dropped.
  checkMessagesMembers(request as unknown as Record<string, unknown>);
  return { request, chat: translate(request) };
}

/**
 * Checks the body of a token count (POST /v1/messages/count_tokens: a Messages request without `max_tokens` and
 * `stream`) as {@link messagesToChat} checks a Messages request, and translates its prompt the same way: the chat body
 * carries no `max_tokens`, sampling options or `stream`, only what the prompt is made of.
 */
export function countRequestToChat(body: unknown): { model: string; chat: Record<string, unknown> } {
  const checked = validateCount(body);
  // A count has no max_tokens: a thinking budget is held only to Anthropic's least (the schema's minimum).
  if (checked.thinking) checkThinking(checked.thinking, Number.MAX_SAFE_INTEGER);
  const { model, messages, system, tools, tool_choice, thinking } = checked;
  const request: MessagesRequest = { model, messages, max_tokens: 0, ...(system === undefined ? {} : { system }), ...(tools === undefined ? {} : { tools }), ...(tool_choice === undefined ? {} : { tool_choice }), ...(thinking === undefined ? {} : { thinking }) };
  const chat = translate(request);
  delete chat.max_tokens;
  return { model, chat };
}

/**
 * The chat members of `output_config` and a top-level `cache_control`: a JSON schema `format` as `response_format`
 * (every provider type has one; not `strict`, which on OpenAI requires every property, as Anthropic does not), `effort`
 * as `output_config.effort` (for an Anthropic provider), and the automatic breakpoint as `cache_control`.
 */
function outputMembers(request: MessagesRequest): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  const { effort } = request.output_config ?? {};
  // The deprecated `output_format` is the same schema under its older name.
  const format = request.output_config?.format ?? request.output_format;
  if (format) members.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema } };
  if (effort) members.output_config = { effort };
  if (request.cache_control) members.cache_control = request.cache_control;
  // Anthropic's own: the Anthropic adapter sends them for a Messages client; other adapters leave them out.
  if (request.service_tier) members.service_tier = request.service_tier;
  if (request.context_management) members.context_management = request.context_management;
  return members;
}

/** The OpenAI chat body of a checked Messages request. */
function translate(request: MessagesRequest): Record<string, unknown> {
  const messages: ChatMessage[] = [];
  const system = request.system === undefined ? undefined : systemMessage(request.system);
  if (system) messages.push(system);
  request.messages.forEach((message, index) => {
    const where = `messages[${index}].content`;
    if (message.role === 'system') {
      const turn = systemMessage(systemBlocks(message.content, where));
      if (turn) messages.push(turn);
    } else if (typeof message.content === 'string') messages.push({ role: message.role, content: message.content });
    else if (message.role === 'user') messages.push(...userMessages(message.content, where));
    else messages.push(assistantMessage(message.content, where));
  });
  const chat: Record<string, unknown> = { model: request.model, messages, max_tokens: request.max_tokens };
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.top_k !== undefined) chat.top_k = request.top_k;
  if (request.stop_sequences?.length) chat.stop = request.stop_sequences;
  if (request.metadata?.user_id !== undefined) chat.user = request.metadata.user_id;
  if (request.tools?.length) {
    request.tools.forEach((tool, index) => {
      if (tool.type !== undefined && tool.type !== 'custom') invalid(`tools[${index}] is a server tool (${tool.type}), which this gateway does not run.`, `tools[${index}].type`);
    });
    // `strict` is the function's; Anthropic's own members ride on the chat tool for the Anthropic adapter (checkToolMembers refuses them elsewhere).
    chat.tools = request.tools.map((tool) => ({ ...openaiTool({ name: tool.name, description: tool.description, schema: tool.input_schema, strict: tool.strict }), ...breakpointOf(tool), ...anthropicToolMembers(tool) }));
  }
  // Without tools, auto and none ask nothing (OpenAI refuses a tool_choice without tools); any and tool cannot be met.
  if (request.tool_choice && !chat.tools && ['any', 'tool'].includes(request.tool_choice.type)) invalid(`tool_choice of type ${request.tool_choice.type} needs tools.`, 'tool_choice');
  if (request.tool_choice && chat.tools) {
    const choice = openaiToolChoice(request.tool_choice);
    if (choice === undefined) invalid('tool_choice of type tool needs a name.', 'tool_choice.name');
    chat.tool_choice = choice;
    if (request.tool_choice.disable_parallel_tool_use === true && chat.tools) chat.parallel_tool_calls = false;
  }
  if (request.thinking) chat.thinking = chatThinking(request.thinking);
  Object.assign(chat, outputMembers(request));
  if (request.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}
