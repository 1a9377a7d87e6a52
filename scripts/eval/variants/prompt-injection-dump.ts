// Exploration, not part of eval:guardrails: leave-one-source-out for promptinjectiondetection, writing every held-out row's score parts to a JSON file.
// Run: [PI_TAGW='{"cse_pi":0.5}'] [PI_OPTS='{"l2":1e-5}'] npx tsx scripts/eval/variants/prompt-injection-dump.ts <out.json> [fold=<repo>,...] [dev]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { detect, promptInjectionRules } from '../../../plugins/guardrails/prompt-injection-detection/detector.js';
import { DEFAULT_TRAIN_DIR, ownPromptExamples, promptInjectionExamples, preparePromptExamples, readRows, trainPromptInjection, type PromptInjectionRow } from '../../train/prompt-injection-model.js';
import { sourceOf } from '../leave-one-source-out.js';
import { scoreFolds } from './prompt-injection-folds.js';

const [out = 'loso.json', ...args] = process.argv.slice(2);
const only = args.find((a) => a.startsWith('fold='))?.slice(5).split(',');
const rows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, 'prompt-injection.jsonl'));
const devRows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, '..', 'prompt-injection.jsonl'));
const tagWeights = JSON.parse(process.env.PI_TAGW ?? '{}') as Record<string, number>;
const options = JSON.parse(process.env.PI_OPTS ?? '{}') as Record<string, unknown>;
const prepared = preparePromptExamples(promptInjectionExamples(rows)).map((example, i) => ({ ...example, weight: example.weight * (tagWeights[sourceOf(rows[i]!, 'tag')] ?? 1) }));
const extraRows = (process.env.PI_EXTRA ?? '').split(',').filter(Boolean);
const extra = (await Promise.all(extraRows.map(async (name) => ((await import(`./prompt-injection-extra-${name}.js`)) as { rows: () => Array<{ text: string; labels: boolean[]; weight: number }> }).rows()))).flat();
const own = preparePromptExamples([...ownPromptExamples(), ...extra]);
const rules = promptInjectionRules();
const penalties = (process.env.PI_PENALTIES ?? '').split(',').filter(Boolean).map(Number);
const score = (row: PromptInjectionRow, model: ReturnType<typeof trainPromptInjection>, fold: string) => {
  const d = detect(row.text, { decode: true, rules, models: [model], suffixes: true });
  const variants = Object.fromEntries(penalties.map((p) => [p, detect(row.text, { decode: true, rules, models: [{ ...model, header: { ...model.header, windowPenalty: p } }], suffixes: true }).prompt_injection]));
  return { fold, id: row.id, pi: row.labels.prompt_injection, jb: row.labels.jailbreak, s: d.prompt_injection, sj: d.jailbreak, m: d.model, r: d.rules.prompt_injection, matched: d.rules.matched, len: row.text.length, variants };
};
const result = scoreFolds({ rows, prepared, own, devRows, options, only, withDev: args.includes('dev') }, score);
writeFileSync(out, JSON.stringify(result));
