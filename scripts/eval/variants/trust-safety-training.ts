// Exploration, not part of eval:guardrails: trustsafety model variants that change what the model trains on (rows the rules flag, own-row weight, word dropout, mentions, label-noise cleaning, extra safe rows).
// Run: npx tsx scripts/eval/variants/trust-safety-training.ts [rule-flagged|own-weight|dropout|no-mentions|clean|english-safe] [argument]
import { resolve } from 'node:path';
import { baseTrainer, report, type CachedRow, type Trainer } from './trust-safety-harness.js';
import { CATEGORIES, scoreTrustSafety } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { createUnsafeClassifier } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { unsafeFeatureBuckets } from '../../../plugins/guardrails/trust-safety/unsafe-features.js';
import { modelTokens, normaliseForModel, TRAIN_TOKENS } from '../../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { trainHashedLogistic, type HashedExample } from '../../train/hashed-logistic.js';
import { seededRandom } from '../../train/linear-trainer.js';
import { readJsonl, readOwnRows, sourceBalance, TRAIN_DIR, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const options = TRUST_SAFETY_TRAIN_OPTIONS;
const tokenCache = new Map<string, string[]>();
const tokensOf = (text: string): string[] => {
  let tokens = tokenCache.get(text);
  if (!tokens) {
    tokens = modelTokens(normaliseForModel(text)).slice(0, TRAIN_TOKENS);
    tokenCache.set(text, tokens);
  }
  return tokens;
};

/** The shipped trainer's source balancing, with `copies` turning one row into weighted token lists. */
function trainer(copies: (row: TrustSafetyRow, tokens: string[]) => { tokens: string[]; weight: number }[]): Trainer {
  return (rows) => {
    const balanceOf = sourceBalance(rows);
    const out = { ids: new Int32Array(1024) };
    const examples: HashedExample[] = rows.flatMap((row) => {
      const balance = balanceOf(row);
      return copies(row, tokensOf(row.text)).map((copy) => {
        const n = unsafeFeatureBuckets(copy.tokens, options.buckets, out);
        return { buckets: [...out.ids.subarray(0, n)], label: row.labels.unsafe, weight: balance * copy.weight };
      });
    });
    const { bias, weights } = trainHashedLogistic(examples, options);
    return { meta: { buckets: options.buckets, scale: 1, bias, trainedOn: '' }, weights };
  };
}

const ruleFlags = new Map<string, boolean>();
/** True when the rules alone flag the text (then the model's probability changes nothing in scoring). */
function rulesFlag(text: string): boolean {
  let flagged = ruleFlags.get(text);
  if (flagged === undefined) {
    const scores = scoreTrustSafety(text);
    flagged = CATEGORIES.some((category) => scores[category] > 0.5);
    ruleFlags.set(text, flagged);
  }
  return flagged;
}

const withoutMentions = (tokens: string[]): string[] => tokens.filter((token) => token[0] !== '@');

const [variant = 'rule-flagged', argument] = process.argv.slice(2);
if (variant === 'rule-flagged') {
  // Unsafe rows the rules already flag count `factor` as much: the model's output matters only where the rules are silent.
  const factor = Number(argument ?? 0.3);
  report(`unsafe rows the rules flag x${factor}`, trainer((row, tokens) => [{ tokens, weight: row.labels.unsafe && rulesFlag(row.text) ? factor : 1 }]));
} else if (variant === 'own-weight') {
  // The hand-written rows count `factor` as much as the source balancing gives them.
  const factor = Number(argument ?? 0.5);
  const own = new Set(readOwnRows().map((row) => row.text));
  report(`hand-written rows x${factor}`, trainer((row, tokens) => [{ tokens, weight: own.has(row.text) ? factor : 1 }]));
} else if (variant === 'dropout') {
  // Each row once as it is and twice with a share of its words dropped at random, the three sharing its weight.
  const rate = Number(argument ?? 0.25);
  const random = seededRandom(11);
  report(`word dropout ${rate}`, trainer((_row, tokens) => {
    const copies = [tokens];
    for (let k = 0; k < 2; k += 1) {
      const kept = tokens.filter(() => random() >= rate);
      copies.push(kept.length > 0 ? kept : tokens);
    }
    return copies.map((copy) => ({ tokens: copy, weight: 1 / 3 }));
  }));
} else if (variant === 'no-mentions') {
  // OLID's tweets carry "@user" placeholders, more of them in its safe tweets; read without any @mention.
  report('no @mentions', trainer((_row, tokens) => [{ tokens: withoutMentions(tokens), weight: 1 }]), undefined, (c: CachedRow) => withoutMentions(c.tokens));
} else if (variant === 'clean') {
  // Label-noise cleaning: 4-fold out-of-fold probabilities on the training rows; a corpus row whose probability is
  // below `cut` (unsafe) or above 1 - `cut` (safe) is dropped, then the model is trained on the rest (inside each fold too).
  const cut = Number(argument ?? 0.05);
  report(`cleaned (cut ${cut})`, (rows) => {
    const random = seededRandom(5);
    const fold = rows.map(() => Math.floor(random() * 4));
    const keep = rows.map(() => true);
    for (let f = 0; f < 4; f += 1) {
      const model = createUnsafeClassifier(baseTrainer(rows.filter((_, i) => fold[i] !== f)));
      rows.forEach((row, i) => {
        if (fold[i] !== f || row.source.startsWith('own/')) return;
        const p = model.predict(row.text);
        if (row.labels.unsafe ? p < cut : p > 1 - cut) keep[i] = false;
      });
    }
    return baseTrainer(rows.filter((_, i) => keep[i]));
  });
} else if (variant === 'english-safe') {
  // The language corpus's English sentences (web text and LASER) as one more group of safe rows.
  const lang = readJsonl<{ id: string; text: string; labels: { lang: string }; source: string }>(resolve(TRAIN_DIR, 'language.jsonl'));
  const english = lang.filter((row) => row.labels.lang === 'en').map((row): TrustSafetyRow => ({ id: row.id, text: row.text, labels: { unsafe: false, category: 'none' }, source: 'language-en' }));
  report(`English language rows as safe (${english.length})`, baseTrainer, [...readOwnRows(), ...english]);
} else {
  throw new Error(`unknown variant ${variant}`);
}
