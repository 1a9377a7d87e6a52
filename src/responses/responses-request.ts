// The /v1/responses body, checked once against OpenAI's Responses request shape: a 400 naming the field before anything runs.
import { Errors } from '../errors/error-registry.js';
import { MODEL_NAME_SCHEMA } from '../traffic/model-endpoints.js';
import { compileValidator } from '../validation/schema-validator.js';
import type { ResponsesRequest } from './responses-types.js';
import { HEADER_SAFE_TEXT_PATTERN, MAX_PARAMETER_NAME_LENGTH, MAX_SECRET_LENGTH } from '../validation/header-safe-text.js';

/** An HTTP header name: one token (RFC 9110). */
const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** OpenAI's tool-name rule, shared by function tools and `json_schema` formats: 1 to 64 of `[a-zA-Z0-9_-]`. */
const TOOL_NAME = { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' };

/** Tool kinds a `tool_choice` object may name in OpenAI's Responses API; the gateway itself runs `function` and `mcp`. */
const TOOL_CHOICE_TYPES = [
  'function', 'mcp', 'allowed_tools', 'custom', 'file_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'computer',
  'computer_use', 'computer_use_preview', 'image_generation', 'code_interpreter', 'apply_patch', 'shell', 'programmatic_tool_calling',
];

/** `then` holds when `type` is `value` (ajv checks `if` before `required`, so an absent `type` must not match). */
const whenType = (value: string, then: Record<string, unknown>) => ({ if: { required: ['type'], properties: { type: { const: value } } }, then });

/** `tool_choice`: `none`, `auto`, `required`, or an object naming a tool of a known kind with that kind's fields. */
const toolChoiceSchema = {
  type: ['string', 'object'],
  if: { type: 'string' },
  then: { enum: ['none', 'auto', 'required'] },
  else: {
    required: ['type'],
    properties: { type: { enum: TOOL_CHOICE_TYPES } },
    allOf: [
      whenType('function', { required: ['name'], properties: { name: TOOL_NAME } }),
      whenType('custom', { required: ['name'], properties: { name: { type: 'string', minLength: 1 } } }),
      // The official client also types a bare `{ type: 'mcp' }` (any MCP tool of the request).
      whenType('mcp', { properties: { server_label: { type: 'string', minLength: 1 }, name: { type: ['string', 'null'] } } }),
      whenType('allowed_tools', {
        required: ['mode', 'tools'],
        properties: { mode: { enum: ['auto', 'required'] }, tools: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } } },
      }),
    ],
  },
};

/** `text`: the output format (`text`, `json_object`, or `json_schema` with a name and a schema) and `verbosity`. */
const textSchema = {
  type: 'object',
  properties: {
    format: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['text', 'json_object', 'json_schema'] } },
      ...whenType('json_schema', {
        required: ['name', 'schema'],
        properties: { name: TOOL_NAME, schema: { type: 'object' }, description: { type: 'string' }, strict: { type: ['boolean', 'null'] } },
      }),
    },
    verbosity: { enum: ['low', 'medium', 'high', null] },
  },
};

/** `reasoning` (null allowed): `effort` and `summary` (and the older `generate_summary`) as the official client types them. */
const SUMMARY = { enum: ['auto', 'concise', 'detailed', null] };
const reasoningSchema = {
  type: ['object', 'null'],
  properties: {
    effort: { enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', null] },
    summary: SUMMARY,
    generate_summary: SUMMARY,
  },
};

const validateSchema = compileValidator<ResponsesRequest>({
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: MODEL_NAME_SCHEMA,
    input: { type: ['string', 'array'] },
    instructions: { type: 'string' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    max_output_tokens: { type: 'integer', minimum: 1 },
    stream: { type: 'boolean' },
    // `store` decides whether the answer is kept; `metadata` is echoed in the answer and kept with it: OpenAI's bounds.
    store: { type: 'boolean' },
    metadata: { type: 'object', maxProperties: 16, propertyNames: { maxLength: 64 }, additionalProperties: { type: 'string', maxLength: 512 } },
    previous_response_id: { type: 'string' },
    // Passed on to the chat request (OpenAI's bounds): tool-call parallelism, the end user's id, caching and tier hints.
    parallel_tool_calls: { type: ['boolean', 'null'] },
    safety_identifier: { type: 'string', maxLength: 64 },
    user: { type: 'string', maxLength: 256 },
    prompt_cache_key: { type: 'string', maxLength: 256 },
    service_tier: { enum: ['auto', 'default', 'flex', 'scale', 'priority', null] },
    background: { type: ['boolean', 'null'] },
    truncation: { enum: ['auto', 'disabled', null] },
    // Token log probabilities: asked with `include` (see checkInclude), passed on as the chat request's.
    top_logprobs: { type: ['integer', 'null'], minimum: 0, maximum: 20 },
    include: { type: ['array', 'null'], maxItems: 16, items: { type: 'string', maxLength: 64 } },
    // Obfuscation pads stream events against telling token lengths from their sizes; the gateway's deltas are not tokens.
    stream_options: { type: ['object', 'null'], additionalProperties: false, properties: { include_obfuscation: { type: 'boolean' } } },
    // The most MCP calls the tool loop runs in this response (see ToolCallBudget).
    max_tool_calls: { type: ['integer', 'null'], minimum: 1 },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: ['mcp', 'function'] } },
        if: { required: ['type'], properties: { type: { const: 'mcp' } } },
        then: {
          required: ['server_label'],
          properties: {
            server_label: { type: 'string', minLength: 1 },
            server_url: { type: 'string', format: 'uri', pattern: '^https?://' },
            // The client's headers for its tool server: bounded, each a token name and a value a header can carry.
            headers: {
              type: 'object',
              maxProperties: 64,
              propertyNames: { pattern: HEADER_NAME_PATTERN, maxLength: MAX_PARAMETER_NAME_LENGTH },
              additionalProperties: { type: 'string', maxLength: MAX_SECRET_LENGTH, pattern: HEADER_SAFE_TEXT_PATTERN },
            },
          },
        },
        else: { required: ['name'], properties: { name: TOOL_NAME } },
      },
    },
    tool_choice: toolChoiceSchema,
    text: textSchema,
    reasoning: reasoningSchema,
  },
});

/**
 * Header names a client may not set for its tool server: the connection's own (framing, hop-by-hop) and `host`, which
 * would send the request to another virtual host of an allowed server than its URL names.
 */
const RESERVED_TOOL_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'transfer-encoding', 'content-length', 'te', 'trailer', 'upgrade', 'expect']);

/** An MCP tool's `headers` may not set a reserved name, in any case. */
function checkToolHeaders(request: ResponsesRequest): void {
  for (const [index, tool] of (request.tools ?? []).entries()) {
    if (tool.type !== 'mcp') continue;
    for (const name of Object.keys(tool.headers ?? {})) {
      if (RESERVED_TOOL_HEADERS.has(name.toLowerCase())) {
        throw Errors.validation([`The header '${name}' of tools[${index}].headers is set by the gateway for the connection, not by the client.`], { param: `tools[${index}].headers.${name}` });
      }
    }
  }
}

/** A `tool_choice` object must name a tool of the request: a function tool by `name`, an MCP tool by `server_label`. */
function checkToolChoice(request: ResponsesRequest): void {
  const choice = request.tool_choice;
  if (typeof choice !== 'object' || choice.type === 'allowed_tools') return;
  const tools = request.tools ?? [];
  if (choice.type === 'function') {
    if (!tools.some((tool) => tool.type === 'function' && tool.name === choice.name)) {
      throw Errors.validation([`The field 'tool_choice' names the function ${choice.name}, which is not among the request's tools.`], { param: 'tool_choice.name' });
    }
  } else if (choice.type === 'mcp') {
    if (!tools.some((tool) => tool.type === 'mcp' && (choice.server_label === undefined || tool.server_label === choice.server_label))) {
      const server = choice.server_label === undefined ? 'an MCP server' : `the MCP server ${choice.server_label}`;
      throw Errors.validation([`The field 'tool_choice' names ${server}, which is not among the request's tools.`], { param: choice.server_label === undefined ? 'tool_choice' : 'tool_choice.server_label' });
    }
  } else {
    throw Errors.validation([`The field 'tool_choice' names a ${choice.type} tool; this gateway runs only function and mcp tools.`], { param: 'tool_choice.type' });
  }
}

/**
 * Request members naming something only OpenAI's own service keeps, which no provider behind the gateway can act on:
 * refused by name rather than ignored (ignoring them would answer a different request than the one sent).
 */
const UNSERVED_MEMBERS: ReadonlyArray<{ name: string; asks: (value: unknown) => boolean; why: string }> = [
  { name: 'background', asks: (value) => value === true, why: 'background responses are not supported by this gateway; send the request without background (stream it to see progress)' },
  { name: 'prompt', asks: (value) => value !== undefined && value !== null, why: 'stored prompt templates live at OpenAI and cannot be read by this gateway; send the prompt as instructions and input' },
  { name: 'conversation', asks: (value) => value !== undefined && value !== null, why: 'conversations are not kept by this gateway; chain responses with previous_response_id' },
  {
    name: 'truncation',
    asks: (value) => value === 'auto',
    why: 'auto truncation is not supported by this gateway, which does not know each model\'s context window to drop earlier items by; send truncation disabled (the default) and shorten the input yourself',
  },
];

/** Refuses the first member of {@link UNSERVED_MEMBERS} the request sets. */
function checkUnservedMembers(body: Record<string, unknown>): void {
  for (const member of UNSERVED_MEMBERS) {
    if (member.asks(body[member.name])) throw Errors.validation([`The field '${member.name}' cannot be honoured: ${member.why}.`], { param: member.name });
  }
}

/** The one `include` value the gateway produces data for: the answer's token log probabilities on its `output_text` parts. */
export const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/**
 * The value a stateless client (`store: false`, e.g. a coding agent) sends on every request to get its reasoning back
 * encrypted. Accepted, with nothing added: the gateway answers no reasoning items and skips them on input (chat APIs take
 * no earlier reasoning back), so the client has nothing to hand back and loses nothing it could have.
 */
const REASONING_INCLUDE = 'reasoning.encrypted_content';

/**
 * Refuses an `include` value other than {@link LOGPROBS_INCLUDE} and `reasoning.encrypted_content` (400 naming
 * `include[i]`): each asks for data of items the gateway does not produce (hosted tools' results, input image URLs).
 */
function checkInclude(request: ResponsesRequest): void {
  for (const [index, value] of (request.include ?? []).entries()) {
    if (value === LOGPROBS_INCLUDE || value === REASONING_INCLUDE) continue;
    throw Errors.validation([`The field 'include' asks for ${value}, which cannot be included: this gateway runs only function and MCP tools and answers no such data. Only ${LOGPROBS_INCLUDE} can be.`], { param: `include[${index}]` });
  }
}

/**
 * Checks a /v1/responses body and answers it typed; throws a 400 `invalid_value` naming the first
 * bad field: `tool_choice`, `text` and `reasoning` included, so a wrong one is refused before anything is stored or called.
 * @example
 * const request = validateResponsesRequest(req.body);
 */
export function validateResponsesRequest(body: unknown): ResponsesRequest {
  const request = validateSchema(body);
  checkUnservedMembers(request as unknown as Record<string, unknown>);
  checkToolHeaders(request);
  checkToolChoice(request);
  checkInclude(request);
  return request;
}
