// Scores promptinjectiondetection: the shipped model on the dev set (per source, jailbreak templates on their own) and leave-one-source-out on the training corpus.
import { resolve } from 'node:path';
import promptInjectionDetection from '../../plugins/guardrails/prompt-injection-detection/index.js';
import { detect, promptInjectionRules } from '../../plugins/guardrails/prompt-injection-detection/detector.js';
import { GuardrailEngine } from '../../src/index.js';
import { ownPromptExamples, promptInjectionExamples, preparePromptExamples, readRows, trainPromptInjection, type PromptInjectionRow } from '../train/prompt-injection-model.js';
import { foldMetrics, groupBySource, leaveOneSourceOut, metricsAt, printSourceTable, type SourceMetrics } from './leave-one-source-out.js';
import type { EvalModule, EvalRow } from './eval-types.js';

const PROCESSOR = 'promptinjectiondetection';
/** The processor's default threshold, which the dev figures and LOSO use. */
const THRESHOLD = promptInjectionDetection.defaultThreshold;
const LOSO_TARGET = 0.85;

/** Dev-set scores of the shipped processor, through a real engine: one [prompt_injection, jailbreak] pair per row. */
export async function devScores(rows: readonly PromptInjectionRow[]): Promise<number[][]> {
  const engine = new GuardrailEngine();
  await engine.add(promptInjectionDetection);
  const out: number[][] = [];
  for (const row of rows) {
    const scores = (await engine.evaluate(PROCESSOR, row.text)).results as { category_scores: { prompt_injection: number; jailbreak: number } };
    out.push([scores.category_scores.prompt_injection, scores.category_scores.jailbreak]);
  }
  return out;
}

/** The dev-set figures the model card quotes (and its test checks): prompt_injection F1, FPR on safe rows, jailbreak recall. */
export async function devFigures(dataDir: string): Promise<{ injection: SourceMetrics; jailbreak: SourceMetrics; perSource: SourceMetrics[] }> {
  const rows = readRows<PromptInjectionRow>(resolve(dataDir, 'prompt-injection.jsonl'));
  const scores = await devScores(rows);
  const injection = metricsAt('dev prompt_injection', rows.map((r) => r.labels.prompt_injection), scores.map((s) => s[0] ?? 0), THRESHOLD);
  const jailbreak = metricsAt('dev jailbreak', rows.map((r) => r.labels.jailbreak), scores.map((s) => s[1] ?? 0), THRESHOLD);
  const index = new Map(rows.map((row, i) => [row, i]));
  const perSource = [...groupBySource(rows, 'tag')].flatMap(([tag, group]) => [
    metricsAt(`${tag} (prompt_injection)`, group.map((r) => r.labels.prompt_injection), group.map((r) => scores[index.get(r) ?? 0]?.[0] ?? 0), THRESHOLD),
    ...(group.some((r) => r.labels.jailbreak) ? [metricsAt(`${tag} jailbreak templates (jailbreak)`, group.filter((r) => r.labels.jailbreak).map(() => true), group.filter((r) => r.labels.jailbreak).map((r) => scores[index.get(r) ?? 0]?.[1] ?? 0), THRESHOLD)] : []),
  ]);
  return { injection, jailbreak, perSource };
}

/** Leave-one-source-out on the training corpus: the processor's full scoring (model trained without the source, plus the rules). */
export async function losoFolds(trainDir: string) {
  const rows = readRows<PromptInjectionRow>(resolve(trainDir, 'prompt-injection.jsonl'));
  const prepared = preparePromptExamples(promptInjectionExamples(rows));
  const own = preparePromptExamples(ownPromptExamples(trainDir));
  const byRow = new Map(rows.map((row, i) => [row, prepared[i]!]));
  const rules = promptInjectionRules();
  return leaveOneSourceOut(rows, (train, test) => {
    const model = trainPromptInjection([...train.map((row) => byRow.get(row)!), ...own], 'fold');
    return test.map((row) => detect(row.text, { decode: true, rules, models: [model], suffixes: true }));
  });
}

const fmt = (value: number | undefined): number | undefined => (value === undefined ? undefined : Math.round(value * 1000) / 1000);

/** An EvalRow of a SourceMetrics line. */
function evalRow(label: string, m: SourceMetrics, target?: string, met?: boolean, note?: string): EvalRow {
  return { processor: PROCESSOR, label, precision: fmt(m.precision), recall: fmt(m.recall), f1: fmt(m.f1), falsePositiveRate: fmt(m.fpr), support: m.positives, target, met, note: note ?? m.note };
}

/**
 * The prompt-injection eval: dev-set figures of the shipped model at the default threshold, then leave-one-source-out
 * figures (by repository, with the id tags inside) on ../train. Prints the per-source tables; answers summary rows.
 */
export const promptInjectionEval: EvalModule = {
  name: 'prompt-injection',
  async run(dataDir: string): Promise<EvalRow[]> {
    const dev = await devFigures(dataDir);
    printSourceTable(`promptinjectiondetection: dev set, per source (threshold ${THRESHOLD})`, [...dev.perSource, dev.injection, dev.jailbreak]);
    const folds = await losoFolds(resolve(dataDir, 'train'));
    const injectionFolds = folds.map((fold) => ({ ...fold, scores: fold.scores.map((s) => s.prompt_injection) }));
    const jailbreakFolds = folds.map((fold) => ({ ...fold, scores: fold.scores.map((s) => s.jailbreak) }));
    const loso = foldMetrics(injectionFolds, (row) => row.labels.prompt_injection, THRESHOLD, 'tag');
    printSourceTable('promptinjectiondetection: leave-one-source-out on train/prompt-injection.jsonl, prompt_injection (by repository; id tags indented)', loso);
    const jailbreakTemplates = foldMetrics(
      jailbreakFolds.map((fold) => ({ ...fold, test: fold.test.filter((r) => r.labels.jailbreak), scores: fold.scores.filter((_, i) => fold.test[i]?.labels.jailbreak) })).filter((fold) => fold.test.length > 0),
      () => true,
      THRESHOLD,
      'tag',
    );
    printSourceTable('promptinjectiondetection: leave-one-source-out, jailbreak templates on their own (jailbreak recall)', jailbreakTemplates);
    const rows: EvalRow[] = [
      evalRow('prompt_injection (dev)', dev.injection, 'F1 >= 0.9 and FPR <= 3%', (dev.injection.f1 ?? 0) >= 0.9 && (dev.injection.fpr ?? 1) <= 0.03, `FPR on ${dev.injection.negatives} XSTest safe prompts`),
      evalRow('jailbreak (dev)', dev.jailbreak, undefined, undefined, 'negatives include the non-jailbreak injections'),
    ];
    for (const m of loso.filter((m) => !m.source.startsWith(' ') && m.source !== 'pooled')) {
      const single = m.positives === 0;
      rows.push(
        evalRow(`LOSO ${m.source}`, m, single ? 'FPR <= 3% (negatives only)' : `F1 >= ${LOSO_TARGET}`, single ? (m.fpr ?? 1) <= 0.03 : (m.f1 ?? 0) >= LOSO_TARGET, m.note),
      );
    }
    return rows;
  },
};

export default promptInjectionEval;
