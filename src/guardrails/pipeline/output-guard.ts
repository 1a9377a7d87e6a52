// Output checks on model answers: whole JSON answers before they are sent, and streams over a sliding window as they flow.
import type { GuardrailPolicy } from '../../admin/policy-validation.js';
import type { GatewayError } from '../../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import { runChecks, type GuardrailCheck } from './check-runner.js';
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

  constructor(
    private readonly engine: GuardrailEngine,
    private readonly policy: Readonly<GuardrailPolicy>,
    private readonly checks: GuardrailCheck[],
    readonly windowing: StreamWindowing = DEFAULT_WINDOWING,
  ) {
    this.blocking = policy.mode === 'reject';
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
