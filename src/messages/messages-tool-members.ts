// A Messages tool's members beyond name, description and schema: strict (translated) and Anthropic's own (carried, ignored or refused per route).
import { Errors } from '../errors/error-registry.js';
import type { Candidate } from '../traffic/model-request-context.js';
import { ANTHROPIC_TOOL_MEMBERS } from '../../plugins/providers/shared/chat-extensions.js';

/** The JSON Schema of a tool's extra members, for the request schema (their meaning per route is {@link checkToolMembers}'). */
export const TOOL_MEMBER_SCHEMAS = {
  strict: { type: 'boolean' },
  input_examples: { type: 'array', items: { type: 'object' } },
  defer_loading: { type: 'boolean' },
  eager_input_streaming: { type: ['boolean', 'null'] },
  allowed_callers: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

type Tool = Record<string, unknown>;

/** Anthropic's own members of a tool, as sent (absent ones left out), for spreading into its chat tool. */
export function anthropicToolMembers(tool: Tool): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  for (const name of ANTHROPIC_TOOL_MEMBERS) if (tool[name] !== undefined && tool[name] !== null) members[name] = tool[name];
  return members;
}

/**
 * What each member asks of a provider that is not Anthropic; undefined when ignoring it there leaves the model's answer
 * as asked: `eager_input_streaming` only changes how a tool's input is streamed, `defer_loading: false` and
 * `allowed_callers` that include `direct` are the defaults (code execution, the other caller, is a server tool the
 * gateway does not run), and `input_examples: []` shows nothing.
 */
function askedOfOthers(tool: Tool, type: string): { member: string; why: string } | undefined {
  if (Array.isArray(tool.input_examples) && tool.input_examples.length > 0) return { member: 'input_examples', why: 'the examples are shown to the model by Anthropic only' };
  if (tool.defer_loading === true) return { member: 'defer_loading', why: "deferred loading is Anthropic's tool search; another model would see the tool at once" };
  if (Array.isArray(tool.allowed_callers) && !tool.allowed_callers.includes('direct')) {
    return { member: 'allowed_callers', why: 'a tool the model may not call directly is an Anthropic notion; another model would call it' };
  }
  // OpenAI-format servers take `strict` on the function; Gemini has no strict mode for its function calls.
  if (tool.strict === true && type === 'gemini') return { member: 'strict', why: 'Gemini has no strict mode that holds tool inputs to their schema' };
  return undefined;
}

/**
 * Refuses (400 `invalid_value` naming `tools[i].<member>`) a tool member a model the request may reach (fallbacks
 * included) cannot honour: Anthropic's own members that change what the model does, when that model is not on an
 * `anthropic` provider, and `strict: true` when it is on `gemini`.
 */
export function checkToolMembers(request: { tools?: Tool[] }, candidates: readonly Candidate[]): void {
  const tools = request.tools ?? [];
  for (const candidate of candidates) {
    if (candidate.provider.type === 'anthropic') continue;
    for (const [index, tool] of tools.entries()) {
      const asked = askedOfOthers(tool, candidate.provider.type);
      if (!asked) continue;
      throw Errors.validation([
        `tools[${index}].${asked.member} cannot be honoured on this route: ${asked.why}, and this request may go to ${candidate.provider.name} (${candidate.provider.type}).`,
      ], { param: `tools[${index}].${asked.member}` });
    }
  }
}
