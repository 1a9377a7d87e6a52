// Record types shared by the request path, the guardrail pipeline and Chronicles; a leaf module that imports nothing.

/** The phases a check runs in: a model request's input and output, or a tool's result (registry policies). */
export type GuardrailPhase = 'input' | 'output' | 'tool_result';

/** One check as the request log records it. */
export interface GuardrailCheck {
  processor: string;
  phase: GuardrailPhase;
  request_reject: boolean;
  /** What exceeded the threshold (categories or info types). */
  triggered: string[];
  /** The processor's results; for dlp_cloud, one entry per checked message. */
  results: unknown;
  /** Set when the processor threw or timed out; `fail_open` or `fail_closed` says what followed. */
  error?: string;
  on_error?: 'fail_open' | 'fail_closed';
  latency_ms: number;
}

/** One upstream attempt, as recorded in answers' headers and in Chronicles. */
export interface AttemptRecord {
  provider: string;
  model: string;
  status: number | null;
  error?: string;
  latency_ms: number;
}

/** One tool call made through a registry, as the request log records it (filled by the MCP proxy). */
export interface ToolInvocation {
  tool: string;
  registry: string;
  arguments: unknown;
  result?: unknown;
  blocked?: boolean;
  error?: string;
  latency_ms: number;
  guardrail_checks: GuardrailCheck[];
}

/** An MCP exchange other than a tool call that the gateway decided on: a resource read, a prompt get, or a tool server's sampling or elicitation request. */
export interface McpExchange {
  method: string;
  blocked: boolean;
}

/** A stored model configuration (element of a route's `models`). */
export interface RouteModel {
  name: string;
  provider: string;
  suffix?: string;
  weight: number;
  fallback_enabled: boolean;
  fallback_codes: number[];
  virtual_secret_key?: string;
}

/** A stored provider record, as the request path reads it. */
export interface ProviderRecord {
  name: string;
  type: string;
  enabled: boolean;
  config: Record<string, unknown>;
}

/** A stored route record, as the request path reads it. */
export interface RouteRecord {
  name: string;
  type?: string;
  models?: RouteModel[];
  enabled: boolean;
  config: {
    settings: { rate_limit: number; retries: number; timeout_ms?: number };
    team?: Record<string, unknown>;
    policy?: Record<string, unknown> & { enabled?: boolean };
  };
}

/** A request log entry. */
export interface ChronicleEntry {
  id: string;
  timestamp: string;
  application: string;
  /** `model`: a model request; `tool`: a `tools/call` through a registry; `mcp`: another exchange with a registry (see {@link McpExchange}). */
  kind: 'model' | 'tool' | 'mcp';
  endpoint: string;
  route: string | null;
  provider: string | null;
  model: string | null;
  status: number;
  latency_ms: number;
  stream: boolean;
  attempts: AttemptRecord[];
  input: unknown;
  output: string | null;
  usage: Record<string, unknown> | null;
  /** What the answer cost, from the price table (see src/usage); null without usage or without a price. */
  cost?: { usd: number; input_usd: number; output_usd: number; cached_input_usd: number; cache_write_input_usd: number } | null;
  guardrail_checks: GuardrailCheck[];
  tool_invocations: ToolInvocation[];
  error: { code: string; message: string; type: string } | null;
  /** A stream an output guardrail cut: the characters the client received (they are `output`) and the error it ended with. */
  stream_cut?: { after_chars: number; code: string };
  /** The gateway's request id (`x-request-id`), for model requests. */
  request_id?: string;
  /** The OpenTelemetry trace id of the request, when a tracer is registered. */
  trace_id?: string;
  /** Model calls made by a Responses tool loop. */
  rounds?: number;
  /** On routes with a response cache: `hit` when the cache answered (no provider was called), else `miss`. */
  cache?: 'hit' | 'miss';
  /** Entries of kind `mcp`: the JSON-RPC method and whether the registry policies (or a failure to read them) blocked it. */
  mcp?: McpExchange;
  /** The fields cut to the recorder's `maxFieldBytes`, with their sizes before the cut (see entry-limits.ts). */
  truncated?: Array<{ field: string; bytes: number }>;
}
