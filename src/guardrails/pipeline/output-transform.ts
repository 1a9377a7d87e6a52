// The output processors that rewrite streamed text (DLP mask, redact, replace), run on one text of a stream under the policy's timeout.
import type { GuardrailPolicy } from '../../admin/policy-validation.js';
import { Errors } from '../../errors/error-registry.js';
import type { GuardrailCheck } from '../../records/request-records.js';
import type { TextReplacement } from '../../plugins/plugin-types.js';
import type { GuardrailEngine } from '../guardrail-engine.js';
import { processorOptions } from '../policy-options.js';
import { withTimeout } from './check-runner.js';
import { processorsFor } from './effective-policy.js';
import { mergeReplacements, outcomeReplacements } from './text-replacements.js';

/** True when the processor says these policy options make it rewrite text (options it cannot read count as yes). */
function transforms(engine: GuardrailEngine, policy: Readonly<GuardrailPolicy>, name: string): boolean {
  const plugin = engine.get(name);
  if (!plugin?.transformsText) return false;
  try {
    return plugin.transformsText(engine.resolveOptions(name, processorOptions(policy, name)));
  } catch {
    return true;
  }
}

/**
 * The transforming processors of a policy's output phase, as a stream uses them: the spans they replace in a text (so
 * the text is released piece by piece), or a whole text through each in turn. Each evaluation runs under the policy's
 * `timeout_ms`; a processor that throws or times out throws 503 `guardrail_transform_failed` (and is recorded as a
 * failed check), whatever the mode and `on_error`: the text cannot be sent untransformed.
 */
export class OutputTransform {
  private constructor(
    private readonly engine: GuardrailEngine,
    private readonly policy: Readonly<GuardrailPolicy>,
    private readonly checks: GuardrailCheck[],
    /** The transforming processors, in the policy's order. */
    readonly names: readonly string[],
  ) {}

  /** The output transform of a policy, or undefined when no output processor rewrites text (the stream then flows as it comes). */
  static of(engine: GuardrailEngine, policy: Readonly<GuardrailPolicy>, checks: GuardrailCheck[]): OutputTransform | undefined {
    const names = processorsFor(policy, 'output').map(([name]) => name).filter((name) => transforms(engine, policy, name));
    return names.length > 0 ? new OutputTransform(engine, policy, checks, names) : undefined;
  }

  /**
   * The spans the processors replace in `text`, merged, in order; undefined when one changed the text without saying
   * where (or two replace overlapping spans): the caller then holds that text to its end.
   */
  async replacements(text: string): Promise<TextReplacement[] | undefined> {
    const lists = await Promise.all(this.names.map(async (name) => outcomeReplacements(text, await this.evaluate(name, text))));
    return lists.some((list) => list === undefined) ? undefined : mergeReplacements(lists as TextReplacement[][]);
  }

  /** `text` through each processor in turn, for a text transformed whole. */
  async transform(text: string): Promise<string> {
    let out = text;
    for (const name of this.names) {
      if (out === '') break;
      out = (await this.evaluate(name, out)).transformedText ?? out;
    }
    return out;
  }

  private async evaluate(name: string, text: string): Promise<{ transformedText?: string; replacements?: TextReplacement[] }> {
    const started = performance.now();
    try {
      const input = this.engine.get(name)?.pipelineInput?.(text);
      const options = processorOptions(this.policy, name);
      return await withTimeout((signal) => this.engine.evaluate(name, text, { options, input, signal }), this.policy.timeout_ms);
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const latency = Math.round((performance.now() - started) * 1000) / 1000;
      this.checks.push({ processor: name, phase: 'output', request_reject: true, triggered: [], results: null, error: message, on_error: 'fail_closed', latency_ms: latency });
      throw Errors.guardrailTransformFailed([name, message], { details: { processor: name, phase: 'output' } });
    }
  }
}
