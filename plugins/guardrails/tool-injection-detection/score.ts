// Scores one tool output: the sentence-level model (its prompt_injection and jailbreak outputs) and the general rules, highest wins.
import { detect } from '../prompt-injection-detection/detector.js';
import type { HashedModel } from '../prompt-injection-detection/hashed-model.js';
import type { InjectionRule } from '../prompt-injection-detection/rules.js';
import { scoreSegments } from './segments.js';

/** What one tool output scored, with its parts (for logs, tests and the eval). */
export interface ToolScores {
  prompt_injection: number;
  jailbreak: number;
  /** The tool model's highest window probability of a planted instruction. */
  model: number;
  /** The rules' combined score and the rules that matched. */
  rules: number;
  matched: string[];
}

/** How to read and score a tool output. */
export interface ToolScoreOptions {
  decode: boolean;
  scanLimit?: number;
  rules: readonly InjectionRule[];
  /** The tool-output model: `prompt_injection` first, then optionally `jailbreak`. */
  tool: HashedModel;
}

const round = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;

/**
 * `prompt_injection` combines the tool model (its highest sentence, over the text scanned up to `scanLimit`
 * characters) and the rules (over the text and its decoded payloads) as independent evidence, 1 - (1 - model)(1 - rules),
 * so a strong rule decides alone and a weak one only tips a borderline sentence; the model's own jailbreak output
 * counts too. Nothing here reads the prompt-injection model, so retraining it cannot move this processor.
 */
export function scoreToolOutput(text: string, options: ToolScoreOptions): ToolScores {
  const scanned = options.scanLimit !== undefined && text.length > options.scanLimit ? text.slice(0, options.scanLimit) : text;
  const rules = detect(scanned, { decode: options.decode, scanLimit: options.scanLimit, rules: options.rules, models: [] }).rules;
  const [model = 0, jailbreak = 0] = scoreSegments(options.tool, scanned);
  return {
    prompt_injection: round(Math.max(1 - (1 - model) * (1 - rules.prompt_injection), jailbreak)),
    jailbreak: round(jailbreak),
    model: round(model),
    rules: round(rules.prompt_injection),
    matched: rules.matched,
  };
}
