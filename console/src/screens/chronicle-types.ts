// The request log entry as GET /v1/admin/applications/:appname/chronicles answers it; checks and tool calls are the server's own record types (a leaf module, types only).

import type { GuardrailCheck, ToolInvocation } from '../../../src/records/request-records.js';

export type { GuardrailCheck, ToolInvocation };

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
  /** The answer's cost from the gateway's price table; null when the model has no price. */
  cost?: { usd: number } | null;
  guardrail_checks: GuardrailCheck[];
  tool_invocations: ToolInvocation[];
  error: { code: string; message: string; type: string } | null;
  /** A stream an output guardrail cut: `output` is what the client received. */
  stream_cut?: { after_chars: number; code: string };
  truncated?: Array<{ field: string; bytes: number }>;
}
