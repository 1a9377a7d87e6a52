// The registry policies on a tool server's HTTP error body, which MCP clients put into the error a call fails with.
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import type { TextSlot } from '../guardrails/pipeline/text-slot.js';
import { INTERNAL_ERROR } from './jsonrpc-messages.js';
import { applyRegistryPolicies, validateRegistryPolicies } from './registry-policies.js';
import type { RegistryService } from './registry-service.js';

/** A tool server's error body as the client may read it. */
export interface CheckedErrorBody {
  text: string;
  /** Set when the policies blocked the body: the text is then the gateway's JSON-RPC error, to be sent as JSON. */
  blocked?: boolean;
}

/**
 * Runs a registry's policies on the body of a tool server's HTTP error (4xx, 5xx) to a POST. MCP clients read that body
 * into the error the call fails with (the official SDK's `Error POSTing to endpoint: <body>`), which a client often
 * hands its model as the call's outcome, so it is the tool server's text as a result is: DLP masks it, and a blocked
 * body is replaced by a JSON-RPC error saying so. The body was already bounded by the proxy's answer limit.
 * @example
 * const checked = await checkedErrorBody(service, engine, 'github', 'failed for bob@example.com');
 */
export async function checkedErrorBody(service: RegistryService, engine: GuardrailEngine, registry: string, body: string): Promise<CheckedErrorBody> {
  if (body === '') return { text: body };
  let text = body;
  const slot: TextSlot = { text, replace: (next) => void (text = next) };
  const stored = await service.storedPolicies(registry);
  const verdict = await applyRegistryPolicies(engine, stored ?? validateRegistryPolicies({}), [slot], stored !== undefined);
  if (!verdict.blocked) return { text };
  const message = `Blocked by the registry policy ${verdict.blocked.family} (${verdict.blocked.processor}: ${verdict.blocked.categories.join(', ')}).`;
  return { text: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: INTERNAL_ERROR, message } }), blocked: true };
}
