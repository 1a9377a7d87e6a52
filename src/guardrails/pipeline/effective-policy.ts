// The guardrail policy in force for a model request: the route's override when enabled, else the application's.
import { DEFAULT_APPLICATION_POLICY, type GuardrailPolicy, type PolicyProcessorEntry } from '../../admin/policy-validation.js';
import type { Storage } from '../../storage/storage-facade.js';
import type { GuardrailPhase, RouteRecord } from '../../records/request-records.js';
import { DLP_PROCESSOR } from '../policy-options.js';

export type { GuardrailPhase } from '../../records/request-records.js';

/** Where a policy came from, for the request log. */
export type PolicySource = 'route' | 'application' | 'none';


/** Reads the policy in force: `config.policy` of the route when its `enabled` is true, else the application's. */
export async function effectivePolicy(
  storage: Storage,
  application: string,
  route: Readonly<RouteRecord> | undefined,
): Promise<{ policy: Readonly<GuardrailPolicy>; source: PolicySource }> {
  const override = route?.config.policy;
  if (override?.enabled === true) return { policy: override as unknown as GuardrailPolicy, source: 'route' };
  const stored = await storage.getCached<GuardrailPolicy>(`application-policies/${application}`);
  return stored ? { policy: stored, source: 'application' } : { policy: DEFAULT_APPLICATION_POLICY, source: 'none' };
}

/** The processors a policy runs in one phase, with their entries. DLP also runs when the policy's `dlp` section sets a strategy. */
export function processorsFor(policy: Readonly<GuardrailPolicy>, phase: GuardrailPhase): Array<[string, PolicyProcessorEntry]> {
  const selected: Array<[string, PolicyProcessorEntry]> = [];
  for (const [name, entry] of Object.entries(policy.processors)) {
    if (entry.enabled === false) continue;
    if (!(entry.apply_to ?? ['input', 'output']).includes(phase)) continue;
    selected.push([name, entry]);
  }
  if (policy.dlp?.strategy !== undefined && !(DLP_PROCESSOR in policy.processors)) {
    selected.push([DLP_PROCESSOR, { enabled: true, apply_to: ['input', 'output'] }]);
  }
  return selected;
}
