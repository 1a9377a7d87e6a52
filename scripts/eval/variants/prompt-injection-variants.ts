// Exploration, not part of eval:guardrails: promptinjectiondetection retrained with extra negatives (ordinary non-English paragraphs) or other tag caps, dev and leave-one-source-out.
// Run: npx tsx scripts/eval/variants/prompt-injection-variants.ts [foreign] [cap=<rows>]
import { resolve } from 'node:path';
import { detect, GENERAL_RULE_IDS, selectRules } from '../../../plugins/guardrails/prompt-injection-detection/detector.js';
import promptInjectionDetection from '../../../plugins/guardrails/prompt-injection-detection/index.js';
import type { MultiLabelExample } from '../../train/hashed-trainer.js';
import { foreignParagraphs, type LanguageRow } from '../../train/foreign-paragraphs.js';
import { DEFAULT_TRAIN_DIR, OWN_WEIGHT, templateExamples, promptInjectionExamples, preparePromptExamples, readRows, trainPromptInjection, type PromptInjectionRow } from '../../train/prompt-injection-model.js';
import { foldMetrics, leaveOneSourceOut, metricsAt, printSourceTable } from '../leave-one-source-out.js';

const threshold = promptInjectionDetection.defaultThreshold;
const args = process.argv.slice(2);
const cap = Number(args.find((a) => a.startsWith('cap='))?.slice(4) ?? NaN);
const rows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, 'prompt-injection.jsonl'));
const devRows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, '..', 'prompt-injection.jsonl'));
const extra: MultiLabelExample[] = templateExamples();
if (args.includes('foreign')) {
  const paragraphs = foreignParagraphs(readRows<LanguageRow>(resolve(DEFAULT_TRAIN_DIR, 'language.jsonl')));
  extra.push(...paragraphs.map((text) => ({ text, labels: [false, false], weight: OWN_WEIGHT })));
}
/** The corpus examples, with the per-tag cap changed when `cap=` is given. */
function corpusExamples(): MultiLabelExample[] {
  const examples = promptInjectionExamples(rows);
  if (Number.isNaN(cap)) return examples;
  const perTag = new Map<string, number>();
  for (const row of rows) perTag.set(row.id.replace(/-[^-]*$/, ''), (perTag.get(row.id.replace(/-[^-]*$/, '')) ?? 0) + 1);
  return examples.map((e, i) => ({ ...e, weight: Math.min(1, cap / (perTag.get(rows[i]!.id.replace(/-[^-]*$/, '')) ?? 1)) }));
}
const prepared = preparePromptExamples(corpusExamples());
const own = preparePromptExamples(extra);
const byRow = new Map(rows.map((row, i) => [row, prepared[i]!]));
const rules = selectRules(GENERAL_RULE_IDS);
const full = trainPromptInjection([...prepared, ...own], 'variant');
const devScores = devRows.map((row) => detect(row.text, { decode: true, rules, models: [full] }));
const dev = metricsAt('dev prompt_injection', devRows.map((r) => r.labels.prompt_injection), devScores.map((s) => s.prompt_injection), threshold);
const folds = await leaveOneSourceOut(rows, (train, test) => {
  const model = trainPromptInjection([...train.map((row) => byRow.get(row)!), ...own], 'fold');
  return test.map((row) => detect(row.text, { decode: true, rules, models: [model] }).prompt_injection);
});
printSourceTable(`variant ${args.join(' ') || '(as shipped)'}: dev and leave-one-source-out (threshold ${threshold})`, [dev, ...foldMetrics(folds, (row) => row.labels.prompt_injection, threshold, 'tag')]);
