// Exploration helper, not part of eval:guardrails: the leave-one-source-out loop the promptinjectiondetection variant scripts share.
import type { HashedModel } from '../../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import type { prepareExamples } from '../../train/hashed-trainer.js';
import { trainPromptInjection, type PromptInjectionRow } from '../../train/prompt-injection-model.js';
import { sourceOf } from '../leave-one-source-out.js';

type Prepared = ReturnType<typeof prepareExamples>;

/** What {@link scoreFolds} reads: the corpus rows and their prepared examples (same order), own rows, dev rows, trainer options. */
export interface FoldInputs {
  rows: PromptInjectionRow[];
  prepared: Prepared;
  own: Prepared;
  devRows: PromptInjectionRow[];
  options: Record<string, unknown>;
  /** Only the repositories whose name contains one of these; all when absent. */
  only?: string[];
  /** Also train on the whole corpus and score the dev rows (fold `dev`). */
  withDev: boolean;
}

/**
 * Trains one model per left-out repository (and one on everything for the dev rows when asked) and answers
 * `score(row, model, fold)` for every held-out row, logging each fold's time on standard error.
 */
export function scoreFolds<T>(inputs: FoldInputs, score: (row: PromptInjectionRow, model: HashedModel, fold: string) => T): T[] {
  const { rows, prepared, own, devRows, options, only } = inputs;
  const repos = [...new Set(rows.map((row) => sourceOf(row)))].filter((repo) => !only || only.some((o) => repo.includes(o)));
  const result: T[] = [];
  for (const repo of repos) {
    const started = performance.now();
    const train = prepared.filter((_, i) => sourceOf(rows[i]!) !== repo);
    const model = trainPromptInjection([...train, ...own], 'fold', options);
    for (const row of rows) if (sourceOf(row) === repo) result.push(score(row, model, repo));
    console.error(`${repo}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  if (inputs.withDev) {
    const model = trainPromptInjection([...prepared, ...own], 'full', options);
    for (const row of devRows) result.push(score(row, model, 'dev'));
  }
  return result;
}
