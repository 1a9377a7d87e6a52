// Registry-level policies on tool results: injection, data protection and security filters, each in inspect or reject mode.
import type { GuardrailPolicy } from '../admin/policy-validation.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { runChecks, type GuardrailCheck } from '../guardrails/pipeline/check-runner.js';
import type { TextSlot } from '../guardrails/pipeline/message-text.js';
import { compileValidator } from '../validation/schema-validator.js';
import { shortTextSchema } from '../admin/schemas/common-schemas.js';

/** One filter family's settings. */
export interface FamilySettings {
  enabled: boolean;
  mode: 'inspect' | 'reject';
  threshold?: number;
  [option: string]: unknown;
}

/** A registry's policies: the spec's three filter families, and `tool_injection` (off unless enabled). */
export interface RegistryPolicies {
  malicious_instruction_injection: FamilySettings;
  /** Instructions planted in tool results (toolinjectiondetection); disabled by default. */
  tool_injection: FamilySettings;
  data_protection: FamilySettings & { action: 'redact' | 'block'; info_types?: string[] };
  security_filters: FamilySettings & { categories?: string[] };
  on_error: 'fail_open' | 'fail_closed';
  timeout_ms: number;
}

const family = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    enabled: { type: 'boolean', default: true },
    mode: { enum: ['inspect', 'reject'], default: 'inspect' },
    threshold: { type: 'number', minimum: 0, maximum: 1 },
    ...extra,
  },
});

/** JSON Schema of a registry's policies, with defaults (every family on, in inspect mode). */
export const registryPoliciesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    malicious_instruction_injection: family(),
    tool_injection: family({ enabled: { type: 'boolean', default: false } }),
    data_protection: family({ action: { enum: ['redact', 'block'], default: 'redact' }, info_types: { type: 'array', items: shortTextSchema, maxItems: 256 } }),
    security_filters: family({ categories: { type: 'array', items: shortTextSchema, maxItems: 256 } }),
    on_error: { enum: ['fail_open', 'fail_closed'], default: 'fail_closed' },
    timeout_ms: { type: 'integer', minimum: 1, maximum: 60000, default: 2000 },
  },
};

/** Validates a registry policy body, filling defaults. */
export const validateRegistryPolicies = compileValidator<RegistryPolicies>(registryPoliciesSchema);

/** The processor behind each family, and the options it gets. */
const FAMILIES = {
  malicious_instruction_injection: (s: FamilySettings) => ({ processor: 'promptinjectiondetection', options: {} as Record<string, unknown>, settings: s }),
  tool_injection: (s: FamilySettings) => ({ processor: 'toolinjectiondetection', options: {} as Record<string, unknown>, settings: s }),
  data_protection: (s: RegistryPolicies['data_protection']) => ({
    processor: 'dlp_cloud',
    options: { strategy: s.action === 'block' ? 'reject' : 'redact', ...(s.info_types ? { info_types: s.info_types } : {}) },
    settings: s,
  }),
  security_filters: (s: RegistryPolicies['security_filters']) => ({
    processor: 'security_filters',
    options: s.categories ? { categories: s.categories } : {},
    settings: s,
  }),
} as const;

/** The outcome of the policies on one tool result. */
export interface ToolResultVerdict {
  checks: GuardrailCheck[];
  /** The filter family that blocked the result, with what it found. */
  blocked?: { family: string; processor: string; categories: string[] };
}

/**
 * Runs each enabled family on the result's text slots. DLP redaction rewrites the slots in both modes;
 * a flagged family blocks only in reject mode (and a failed one, when the policy fails closed). With `stored`
 * policies, an enabled family whose processor is not registered blocks in every mode (it cannot be enforced).
 */
export async function applyRegistryPolicies(engine: GuardrailEngine, policies: RegistryPolicies, slots: TextSlot[], stored: boolean): Promise<ToolResultVerdict> {
  const checks: GuardrailCheck[] = [];
  const runs = await Promise.all(
    (Object.keys(FAMILIES) as Array<keyof typeof FAMILIES>).map(async (name) => {
      const { processor, options, settings } = FAMILIES[name](policies[name] as never);
      if (!settings.enabled) return undefined;
      // The defaults enable a family only where its processor is registered; a stored policy naming a missing one fails closed.
      if (!stored && !engine.has(processor)) return undefined;
      const policy: GuardrailPolicy = {
        mode: settings.mode,
        processors: { [processor]: { enabled: true, apply_to: ['tool_result'], ...options, ...(settings.threshold === undefined ? {} : { threshold: settings.threshold }) } },
        on_error: policies.on_error,
        timeout_ms: policies.timeout_ms,
      };
      return { name, run: await runChecks(engine, policy, 'tool_result', slots) };
    }),
  );
  let blocked: ToolResultVerdict['blocked'];
  for (const entry of runs) {
    if (!entry) continue;
    checks.push(...entry.run.checks);
    if (entry.run.reject && !blocked) {
      const details = entry.run.reject.details as { processor?: string; categories?: string[] } | undefined;
      blocked = { family: entry.name, processor: details?.processor ?? '', categories: details?.categories ?? ['unavailable'] };
    }
  }
  return { checks, blocked };
}

/** The enabled families of `policies` whose processor is not registered in `engine`, as `family (processor)`. */
export function unregisteredFamilies(engine: GuardrailEngine, policies: RegistryPolicies): string[] {
  return (Object.keys(FAMILIES) as Array<keyof typeof FAMILIES>).flatMap((name) => {
    const { processor, settings } = FAMILIES[name](policies[name] as never);
    return settings.enabled && !engine.has(processor) ? [`${name} (${processor})`] : [];
  });
}
