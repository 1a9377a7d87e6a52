// Exploration, not part of eval:guardrails: promptinjectiondetection with and without the hand-written role-play rows and the adversarial-suffix signal, dev and leave-one-source-out.
// Run: npx tsx scripts/eval/variants/prompt-injection-roleplay.ts [roleplay] [documents] [foreign] [tooldata] [weight=<w>]
import { resolve } from 'node:path';
import { detect, promptInjectionRules } from '../../../plugins/guardrails/prompt-injection-detection/detector.js';
import promptInjectionDetection from '../../../plugins/guardrails/prompt-injection-detection/index.js';
import type { MultiLabelExample } from '../../train/hashed-trainer.js';
import { DEFAULT_TRAIN_DIR, OWN_WEIGHT, templateExamples, promptInjectionExamples, preparePromptExamples, readRows, trainPromptInjection, type PromptInjectionRow } from '../../train/prompt-injection-model.js';
import { foreignParagraphs, type LanguageRow } from '../../train/foreign-paragraphs.js';
import { benignPromptDocuments } from '../../train/prompt-document-examples.js';
import { rolePlayExamples } from '../../train/roleplay-examples.js';
import { foldMetrics, leaveOneSourceOut, metricsAt, printSourceTable } from '../leave-one-source-out.js';

const threshold = promptInjectionDetection.defaultThreshold;
const args = process.argv.slice(2);
const weight = Number(args.find((a) => a.startsWith('weight='))?.slice(7) ?? OWN_WEIGHT);
const rows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, 'prompt-injection.jsonl'));
const devRows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, '..', 'prompt-injection.jsonl'));
const extra: MultiLabelExample[] = templateExamples();
if (args.includes('roleplay')) extra.push(...rolePlayExamples().map((r) => ({ text: r.text, labels: [r.prompt_injection, r.jailbreak], weight })));
if (args.includes('documents')) extra.push(...benignPromptDocuments(300).map((text) => ({ text, labels: [false, false], weight })));
if (args.includes('tooldata')) {
  const clean = readRows<{ text: string; labels: { attack: boolean } }>(resolve(DEFAULT_TRAIN_DIR, 'tool-output.jsonl')).filter((row) => !row.labels.attack);
  extra.push(...clean.map((row) => ({ text: row.text, labels: [false, false], weight: OWN_WEIGHT })));
}
if (args.includes('foreign')) {
  const paragraphs = foreignParagraphs(readRows<LanguageRow>(resolve(DEFAULT_TRAIN_DIR, 'language.jsonl')));
  extra.push(...paragraphs.map((text) => ({ text, labels: [false, false], weight: OWN_WEIGHT })));
}
const prepared = preparePromptExamples(promptInjectionExamples(rows));
const own = preparePromptExamples(extra);
const byRow = new Map(rows.map((row, i) => [row, prepared[i]!]));
const rules = promptInjectionRules();
const full = trainPromptInjection([...prepared, ...own], 'variant');
const folds = await leaveOneSourceOut(rows, (train, test) => {
  const model = trainPromptInjection([...train.map((row) => byRow.get(row)!), ...own], 'fold');
  return test.map((row) => [detect(row.text, { decode: true, rules, models: [model] }).prompt_injection, detect(row.text, { decode: true, rules, models: [model], suffixes: true }).prompt_injection]);
});
for (const [k, name] of [[0, 'without'], [1, 'with']] as const) {
  const dev = metricsAt('dev prompt_injection', devRows.map((r) => r.labels.prompt_injection), devRows.map((row) => detect(row.text, { decode: true, rules, models: [full], suffixes: k === 1 }).prompt_injection), threshold);
  const scored = folds.map((fold) => ({ ...fold, scores: fold.scores.map((s) => s[k] ?? 0) }));
  printSourceTable(`variant ${args.join(' ') || '(as shipped)'}, ${name} the suffix signal: dev and leave-one-source-out (threshold ${threshold})`, [dev, ...foldMetrics(scored, (row) => row.labels.prompt_injection, threshold, 'tag')]);
}
