// The request log entry as GET /v1/admin/applications/:appname/chronicles answers it. Declared here, not imported: the console meets the server only at the HTTP API.

/** One guardrail check of an entry. */
export interface GuardrailCheck {
  processor: string;
  phase: string;
  request_reject: boolean;
  triggered: string[];
  results: unknown;
  error?: string;
  on_error?: string;
  latency_ms: number;
}

/** One tool call through a registry. */
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

/** A request log entry. */
export interface ChronicleEntry {
  id: string;
  timestamp: string;
  application: string;
  kind: 'model' | 'tool';
  endpoint: string;
  route: string | null;
  provider: string | null;
  model: string | null;
  status: number;
  latency_ms: number;
  stream: boolean;
  attempts: unknown[];
  input: unknown;
  output: string | null;
  usage: Record<string, unknown> | null;
  guardrail_checks: GuardrailCheck[];
  tool_invocations: ToolInvocation[];
  error: { code: string; message: string; type: string } | null;
  /** A stream an output guardrail cut: `output` is what the client received. */
  stream_cut?: { after_chars: number; code: string };
  truncated?: Array<{ field: string; bytes: number }>;
}
