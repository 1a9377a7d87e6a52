// trustsafety's word-vector part: its table matches its header, it reads abusive words above their harmless neighbours, and it adds to the linear model's margin as the card says.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createUnsafeClassifier, loadUnsafeClassifier, type UnsafeModelMeta } from '../../plugins/guardrails/trust-safety/unsafe-model.js';
import { createVectorScorer, readVectorTable, wordKey, type VectorScorer } from '../../plugins/guardrails/trust-safety/vector-model.js';

const FOLDER = new URL('../../plugins/guardrails/trust-safety/', import.meta.url);
const meta = JSON.parse(readFileSync(new URL('unsafe-model.json', FOLDER), 'utf8')) as UnsafeModelMeta;

describe('trustsafety word-vector part (GloVe 100d, folded tanh network)', () => {
  let scorer: VectorScorer;
  const margin = (text: string): number => {
    const tokens = text.split(' ');
    return scorer.margin(scorer.rowsOf(tokens), 0, tokens.length);
  };

  before(() => {
    assert.ok(meta.vectors, 'unsafe-model.json has a vectors header');
    scorer = createVectorScorer(readVectorTable(new URL('unsafe-vectors.bin', FOLDER), meta.vectors));
  });

  it('holds one row per word of the shared table, keyed by the word’s FNV hash, and none for unknown words', () => {
    const shared = JSON.parse(readFileSync(new URL('../shared/word-vectors.json', FOLDER), 'utf8')) as { words: string[] };
    assert.equal(new Set(shared.words.map(wordKey)).size, meta.vectors!.words);
    assert.deepEqual([...scorer.rowsOf(['the', 'vermin', 'zzqxv'])].map((row) => row >= 0), [true, true, false]);
  });

  it('reads an abusive word above a harmless one in the same frame', () => {
    assert.ok(margin('you are an imbecile') > margin('you are an engineer') + 0.5);
    assert.ok(margin('those people are vermin') > margin('those people are farmers') + 0.5);
    assert.ok(margin('i will kill you') > margin('i will call you') + 0.5);
  });

  it('adds mix × its margin to linearScale × the linear model’s margin', () => {
    const logit = (p: number): number => Math.log(p / (1 - p));
    const full = loadUnsafeClassifier();
    const weights = new Int16Array(Uint8Array.from(readFileSync(new URL('unsafe-weights.bin', FOLDER))).buffer);
    const linear = createUnsafeClassifier({ meta, weights });
    for (const text of ['you are an imbecile', 'what a lovely day for a walk in the park']) {
      const expected = meta.vectors!.linearScale * logit(linear.predict(text)) + margin(text);
      assert.ok(Math.abs(logit(full.predict(text)) - expected) < 1e-9, text);
    }
  });
});
