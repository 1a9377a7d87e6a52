// Runs a policy's processors on text concurrently, each under a timeout, and decides: pass, transform or reject.
import type { GuardrailPolicy } from '../../admin/policy-validation.js';
import { Errors, type GatewayError } from '../../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import type { GuardrailOutcome } from '../../plugins/plugin-types.js';
import { DLP_PROCESSOR, processorOptions } from '../policy-options.js';
import type { GuardrailCheck, GuardrailPhase } from '../../records/request-records.js';
import { processorsFor } from './effective-policy.js';
import { joinSlots } from './message-text.js';
import type { TextSlot } from './text-slot.js';

export type { GuardrailCheck } from '../../records/request-records.js';

/** The outcome of one phase. */
export interface CheckRun {
  checks: GuardrailCheck[];
  /** The error to answer when the phase blocks the request. */
  reject?: GatewayError;
}

interface Evaluation {
  flagged: boolean;
  triggered: string[];
  results: unknown;
}

/** Runs `work` with a signal aborted after `ms`; rejects when it has not settled by then. */
export function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${ms} ms`));
    }, ms);
  });
  return Promise.race([work(controller.signal), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Processors built for text a tool returned. Among a request's texts they read only its tool results: a tool's
 * description and a user's question are written to instruct the model, which is what they flag (most ordinary
 * descriptions and questions would be refused).
 */
const TOOL_RESULT_PROCESSORS: ReadonlySet<string> = new Set(['toolinjectiondetection']);

type Run = (text: string) => Promise<GuardrailOutcome>;

/**
 * Runs a processor on the joined text of `slots`. When its answer carries `transformedText`, it is run again on each
 * slot, and each slot takes its own `transformedText` (the joined text cannot be split back safely).
 */
async function evaluateJoined(run: Run, slots: TextSlot[]): Promise<Evaluation> {
  const text = joinSlots(slots);
  const outcome = await run(text);
  let unchangeable = false;
  if (outcome.transformedText !== undefined && outcome.transformedText !== text) {
    unchangeable = applyTransforms(slots, slots.length === 1 ? [outcome] : await Promise.all(slots.map((slot) => run(slot.text))));
  }
  return { flagged: outcome.flagged || unchangeable, triggered: outcome.triggered ?? [], results: outcome.results };
}

/**
 * Evaluates one processor: DLP per slot (rewriting slots it transforms), the others on the joined text (see
 * {@link evaluateJoined}), so any processor's transform reaches what is sent. Tool definitions are joined into a text
 * of their own, checked beside the messages', so a request's tools never dilute what a check reads in its messages
 * (the results recorded are those of the text that flagged, else the messages'). A transform that would change a
 * read-only slot flags the check: that text can be neither rewritten nor sent as is. In the input phase, a processor
 * built for tool results reads only the request's tool results (none: nothing to read, nothing flagged).
 */
async function evaluateProcessor(
  engine: GuardrailEngine,
  policy: Readonly<GuardrailPolicy>,
  name: string,
  phase: GuardrailPhase,
  slots: TextSlot[],
  signal: AbortSignal,
): Promise<Evaluation> {
  const options = processorOptions(policy, name);
  const toInput = engine.get(name)?.pipelineInput;
  const run: Run = (text) => engine.evaluate(name, text, { options, input: toInput?.(text), signal });
  if (phase === 'input' && TOOL_RESULT_PROCESSORS.has(name)) {
    const results = slots.filter((slot) => slot.toolResult);
    return results.length === 0 ? { flagged: false, triggered: [], results: null } : evaluateJoined(run, results);
  }
  if (name !== DLP_PROCESSOR) {
    if (!slots.some((slot) => slot.definition)) return evaluateJoined(run, slots);
    const messages = slots.filter((slot) => !slot.definition);
    const definitions = slots.filter((slot) => slot.definition);
    const evaluations = await Promise.all([messages, definitions].filter((group) => group.length > 0).map((group) => evaluateJoined(run, group)));
    if (evaluations.length === 0) return { flagged: false, triggered: [], results: null };
    return {
      flagged: evaluations.some((evaluation) => evaluation.flagged),
      triggered: [...new Set(evaluations.flatMap((evaluation) => evaluation.triggered))],
      results: (evaluations.find((evaluation) => evaluation.flagged) ?? evaluations[0]!).results,
    };
  }
  const outcomes = await Promise.all(slots.map((slot) => run(slot.text)));
  const unchangeable = applyTransforms(slots, outcomes);
  return {
    flagged: unchangeable || outcomes.some((outcome) => outcome.flagged),
    triggered: [...new Set(outcomes.flatMap((outcome) => outcome.triggered ?? []))],
    results: outcomes.map((outcome) => outcome.results),
  };
}

/**
 * Puts each slot's `transformedText`, where its outcome has one, back into the slot. A read-only slot (a tool or
 * parameter name) is left as it is; answers true when a transform would have changed one, which flags the check.
 */
function applyTransforms(slots: TextSlot[], outcomes: ReadonlyArray<{ transformedText?: string }>): boolean {
  let unchangeable = false;
  outcomes.forEach((outcome, index) => {
    const slot = slots[index];
    if (outcome.transformedText === undefined || !slot) return;
    if (slot.fixed) unchangeable ||= outcome.transformedText !== slot.text;
    else slot.replace(outcome.transformedText);
  });
  return unchangeable;
}

/** The reason recorded when a policy names a processor that is not registered. */
export const NOT_REGISTERED = 'the processor is not registered';

/**
 * The processors a policy runs in `phase` that are not registered (for example after a restart without
 * their plugin). A policy naming one fails closed whatever its mode and `on_error`: it cannot be enforced.
 */
export function unregisteredProcessors(engine: GuardrailEngine, policy: Readonly<GuardrailPolicy>, phases: readonly GuardrailPhase[]): string[] {
  const missing = new Set<string>();
  for (const phase of phases) for (const [name] of processorsFor(policy, phase)) if (!engine.has(name)) missing.add(name);
  return [...missing];
}

/** The run of a phase whose policy names unregistered processors: a failed check each, and 503 guardrail_unavailable. */
export function unavailableRun(missing: readonly string[], phase: GuardrailPhase): CheckRun & { reject: GatewayError } {
  const checks = missing.map((processor): GuardrailCheck => ({
    processor, phase, request_reject: true, triggered: [], results: null, error: NOT_REGISTERED, on_error: 'fail_closed', latency_ms: 0,
  }));
  const first = missing[0] ?? 'unknown';
  return { checks, reject: Errors.guardrailUnavailable([first, NOT_REGISTERED], { details: { processor: first, phase } }) };
}

/**
 * Runs every processor of `phase` on the slots. A processor that is not registered fails the phase
 * closed (503 guardrail_unavailable) in every mode. In reject mode, a flagged check rejects, and so does
 * a failed one when the policy fails closed; in inspect mode nothing blocks and everything is recorded.
 */
export async function runChecks(engine: GuardrailEngine, policy: Readonly<GuardrailPolicy>, phase: GuardrailPhase, slots: TextSlot[]): Promise<CheckRun> {
  const selected = processorsFor(policy, phase);
  if (selected.length === 0) return { checks: [] };
  const missing = selected.filter(([name]) => !engine.has(name)).map(([name]) => name);
  if (missing.length > 0) return unavailableRun(missing, phase);
  if (slots.length === 0) return { checks: [] };
  const rejecting = policy.mode === 'reject';
  const checks = await Promise.all(
    selected.map(async ([name]): Promise<GuardrailCheck> => {
      const started = performance.now();
      try {
        const evaluation = await withTimeout((signal) => evaluateProcessor(engine, policy, name, phase, slots, signal), policy.timeout_ms);
        const latency = Math.round((performance.now() - started) * 1000) / 1000;
        const check: GuardrailCheck = { processor: name, phase, request_reject: rejecting && evaluation.flagged, triggered: evaluation.triggered, results: evaluation.results, latency_ms: latency };
        engine.observer?.checked(check, started);
        return check;
      } catch (error) {
        const latency = Math.round((performance.now() - started) * 1000) / 1000;
        const check: GuardrailCheck = { processor: name, phase, request_reject: false, triggered: [], results: null, error: (error as Error).message, on_error: policy.on_error, latency_ms: latency };
        engine.observer?.checked(check, started);
        return check;
      }
    }),
  );
  if (!rejecting) return { checks };
  const failed = checks.find((check) => check.error !== undefined && check.on_error === 'fail_closed');
  if (failed) {
    failed.request_reject = true;
    return { checks, reject: Errors.guardrailUnavailable([failed.processor, failed.error ?? 'error'], { details: { processor: failed.processor, phase } }) };
  }
  const flagged = checks.find((check) => check.request_reject);
  if (!flagged) return { checks };
  const categories = flagged.triggered.length > 0 ? flagged.triggered : ['policy violation'];
  return {
    checks,
    reject: Errors.guardrailRejected([phase, flagged.processor, categories.join(', ')], {
      details: { processor: flagged.processor, categories, phase },
    }),
  };
}
