// Anthropic's request body: OpenAI chat messages, tools and sampling options as a Messages API request.
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import {
  contentText, maxTokens, numberField, parseArguments, readMessages, readToolChoice, readTools, refuseUnsupportedOptions, stopSequences,
  type OpenAiContentPart, type OpenAiMessage,
} from '../shared/openai-chat.js';
import { anthropicImageBlock, anthropicTool, anthropicToolChoice } from './mapping.js';

/** The `max_tokens` sent when the client gives none (Anthropic requires it); `config.default_max_tokens` overrides. */
export const DEFAULT_MAX_TOKENS = 4096;

/** One content block of a Messages API turn. */
export type AnthropicBlock = Record<string, unknown>;
/** One turn of a Messages API conversation. */
export interface AnthropicTurn {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

function partBlocks(content: string | OpenAiContentPart[] | null): AnthropicBlock[] {
  if (content === null || content === '') return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content
    .filter((part) => part.type !== 'text' || part.text !== '')
    .map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : anthropicImageBlock(part.image_url.url)));
}

function assistantBlocks(message: OpenAiMessage, index: number): AnthropicBlock[] {
  const blocks = partBlocks(message.content);
  (message.tool_calls ?? []).forEach((call, callIndex) => {
    const input = parseArguments(call.function.arguments, `messages[${index}].tool_calls[${callIndex}].function.arguments`);
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  });
  return blocks;
}

function toolResultBlock(message: OpenAiMessage): AnthropicBlock {
  const content = typeof message.content === 'string' || message.content === null ? contentText(message.content) : partBlocks(message.content);
  return { type: 'tool_result', tool_use_id: message.tool_call_id, content };
}

/**
 * Splits OpenAI messages into Anthropic's `system` text and turns. System and developer messages join
 * `system` (blank line between); tool messages become `tool_result` blocks of a user turn; consecutive
 * turns of one role merge into one (so consecutive tool results share a turn, as Anthropic requires);
 * a turn of one text block is sent as a plain string.
 */
export function anthropicMessages(messages: OpenAiMessage[]): { system?: string; messages: AnthropicTurn[] } {
  const system: string[] = [];
  const turns: Array<{ role: 'user' | 'assistant'; content: AnthropicBlock[] }> = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicBlock[]): void => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') system.push(contentText(message.content));
    else if (message.role === 'user') push('user', partBlocks(message.content));
    else if (message.role === 'assistant') push('assistant', assistantBlocks(message, index));
    else push('user', [toolResultBlock(message)]);
  });
  const simplified = turns.map((turn): AnthropicTurn => {
    const only = turn.content.length === 1 ? turn.content[0] : undefined;
    return only?.type === 'text' ? { role: turn.role, content: only.text as string } : turn;
  });
  return system.length > 0 ? { system: system.join('\n\n'), messages: simplified } : { messages: simplified };
}

/** Adds `tools` and `tool_choice`; `parallel_tool_calls: false` becomes `disable_parallel_tool_use`. */
function addTools(body: Record<string, unknown>, request: Record<string, unknown>): void {
  const tools = readTools(body);
  if (!tools || tools.length === 0) return;
  request.tools = tools.map((tool) => anthropicTool({ name: tool.name, description: tool.description, schema: tool.parameters }));
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
 * `user` → `metadata.user_id`. Sampling options Anthropic lacks (penalties, `seed`) are dropped; options that change
 * the answer's shape (`n` above 1, `logprobs`, `top_logprobs`, a JSON `response_format`) are 400 naming the field.
 */
export function anthropicBody(context: ProviderRequestContext): string {
  const { body } = context;
  refuseUnsupportedOptions(body, 'anthropic', { n: false, responseFormat: false });
  const configured = context.provider.config.default_max_tokens;
  const request: Record<string, unknown> = {
    model: context.model,
    ...anthropicMessages(readMessages(body)),
    max_tokens: maxTokens(body) ?? (typeof configured === 'number' ? configured : DEFAULT_MAX_TOKENS),
  };
  for (const key of ['temperature', 'top_p', 'top_k'] as const) {
    const value = numberField(body, key);
    if (value !== undefined) request[key] = value;
  }
  const stop = stopSequences(body);
  if (stop && stop.length > 0) request.stop_sequences = stop;
  if (typeof body.user === 'string') request.metadata = { user_id: body.user };
  addTools(body, request);
  if (context.stream) request.stream = true;
  return JSON.stringify(request);
}
