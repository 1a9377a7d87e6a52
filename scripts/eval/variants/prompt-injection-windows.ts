// Exploration, not part of eval:guardrails: leave-one-source-out for promptinjectiondetection, writing every held-out row's per-window margins (both heads), rule and suffix scores, for offline aggregation studies.
// Run: [PI_OPTS='{"epochs":3}'] [PI_BITS=19] npx tsx scripts/eval/variants/prompt-injection-windows.ts <out.json> [fold=<repo>,...] [dev]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { detect, promptInjectionRules } from '../../../plugins/guardrails/prompt-injection-detection/detector.js';
import { featureBuckets, modelText, textWindows } from '../../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import { bucketMargin, type HashedModel } from '../../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { prepareExamples } from '../../train/hashed-trainer.js';
import { DEFAULT_TRAIN_DIR, ownPromptExamples, PROMPT_INJECTION_CUES, promptInjectionExamples, readRows, type PromptInjectionRow } from '../../train/prompt-injection-model.js';
import { scoreFolds } from './prompt-injection-folds.js';

const [out = 'windows.json', ...args] = process.argv.slice(2);
const only = args.find((a) => a.startsWith('fold='))?.slice(5).split(',');
const bits = Number(process.env.PI_BITS ?? 18);
const rows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, 'prompt-injection.jsonl'));
const devRows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, '..', 'prompt-injection.jsonl'));
const options: Record<string, unknown> = { ...(JSON.parse(process.env.PI_OPTS ?? '{}') as Record<string, unknown>), bits };
const prepare = (examples: Parameters<typeof prepareExamples>[0]) => prepareExamples(examples, bits, undefined, PROMPT_INJECTION_CUES);
const prepared = prepare(promptInjectionExamples(rows));
const own = prepare(ownPromptExamples());
const rules = promptInjectionRules();
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Margins of every window of the text, per head (the plugin keeps the highest). */
function windowMargins(model: HashedModel, text: string): number[][] {
  const windows = textWindows(modelText(text), model.header.window?.size, model.header.window?.stride);
  return model.weights.map((weights, k) =>
    windows.map((w) => r4(bucketMargin(weights, model.header.biases[k] ?? 0, featureBuckets(w, model.header.bits, [], model.header.cues ?? 0), model.header.featureFloor ?? 0))),
  );
}

const score = (row: PromptInjectionRow, model: HashedModel, fold: string) => {
  const d = detect(row.text, { decode: true, rules, models: [model], suffixes: true });
  return { fold, id: row.id, pi: row.labels.prompt_injection, jb: row.labels.jailbreak, s: d.prompt_injection, sj: d.jailbreak, m: d.model, r: d.rules.prompt_injection, matched: d.rules.matched, len: row.text.length, w: windowMargins(model, row.text) };
};
const result = scoreFolds({ rows, prepared, own, devRows, options, only, withDev: args.includes('dev') }, score);
writeFileSync(out, JSON.stringify(result));
