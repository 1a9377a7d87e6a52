// Writes an MCP exchange other than a tool call (a resource read, a prompt get, a tool server's sampling or elicitation request) to Chronicles.
import { randomUUID } from 'node:crypto';
import { buildMcpEntry } from '../chronicles/chronicle-entry.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import type { GuardrailCheck } from '../records/request-records.js';

/** Where an exchange happened: the caller's application, the registry, the gateway path, and the request's credentials. */
export interface ExchangePlace {
  application: string;
  registry: string;
  endpoint: string;
  /** Scrubbed from the entry (with every stored provider key and registry token) in any form, as from tool calls. */
  secrets: readonly string[];
}

/** How an exchange ended, as the gateway decided it. */
export interface ExchangeOutcome {
  /** The registry policies (or a failure to read them) withheld it. */
  blocked?: boolean;
  /** The text the client was handed, after DLP redaction. */
  output?: string;
  /** The block's message, or the tool server's error. */
  error?: string;
  checks?: GuardrailCheck[];
}

/**
 * Records one exchange as a Chronicles entry of kind `mcp`, with the same scrubbing and field bounds as a tool call's
 * (the recorder applies both). A blocked exchange has the error code `mcp_blocked`; a tool server's error `mcp_error`.
 * @example
 * recordMcpExchange(recorder, place, 'resources/read', { uri: 'doc://notes' }, startedAt, 200, { output: text, checks });
 */
export function recordMcpExchange(recorder: ChroniclesRecorder, place: ExchangePlace, method: string, params: unknown, startedAt: number, status: number, outcome: ExchangeOutcome): void {
  const blocked = outcome.blocked === true;
  recorder.record(
    buildMcpEntry({
      id: randomUUID(),
      application: place.application,
      registry: place.registry,
      endpoint: place.endpoint,
      startedAt,
      status,
      exchange: { method, blocked },
      params,
      output: outcome.output,
      checks: outcome.checks ?? [],
      ...(outcome.error === undefined ? {} : { error: { code: blocked ? 'mcp_blocked' : 'mcp_error', message: outcome.error, type: 'mcp_error' } }),
    }),
    place.secrets,
  );
}
