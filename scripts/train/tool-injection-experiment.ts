// Quick comparison of toolinjectiondetection training variants: dev-set and leave-one-source-out figures at several thresholds, without writing weights.
// Run: [CONTEXT=0:0,1:-2] tsx scripts/train/tool-injection-experiment.ts [--seeds 1] [--seed 7] [--penalty 1] [--folds agentdojo,tldr] [--no-dev] [--tags] [--extra '{"genres":1500}'] [--conversation wikitox,olid [--conversation-weight 0.5]] [--negative-max 0.5]
import { resolve } from 'node:path';
import { DEFAULT_SCAN_LIMIT } from '../../plugins/guardrails/prompt-injection-detection/normalise.js';
import { scoreToolOutput } from '../../plugins/guardrails/tool-injection-detection/score.js';
import { TOOL_OUTPUT_RULES } from '../../plugins/guardrails/tool-injection-detection/tool-rules.js';
import { segmentMargins } from '../../plugins/guardrails/tool-injection-detection/segments.js';
import { detect } from '../../plugins/guardrails/prompt-injection-detection/detector.js';
import { sigmoid } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import type { HashedModel } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { sourceOf } from '../eval/leave-one-source-out.js';
import type { LanguageRow } from './foreign-paragraphs.js';
import { DEFAULT_TRAIN_DIR, readRows, type PromptInjectionRow } from './prompt-injection-model.js';
import { EXTRA_ROWS, isToolInjection, toolTrainingSet, trainToolInjection, type ToolOutputRow } from './tool-injection-model.js';

const THRESHOLDS = [0.5, 0.6, 0.7, 0.8];
/** The threshold chosen on the dev set (highest recall with FPR at most 5%), added to the LOSO lines. */
let chosen = 0.8;

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

/** Recall and false-positive rate of scores against labels at each threshold, as one line. */
function line(labels: readonly boolean[], scores: readonly number[]): string {
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  return [chosen, ...THRESHOLDS].map((t) => {
    let tp = 0;
    let fp = 0;
    labels.forEach((label, i) => {
      if ((scores[i] ?? 0) > t) label ? (tp += 1) : (fp += 1);
    });
    const r = positives ? (tp / positives).toFixed(3) : '-';
    const f = negatives ? (fp / negatives).toFixed(3) : '-';
    return `${t}: R ${r} FPR ${f}`;
  }).join(' | ');
}

/** Scoring variants `lambda:mu` (env CONTEXT): the best window's margin less lambda × max(0, median margin of the other windows - mu); 0:0 is the plugin's score. */
const CONFIGS = (process.env.CONTEXT ?? '0:0').split(',').map((c) => c.split(':').map(Number) as [number, number]);
/** The text's score under each of CONFIGS. */
function score(tool: HashedModel, text: string): number[] {
  const base = scoreToolOutput(text, { decode: true, scanLimit: DEFAULT_SCAN_LIMIT, rules: TOOL_OUTPUT_RULES, tool });
  const margins = segmentMargins(tool, text);
  if (margins.length === 0) return CONFIGS.map(() => base.prompt_injection);
  const best = Math.max(...margins);
  const others = [...margins].sort((a, b) => a - b);
  others.splice(others.lastIndexOf(best), 1);
  const median = others.length >= 2 ? (others[Math.floor(others.length / 2)] as number) : -Infinity;
  const rules = detect(text, { decode: true, scanLimit: DEFAULT_SCAN_LIMIT, rules: TOOL_OUTPUT_RULES, models: [] }).rules.prompt_injection;
  return CONFIGS.map(([lambda, mu]) => {
    if (lambda === 0) return base.prompt_injection;
    const model = sigmoid(best - lambda * Math.max(0, median - mu));
    return Math.max(1 - (1 - model) * (1 - rules), base.jailbreak);
  });
}

function main(): void {
  const trainDir = resolve(DEFAULT_TRAIN_DIR);
  const seeds = Number(argument('--seeds') ?? 3);
  const base = Number(argument('--seed') ?? 7);
  const options = { seed: base, extraSeeds: seeds === 1 ? [] : [base + 1000, base + 2000], ...(argument('--penalty') !== undefined ? { windowPenalty: Number(argument('--penalty')) } : {}), ...(argument('--negative-max') !== undefined ? { negativeMaxMass: Number(argument('--negative-max')) } : {}) };
  console.log(`options ${JSON.stringify(options)}`);
  const only = argument('--folds')?.split(',');
  const extra = { ...EXTRA_ROWS, ...(JSON.parse(argument('--extra') ?? '{}') as object) };
  console.log(`extra rows ${JSON.stringify(extra)}, seeds ${seeds}`);
  const rows = readRows<ToolOutputRow>(resolve(trainDir, 'tool-output.jsonl'));
  const prompts = readRows<PromptInjectionRow>(resolve(trainDir, 'prompt-injection.jsonl'));
  const languages = readRows<LanguageRow>(resolve(trainDir, 'language.jsonl'));
  // Variant: safe human-to-human conversation from trust-safety.jsonl (tags in CONVERSATION, e.g. wikitox,olid) as negatives and hosts.
  const conversationTags = (argument('--conversation') ?? '').split(',').filter(Boolean);
  const conversationWeight = Number(argument('--conversation-weight') ?? 0.5);
  const conversations = conversationTags.length === 0 ? [] : readRows<{ id: string; text: string; source: string; labels: { unsafe: boolean } }>(resolve(trainDir, 'trust-safety.jsonl'))
    .filter((r) => !r.labels.unsafe && conversationTags.some((t) => sourceOf(r, 'tag').startsWith(t)))
    .map((r) => r.text.trim()).filter((t) => t.length >= 40);
  console.log(`conversation negatives: ${conversations.length} (${conversationTags.join(',') || 'none'}, weight ${conversationWeight})`);
  if (!process.argv.includes('--no-dev')) {
    const dev = readRows<ToolOutputRow>(resolve(trainDir, '..', 'tool-output.jsonl')).filter((r) => r.labels.family === 'prompt_injection' || r.labels.family === 'none');
    const started = performance.now();
    const model = trainToolInjection(toolTrainingSet(rows, prompts, languages, undefined, extra, conversations, conversationWeight), 'experiment', options);
    const all = dev.map((r) => score(model, r.text));
    CONFIGS.forEach((config, k) => {
      const scores = all.map((s) => s[k] as number);
      const labels = dev.map(isToolInjection);
      const negatives = labels.filter((l) => !l).length;
      for (let t = 0.1; t < 0.995; t += 0.005) if (labels.filter((l, i) => !l && (scores[i] ?? 0) > t).length <= 0.05 * negatives) { chosen = Math.round(t * 1000) / 1000; break; }
      console.log(`dev ${config.join(':')} (${((performance.now() - started) / 1000).toFixed(0)} s) ${line(dev.map(isToolInjection), scores)}`);
      for (const tag of ['bipia_text', 'bipia_code', 'bipia_email_test', 'bipia_email_train', 'secretlint']) {
        const idx = dev.map((r, i) => (sourceOf(r, 'tag') === tag ? i : -1)).filter((i) => i >= 0);
        console.log(`  ${tag.padEnd(18)} ${line(idx.map((i) => isToolInjection(dev[i] as ToolOutputRow)), idx.map((i) => scores[i] as number))}`);
      }
    });
  }
  const repos = [...new Set(rows.map((r) => sourceOf(r)))];
  for (const repo of repos) {
    if (only && !only.some((o) => repo.toLowerCase().includes(o.toLowerCase()))) continue;
    const started = performance.now();
    const test = rows.filter((r) => sourceOf(r) === repo);
    const train = rows.filter((r) => sourceOf(r) !== repo);
    const model = trainToolInjection(toolTrainingSet(train, prompts.filter((r) => sourceOf(r) !== repo), languages, undefined, extra, conversations, conversationWeight), 'fold', options);
    const all = test.map((r) => score(model, r.text));
    CONFIGS.forEach((config, k) => {
    const scores = all.map((s) => s[k] as number);
    console.log(`LOSO ${repo} ${config.join(':')} (${((performance.now() - started) / 1000).toFixed(0)} s) ${line(test.map(isToolInjection), scores)}`);
    const tags = [...new Set(test.map((r) => sourceOf(r, 'tag')))];
    if (tags.length > 1 && tags.length < 16 && process.argv.includes('--tags')) {
      for (const tag of tags) {
        const idx = test.map((r, i) => (sourceOf(r, 'tag') === tag ? i : -1)).filter((i) => i >= 0);
        console.log(`  ${tag.padEnd(36)} ${line(idx.map((i) => isToolInjection(test[i] as ToolOutputRow)), idx.map((i) => scores[i] as number))}`);
      }
    }
    });
  }
}

main();
