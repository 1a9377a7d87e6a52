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

/**
 * The policy in force when it is known without a storage read (a route override, or the application's policy in the
 * storage cache); undefined when it must be read with {@link effectivePolicy}.
 */
export function cachedEffectivePolicy(storage: Storage, application: string, route: Readonly<RouteRecord> | undefined): Readonly<GuardrailPolicy> | undefined {
  const override = route?.config.policy;
  if (override?.enabled === true) return override as unknown as GuardrailPolicy;
  const stored = storage.peekCached<GuardrailPolicy>(`application-policies/${application}`);
  return stored === undefined ? undefined : (stored.value ?? DEFAULT_APPLICATION_POLICY);
}

/** True when a policy names no processor and no DLP strategy: it checks nothing, in any phase. */
export function isEmptyPolicy(policy: Readonly<GuardrailPolicy>): boolean {
  return Object.keys(policy.processors).length === 0 && policy.dlp?.strategy === undefined;
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
