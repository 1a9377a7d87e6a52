// Turns a stored guardrail policy into one processor's options and threshold, and holds the default policy.
import type { GuardrailPolicy } from '../admin/policy-validation.js';
import { DLP_PROCESSOR } from './dlp-processor.js';

/** The policy of the standalone endpoint when no application is named: reject mode, each processor's own defaults. */
export const DEFAULT_STANDALONE_POLICY: GuardrailPolicy = {
  mode: 'reject',
  processors: {},
  on_error: 'fail_closed',
  timeout_ms: 2000,
};

/** The DLP processor, whose options also come from the policy's `dlp` section. */
export { DLP_PROCESSOR };

/** A processor's options under a policy: its entry (without policy-only fields) plus, for DLP, the `dlp` section. */
export function processorOptions(policy: GuardrailPolicy, processor: string): Record<string, unknown> {
  const { enabled: _enabled, apply_to: _applyTo, ...entry } = policy.processors[processor] ?? {};
  if (processor === DLP_PROCESSOR && policy.dlp) {
    if (policy.dlp.strategy !== undefined) entry.strategy = policy.dlp.strategy;
    if (policy.dlp.info_types !== undefined) entry.info_types = policy.dlp.info_types;
  }
  return entry;
}
