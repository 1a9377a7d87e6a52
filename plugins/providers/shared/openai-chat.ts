// Readers of the OpenAI chat request body, shared by the adapters that translate it to another wire format.
import { Errors } from '../../../src/plugins/plugin-api.js';
import { cacheControlMember, readAnthropicToolMembers, readThinkingBlocks, type CacheControl, type ThinkingBlock } from './chat-extensions.js';

import { readFilePart, type OpenAiFilePart } from './file-parts.js';

export { parseDataUrl } from './data-url.js';
export type { OpenAiFilePart } from './file-parts.js';

/** A text part of a message. */
export interface OpenAiTextPart {
  type: 'text';
  text: string;
  /** A prompt cache breakpoint after this part (Anthropic's; see chat-extensions.ts). */
  cache_control?: CacheControl;
}
/** An image part of a user message: an `https:` or `data:` URL. */
export interface OpenAiImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
  cache_control?: CacheControl;
}
/** One part of a message's content. */
export type OpenAiContentPart = OpenAiTextPart | OpenAiImagePart | OpenAiFilePart;

/** A tool call the assistant made; `arguments` is a JSON string. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  cache_control?: CacheControl;
  /** Gemini's signature of the reasoning behind this call, from the call's `extra_content.google.thought_signature`. */
  thought_signature?: string;
}

/** One chat message, as the translating adapters read it. */
export interface OpenAiMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | OpenAiContentPart[] | null;
  tool_calls?: OpenAiToolCall[];
  tool_call_id?: string;
  /** A tool message's cache breakpoint (its result block's). */
  cache_control?: CacheControl;
  /** An assistant message's thinking blocks, signatures and redacted data as they came. */
  thinking_blocks?: ThinkingBlock[];
}

/** A function tool the model may call. */
export interface OpenAiFunctionTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  cache_control?: CacheControl;
  /** The function's `strict` (Anthropic's tool `strict`). */
  strict?: boolean;
  /** Anthropic's own tool members a chat tool carries (`input_examples`, `defer_loading`, …), as sent. */
  anthropic?: Record<string, unknown>;
}

/** OpenAI's `tool_choice`, normalised. */
export type OpenAiToolChoice = { mode: 'auto' | 'none' | 'required' } | { mode: 'function'; name: string };

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** True for a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

function readContent(value: unknown, param: string): OpenAiMessage['content'] {
  if (value === undefined || value === null || typeof value === 'string') return value ?? null;
  if (!Array.isArray(value)) invalid(`${param} must be a string or an array of parts.`, param);
  return value.map((part, index): OpenAiContentPart => {
    const where = `${param}[${index}]`;
    if (!isRecord(part)) invalid(`${where} must be an object.`, where);
    if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text, ...cacheControlMember(part) };
    if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') {
      return { type: 'image_url', image_url: { url: part.image_url.url }, ...cacheControlMember(part) };
    }
    if (part.type === 'file') return { ...readFilePart(part, where), ...cacheControlMember(part) };
    return invalid(`${where} has the unsupported type ${String(JSON.stringify(part.type)).slice(0, 80)}; use text, image_url or file.`, where);
  });
}

/**
 * A tool call's Gemini thought signature: `extra_content.google.thought_signature`, where Gemini's own OpenAI-compatible
 * API and the Gemini adapter put it. Undefined when absent; 400 naming it when it is there but not a string.
 */
function thoughtSignatureOf(call: Record<string, unknown>, where: string): string | undefined {
  const google = isRecord(call.extra_content) ? call.extra_content.google : undefined;
  const signature = isRecord(google) ? google.thought_signature : undefined;
  if (signature === undefined || signature === null) return undefined;
  return typeof signature === 'string' ? signature : invalid(`${where}.extra_content.google.thought_signature must be a string.`, `${where}.extra_content.google.thought_signature`);
}

function readToolCalls(value: unknown, param: string): OpenAiToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) invalid(`${param} must be an array.`, param);
  return value.map((call, index) => {
    const where = `${param}[${index}]`;
    if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(call.function) || typeof call.function.name !== 'string') {
      invalid(`${where} must have an id and a function name.`, where);
    }
    const args = call.function.arguments;
    const read: OpenAiToolCall = { id: call.id, type: 'function', function: { name: call.function.name, arguments: typeof args === 'string' ? args : '{}' }, ...cacheControlMember(call) };
    const signature = thoughtSignatureOf(call, where);
    if (signature !== undefined) read.thought_signature = signature;
    return read;
  });
}

/** The body's `messages`, checked; throws `invalid_value` (400) naming the bad field. */
export function readMessages(body: Record<string, unknown>): OpenAiMessage[] {
  if (!Array.isArray(body.messages) || body.messages.length === 0) invalid('messages must be a non-empty array.', 'messages');
  return body.messages.map((message, index) => {
    const where = `messages[${index}]`;
    if (!isRecord(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) {
      invalid(`${where}.role must be one of ${[...ROLES].join(', ')}.`, `${where}.role`);
    }
    const read: OpenAiMessage = { role: message.role as OpenAiMessage['role'], content: readContent(message.content, `${where}.content`) };
    const toolCalls = readToolCalls(message.tool_calls, `${where}.tool_calls`);
    if (toolCalls) read.tool_calls = toolCalls;
    if (typeof message.tool_call_id === 'string') read.tool_call_id = message.tool_call_id;
    Object.assign(read, cacheControlMember(message));
    const thinking = read.role === 'assistant' ? readThinkingBlocks(message.thinking_blocks, `${where}.thinking_blocks`) : undefined;
    if (thinking) read.thinking_blocks = thinking;
    if (read.role === 'tool' && read.tool_call_id === undefined) invalid(`${where}.tool_call_id is required.`, `${where}.tool_call_id`);
    return read;
  });
}

/** The body's function tools; other tool types are refused. */
export function readTools(body: Record<string, unknown>): OpenAiFunctionTool[] | undefined {
  if (body.tools === undefined || body.tools === null) return undefined;
  if (!Array.isArray(body.tools)) invalid('tools must be an array.', 'tools');
  return body.tools.map((tool, index) => {
    const where = `tools[${index}]`;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function) || typeof tool.function.name !== 'string') {
      invalid(`${where} must be a function tool with a name.`, where);
    }
    const read: OpenAiFunctionTool = { name: tool.function.name };
    if (typeof tool.function.description === 'string') read.description = tool.function.description;
    if (isRecord(tool.function.parameters)) read.parameters = tool.function.parameters;
    if (typeof tool.function.strict === 'boolean') read.strict = tool.function.strict;
    const anthropic = readAnthropicToolMembers(tool, where);
    if (anthropic) read.anthropic = anthropic;
    return Object.assign(read, cacheControlMember(tool));
  });
}

/** The body's `tool_choice`, normalised; undefined when absent. */
export function readToolChoice(body: Record<string, unknown>): OpenAiToolChoice | undefined {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { mode: choice };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { mode: 'function', name: choice.function.name };
  }
  return invalid('tool_choice must be auto, none, required or {"type":"function","function":{"name":…}}.', 'tool_choice');
}

/** The text of a content: the string, or its text parts joined. */
export function contentText(content: OpenAiMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Parses a tool call's JSON arguments into an object; throws `invalid_value` when they are not one. */
export function parseArguments(args: string, param: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return invalid(`${param} is not valid JSON.`, param);
  }
  return isRecord(parsed) ? parsed : invalid(`${param} must encode a JSON object.`, param);
}

/** `stop` as a list of sequences; undefined when absent. */
export function stopSequences(body: Record<string, unknown>): string[] | undefined {
  if (typeof body.stop === 'string') return [body.stop];
  if (Array.isArray(body.stop)) return body.stop.filter((item): item is string => typeof item === 'string');
  return undefined;
}

/** `max_completion_tokens`, else `max_tokens`; undefined when neither is a number. */
export function maxTokens(body: Record<string, unknown>): number | undefined {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === 'number' ? value : undefined;
}


/** A number member of the body, or undefined. */
export function numberField(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  return typeof value === 'number' ? value : undefined;
}
