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
