// Types of the Responses API subset the gateway serves: request tools, output items and the response object.

/** An MCP tool entry of a Responses request. */
export interface McpToolEntry {
  type: 'mcp';
  server_label: string;
  /** A registry's request_url, or an external URL the operator allows; absent when `server_label` names a registry. */
  server_url?: string;
  headers?: Record<string, string>;
  allowed_tools?: string[] | { tool_names?: string[] } | null;
  require_approval?: 'always' | 'never' | { always?: { tool_names?: string[] }; never?: { tool_names?: string[] } };
}

/** A plain function tool of a Responses request; the client executes it. */
export interface FunctionToolEntry {
  type: 'function';
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict?: boolean;
}

/** `tool_choice` of a Responses request: a mode, or an object naming a tool (checked against the request's tools). */
export type ResponsesToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: string; name?: string | null; server_label?: string; mode?: 'auto' | 'required'; tools?: Array<Record<string, unknown>> };

/** The request body. */
export interface ResponsesRequest {
  model: string;
  input: string | Array<Record<string, unknown>>;
  instructions?: string;
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
  tools?: Array<McpToolEntry | FunctionToolEntry>;
  tool_choice?: ResponsesToolChoice;
  /** The output format and verbosity: the chat request's `response_format` and `verbosity`. */
  text?: { format?: { type: 'text' | 'json_object' | 'json_schema'; name?: string; schema?: Record<string, unknown> }; verbosity?: string | null };
  /** Reasoning effort (the chat request's `reasoning_effort`) and summary (not passed on). */
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  stream?: boolean;
  previous_response_id?: string;
  metadata?: Record<string, string>;
  user?: string;
  /** Passed on to the chat request as they are. */
  parallel_tool_calls?: boolean | null;
  safety_identifier?: string;
  prompt_cache_key?: string;
  service_tier?: string | null;
  /** Data to add to the answer: only `message.output_text.logprobs` is taken. */
  include?: string[] | null;
  /** Alternatives per token position in the answer's log probabilities. */
  top_logprobs?: number | null;
  stream_options?: { include_obfuscation?: boolean } | null;
  /** The most MCP calls the tool loop runs in this response; further calls of the model are ignored. */
  max_tool_calls?: number | null;
}

/** One output item. */
export type OutputItem = Record<string, unknown> & { type: string; id: string };

/** Token usage, summed over the rounds. */
export interface ResponseUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
  /**
   * Input written to the provider's prompt cache (a part of `input_tokens`, as in the Anthropic adapter's chat usage);
   * present when a round reported it (Anthropic).
   */
  cache_creation_input_tokens?: number;
  /** `cache_creation_input_tokens` by how long the cache keeps it; present when a round broke it down (Anthropic's `cache_creation`). */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}
