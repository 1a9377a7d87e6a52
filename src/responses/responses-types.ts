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

/** The request body. */
export interface ResponsesRequest {
  model: string;
  input: string | Array<Record<string, unknown>>;
  instructions?: string;
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
  tools?: Array<McpToolEntry | FunctionToolEntry>;
  tool_choice?: unknown;
  stream?: boolean;
  previous_response_id?: string;
  metadata?: Record<string, string>;
  user?: string;
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
}
