// Output checks on model answers: whole JSON answers before they are sent, and streams over a sliding window as they flow.
import type { GuardrailPolicy } from '../../admin/policy-validation.js';
import { Errors, type GatewayError } from '../../errors/error-registry.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import { runChecks, type GuardrailCheck } from './check-runner.js';
import { answerCheckSlots, type TextSlot } from './message-text.js';
import { OutputTransform } from './output-transform.js';

/** How much new streamed text is held before a window is checked, and how much text a window holds. */
export interface StreamWindowing {
  stepChars: number;
  windowChars: number;
  /**
   * Under an output transform (DLP mask, redact, replace), how many characters of each streamed text stay held after
   * a transform step, so an entity arriving in pieces is whole before it is sent: 1 to 100,000, default 200. A text is
   * transformed each time `stepChars` more than this are held.
   */
  holdChars?: number;
}

/** Default windowing: check every 200 new characters over the last 1,000; under a transform, hold the last 200. */
export const DEFAULT_WINDOWING: StreamWindowing = { stepChars: 200, windowChars: 1000, holdChars: 200 };

/** The largest `holdChars`. */
const MAX_HOLD_CHARS = 100_000;

/** The windowing of the gateway's options, defaults filled; throws `config_invalid` for a `holdChars` out of bounds. */
export function streamWindowingOf(windowing: StreamWindowing | undefined): StreamWindowing {
  const filled = { ...DEFAULT_WINDOWING, ...windowing };
  const hold = filled.holdChars;
  if (hold === undefined || !Number.isSafeInteger(hold) || hold < 1 || hold > MAX_HOLD_CHARS) {
    throw Errors.configInvalid([`streamWindowing.holdChars must be an integer from 1 to ${MAX_HOLD_CHARS}`]);
  }
  return filled;
}

/** The output phase of a request's policy, as the proxy's relay uses it. */
export class OutputGuard {
  /** True in reject mode: streamed text is held until its window passes. In inspect mode, streams flow and are checked at the end. */
  readonly blocking: boolean;
  /**
   * The output processors that rewrite text (DLP `mask`, `redact`, `replace`; processors that declare it), which a
   * stream runs on each of its texts as it flows; undefined when there are none (the stream then goes as it comes).
   */
  readonly transform: OutputTransform | undefined;

  constructor(
    private readonly engine: GuardrailEngine,
    private readonly policy: Readonly<GuardrailPolicy>,
    private readonly checks: GuardrailCheck[],
    readonly windowing: StreamWindowing = DEFAULT_WINDOWING,
  ) {
    this.blocking = policy.mode === 'reject';
    this.transform = OutputTransform.of(engine, policy, checks);
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
   * After {@link checkAnswer}: the error to answer instead of a stream built from the answer when a transforming
   * processor failed on it (its text would go out untransformed, which a stream never does), or undefined.
   */
  transformFailure(): GatewayError | undefined {
    const names = this.transform?.names ?? [];
    const failed = this.checks.find((check) => check.phase === 'output' && check.error !== undefined && names.includes(check.processor));
    return failed && Errors.guardrailTransformFailed([failed.processor, failed.error!], { details: { processor: failed.processor, phase: 'output' } });
  }

  /**
   * Checks one window of streamed text per choice and text of a choice (each its own slot, so choices, tool calls and
   * a choice's content and refusal are never read interleaved).
   * Checks of earlier windows are replaced, so the log keeps the last window's checks (or the failing one).
   * Windows are checked, not transformed: a stream's transform is {@link transform}'s.
   */
  async checkWindows(texts: readonly string[]): Promise<GatewayError | undefined> {
    const slots = texts.map((text): TextSlot => ({ text, replace: () => undefined }));
    const run = await runChecks(this.engine, this.policy, 'output', slots);
    for (let i = this.checks.length - 1; i >= 0; i--) if (this.checks[i]?.phase === 'output') this.checks.splice(i, 1);
    this.checks.push(...run.checks);
    return this.blocking ? run.reject : undefined;
  }
}
