// What a Responses request's tool_choice, text and reasoning become in the chat body of each round of the tool loop.
import { Errors, GatewayError } from '../errors/error-registry.js';
import type { ToolNameMap } from './tool-name-map.js';
import type { ResponsesRequest } from './responses-types.js';

/** Whether the request asks for the answer's token log probabilities: `include` names them, or `top_logprobs` asks for alternatives. */
export const asksLogprobs = (request: ResponsesRequest): boolean =>
  (request.include ?? []).includes('message.output_text.logprobs') || (typeof request.top_logprobs === 'number' && request.top_logprobs > 0);

/** A chat tool as the loop offers it: `{ type: 'function', function: { name, … } }`. */
export type ChatTool = Record<string, unknown> & { function: Record<string, unknown> & { name: string } };

/** One entry of an `allowed_tools` choice: a function by name, or an MCP server's tools (all, or one by name). */
interface AllowedEntry {
  type?: unknown;
  name?: unknown;
  server_label?: unknown;
}

/** Whether a chat tool is one an `allowed_tools` entry names. */
function allows(entry: AllowedEntry, tool: ChatTool, names: ToolNameMap): boolean {
  const target = names.resolve(tool.function.name);
  if (entry.type === 'function') return target === undefined && tool.function.name === entry.name;
  if (entry.type === 'mcp') return target !== undefined && target.server === entry.server_label && (typeof entry.name !== 'string' || target.tool === entry.name);
  return false;
}

/** Request members the chat request carries as they are (each adapter maps them for its provider, or leaves them out as hints). */
const PASSED_ON = ['user', 'safety_identifier', 'prompt_cache_key', 'service_tier'] as const;

/** A 400 about `tool_choice`, for a tool the request names that the loop cannot offer (not listed, disabled, filtered). */
const unavailable = (what: string, param: string) =>
  Errors.validation([`The field 'tool_choice' names ${what}, which is not among the tools the model can be offered (its server may be unreachable, or the tool disabled or filtered by allowed_tools).`], { param });

/**
 * The chat body fields for one round of the tool loop, from the request's `tool_choice`, `text` and `reasoning`:
 * - `tools`: the offered tools, cut to an `allowed_tools` choice's list in every round, and to one MCP server's tools
 *   in the first round of an `mcp` choice without a `name`;
 * - `tool_choice`: `none` in every round; `required` or a named tool in the first round only (the model must call a
 *   tool, then answers freely once it has the result, rather than calling tools until the round limit), `auto` otherwise;
 * - `response_format` from `text.format` (`json_object`, or `json_schema` with its name, schema, description and
 *   strictness), `verbosity` from `text.verbosity`, and `reasoning_effort` from `reasoning.effort`;
 * - `parallel_tool_calls` (when tools are offered), `user`, `safety_identifier`, `prompt_cache_key` and `service_tier` as they are.
 *
 * `reasoning.summary` has no chat counterpart and is not passed on. Throws a 400 naming `tool_choice` when the choice
 * names a tool the round cannot offer.
 * @example
 * chatRequestOptions({ model: 'm', input: 'Hi', tool_choice: 'required' }, tools, names, 0); // { tools, tool_choice: 'required' }
 */
export function chatRequestOptions(request: ResponsesRequest, chatTools: ChatTool[], names: ToolNameMap, round: number): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const choice = request.tool_choice;
  let tools = chatTools;
  let toolChoice: unknown;
  if (typeof choice === 'string') {
    toolChoice = choice === 'none' || round === 0 ? choice : undefined;
  } else if (choice?.type === 'allowed_tools') {
    const entries = (choice.tools ?? []) as AllowedEntry[];
    tools = chatTools.filter((tool) => entries.some((entry) => allows(entry, tool, names)));
    toolChoice = round === 0 ? choice.mode : undefined;
  } else if (choice?.type === 'function' && round === 0) {
    if (!tools.some((tool) => tool.function.name === choice.name && names.resolve(tool.function.name) === undefined)) throw unavailable(`the function ${String(choice.name)}`, 'tool_choice.name');
    toolChoice = { type: 'function', function: { name: choice.name } };
  } else if (choice?.type === 'mcp' && round === 0) {
    const label = choice.server_label;
    const server = label === undefined ? 'an MCP server' : `the MCP server ${label}`;
    if (typeof choice.name === 'string') {
      const name = label === undefined ? undefined : names.nameOf(label, choice.name);
      if (name === undefined || !tools.some((tool) => tool.function.name === name)) throw unavailable(`the tool ${choice.name} of ${server}`, 'tool_choice.name');
      toolChoice = { type: 'function', function: { name } };
    } else {
      tools = chatTools.filter((tool) => {
        const target = names.resolve(tool.function.name);
        return target !== undefined && (label === undefined || target.server === label);
      });
      if (tools.length === 0) throw unavailable(server, label === undefined ? 'tool_choice' : 'tool_choice.server_label');
      toolChoice = 'required';
    }
  }
  if (tools.length > 0) {
    fields.tools = tools;
    if (toolChoice !== undefined) fields.tool_choice = toolChoice;
    if (typeof request.parallel_tool_calls === 'boolean') fields.parallel_tool_calls = request.parallel_tool_calls;
  }
  for (const key of PASSED_ON) if (typeof request[key] === 'string') fields[key] = request[key];
  const format = request.text?.format;
  if (format?.type === 'json_object') fields.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    const { type: _type, ...schema } = format as Record<string, unknown>;
    fields.response_format = { type: 'json_schema', json_schema: schema };
  }
  if (typeof request.text?.verbosity === 'string') fields.verbosity = request.text.verbosity;
  if (typeof request.reasoning?.effort === 'string') fields.reasoning_effort = request.reasoning.effort;
  if (asksLogprobs(request)) {
    fields.logprobs = true;
    if (typeof request.top_logprobs === 'number') fields.top_logprobs = request.top_logprobs;
  }
  return fields;
}

/** The Responses request fields the chat fields above come from, for errors that name a chat field. */
const RESPONSES_FIELDS: Readonly<Record<string, string>> = { response_format: 'text.format', verbosity: 'text.verbosity', reasoning_effort: 'reasoning.effort', logprobs: 'include' };

/**
 * An error of a round's chat request as the Responses client sees it: one that names a chat field this module set
 * (a provider refusing `response_format`, say) names the Responses field instead (`text.format`); any other is as is.
 */
export function asResponsesError(error: unknown): unknown {
  if (!(error instanceof GatewayError) || error.param === null || !Object.hasOwn(RESPONSES_FIELDS, error.param)) return error;
  const field = RESPONSES_FIELDS[error.param]!;
  // The chat field as a whole name only (`logprobs`, not the end of `top_logprobs`).
  const message = error.message.replace(new RegExp(`(?<![\\w.])${error.param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\w)`, 'g'), field);
  return new GatewayError(error.code, error.statusCode, error.type, message, { param: field, details: error.details, headers: error.headers, expected: error.expected, cause: error });
}
