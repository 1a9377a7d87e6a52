// Validates a guardrail policy: its shape, that each processor is registered, and each processor's own options.
import { Errors } from '../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { DLP_PROCESSOR } from '../guardrails/dlp-processor.js';
import { compileValidator } from '../validation/schema-validator.js';
import { policySchema, routePolicySchema } from './schemas/policy-schema.js';

/** One processor entry of a policy. */
export interface PolicyProcessorEntry {
  enabled: boolean;
  threshold?: number;
  /** Phases the entry runs in; policies accept `input` and `output` (registry policies use `tool_result` internally). */
  apply_to: Array<'input' | 'output' | 'tool_result'>;
  [option: string]: unknown;
}

/** A guardrail policy, as applications and route overrides store it. */
export interface GuardrailPolicy {
  mode: 'inspect' | 'reject';
  processors: Record<string, PolicyProcessorEntry>;
  dlp?: { strategy?: 'mask' | 'redact' | 'replace' | 'inspect' | 'reject'; info_types?: string[] };
  on_error: 'fail_open' | 'fail_closed';
  timeout_ms: number;
  /**
   * What input checks do with content they cannot read (images, audio, PDFs and other binary files): `allow` (the
   * default, and what a policy stored without it does) passes it unread; `reject` refuses the request with 400.
   */
  unreadable_content?: 'allow' | 'reject';
  /**
   * True to read the text of PDFs sent inline so input checks read it (off by default: it costs CPU on the request
   * path). A PDF whose text a transform would change is refused, since a PDF cannot be rewritten.
   */
  read_pdf_text?: boolean;
}

/** A route's override: a policy that applies instead of the application's when `enabled`. */
export interface RoutePolicy extends GuardrailPolicy {
  enabled: boolean;
}

const validatePolicyShape = compileValidator<GuardrailPolicy>(policySchema);
const validateRoutePolicyShape = compileValidator<RoutePolicy>(routePolicySchema);

function checkProcessors(policy: GuardrailPolicy, engine: GuardrailEngine, prefix: string): void {
  for (const [name, entry] of Object.entries(policy.processors)) {
    const param = `${prefix}processors.${name}`;
    if (!engine.has(name)) {
      throw Errors.validation([`The processor '${name}' is not registered; known: ${engine.names().join(', ') || 'none'}.`], {
        param,
      });
    }
    const { apply_to: _applyTo, ...options } = entry;
    engine.resolveOptions(name, options, param);
  }
  // A `dlp` strategy runs the DLP processor even when `processors` does not list it.
  if (policy.dlp?.strategy !== undefined && !engine.has(DLP_PROCESSOR)) {
    throw Errors.validation([`The dlp section needs the processor '${DLP_PROCESSOR}', which is not registered.`], { param: `${prefix}dlp.strategy` });
  }
}

/** The policy of an application that has none stored: the schema's defaults (inspect mode, no processors). */
export const DEFAULT_APPLICATION_POLICY: Readonly<GuardrailPolicy> = Object.freeze(validatePolicyShape({}));

/** Validates an application policy (filling defaults); throws 400 naming the field. */
export function validatePolicy(value: unknown, engine: GuardrailEngine, prefix = ''): GuardrailPolicy {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw Errors.bodyNotObject();
  const policy = validatePolicyShape(value, prefix.replace(/\.$/, ''));
  checkProcessors(policy, engine, prefix);
  return policy;
}

/** Validates a route's `config.policy` in place; throws 400 naming the field. */
export function validateRoutePolicy(value: unknown, engine: GuardrailEngine): RoutePolicy {
  const policy = validateRoutePolicyShape(value, 'config.policy');
  checkProcessors(policy, engine, 'config.policy.');
  return policy;
}
