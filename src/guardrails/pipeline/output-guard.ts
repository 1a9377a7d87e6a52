// Output checks on model answers: whole JSON answers before they are sent, and streams over a sliding window as they flow.
import type { GuardrailPolicy } from '../../admin/policy-validation.js';
import type { GatewayError } from '../../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import { DLP_PROCESSOR, processorOptions } from '../policy-options.js';
import { runChecks, type GuardrailCheck } from './check-runner.js';
import { processorsFor } from './effective-policy.js';
import { answerCheckSlots, type TextSlot } from './message-text.js';

/** How much new streamed text is held before a window is checked, and how much text a window holds. */
export interface StreamWindowing {
  stepChars: number;
  windowChars: number;
}

/** Default windowing: check every 200 new characters over the last 1,000. */
export const DEFAULT_WINDOWING: StreamWindowing = { stepChars: 200, windowChars: 1000 };

/** The output phase of a request's policy, as the proxy's relay uses it. */
export class OutputGuard {
  /** True in reject mode: streamed text is held until its window passes. In inspect mode, streams flow and are checked at the end. */
  readonly blocking: boolean;
  /** True when the output phase runs the DLP processor: a stream's text is then kept in the log transformed ({@link recordedText}). */
  readonly transformsRecord: boolean;

  constructor(
    private readonly engine: GuardrailEngine,
    private readonly policy: Readonly<GuardrailPolicy>,
    private readonly checks: GuardrailCheck[],
    readonly windowing: StreamWindowing = DEFAULT_WINDOWING,
  ) {
    this.blocking = policy.mode === 'reject';
    this.transformsRecord = engine.has(DLP_PROCESSOR) && processorsFor(policy, 'output').some(([name]) => name === DLP_PROCESSOR);
  }

  /**
   * Checks a JSON answer (content, refusal, reasoning and tool call arguments), transforming its text in place (DLP);
   * answers the error to send instead, if any.
   */
  async checkAnswer(answer: Record<string, unknown>): Promise<GatewayError | undefined> {
    const run = await runChecks(this.engine, this.policy, 'output', answerCheckSlots(answer));
    this.checks.push(...run.checks);
    return run.reject;
  }

  /**
   * A streamed answer's text as the request log keeps it: streams reach the client as they came, but when the policy's
   * output phase runs the DLP processor, the log gets its transform (`mask`, `redact`), as a JSON answer's text has it.
   * Undefined when the output phase runs no DLP, or when its transform leaves the text as it is; null when the
   * transform failed (the text is then not kept at all rather than kept unmasked).
   */
  async recordedText(text: string): Promise<string | null | undefined> {
    if (!this.transformsRecord) return undefined;
    try {
      const input = this.engine.get(DLP_PROCESSOR)?.pipelineInput?.(text);
      const outcome = await this.engine.evaluate(DLP_PROCESSOR, text, { options: processorOptions(this.policy, DLP_PROCESSOR), input, signal: AbortSignal.timeout(this.policy.timeout_ms) });
      return outcome.transformedText === undefined || outcome.transformedText === text ? undefined : outcome.transformedText;
    } catch {
      return null;
    }
  }

  /**
   * Checks one window of streamed text per choice and text of a choice (each its own slot, so choices, tool calls and
   * a choice's content and refusal are never read interleaved).
   * Checks of earlier windows are replaced, so the log keeps the last window's checks (or the failing one).
   * Streams are checked, not transformed.
   */
  async checkWindows(texts: readonly string[]): Promise<GatewayError | undefined> {
    const slots = texts.map((text): TextSlot => ({ text, replace: () => undefined }));
    const run = await runChecks(this.engine, this.policy, 'output', slots);
    for (let i = this.checks.length - 1; i >= 0; i--) if (this.checks[i]?.phase === 'output') this.checks.splice(i, 1);
    this.checks.push(...run.checks);
    return this.blocking ? run.reject : undefined;
  }
}
