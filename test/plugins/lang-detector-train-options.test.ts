// lang_detector trainer's experiment options (off in the shipped settings): L2, dropout, crop sizes, capitals, label smoothing, epoch averaging; and the self-label filter.
import assert from 'node:assert/strict';
import { LANGUAGE_TRAIN_OPTIONS, trainLanguageModel, type LanguageRow, type LanguageTrainOptions } from '../../scripts/train/language-model.js';
import { withoutNames } from '../../scripts/eval/variants/language-self-labels.js';

const rows: LanguageRow[] = [
  ['en', 'the cat sat on the mat with Michael and the dog'],
  ['es', 'el gato se sentó en la alfombra con Michael y el perro'],
  ['pt', 'o gato sentou no tapete com Michael e o cachorro'],
  ['de', 'die Katze saß mit Michael und dem Hund auf der Matte'],
].map(([lang, text], i) => ({ id: `t-${i}`, text: text as string, labels: { lang: lang as string }, source: 'test' }));

const small: LanguageTrainOptions = { ...LANGUAGE_TRAIN_OPTIONS, buckets: 1 << 12, epochs: 2, averageOf: 1 };
const norm = (weights: Float32Array | Int16Array): number => Array.from(weights).reduce((sum, w) => sum + w * w, 0);

describe('lang_detector trainer options', () => {
  it('leaves the model unchanged when the experiment options are absent or off', () => {
    const plain = trainLanguageModel(rows, small);
    const off = trainLanguageModel(rows, { ...small, l2: 0, dropout: 0, cropMin: 1, cropMax: 4, capitalsInTraining: false, labelSmoothing: 0 });
    assert.deepEqual(off.weights, plain.weights);
    assert.deepEqual(off.meta.bias, plain.meta.bias);
  });

  it('shrinks the weights with L2 and changes them with dropout, crop sizes and capital weighting, deterministically', () => {
    const plain = trainLanguageModel(rows, small);
    assert.ok(norm(trainLanguageModel(rows, { ...small, l2: 0.05 }).weights) < norm(plain.weights));
    for (const extra of [{ dropout: 0.3 }, { cropMin: 2, cropMax: 3 }, { capitalsInTraining: true }, { labelSmoothing: 0.1 }, { averageFrom: 0 }]) {
      const a = trainLanguageModel(rows, { ...small, ...extra });
      assert.notDeepEqual(a.weights, plain.weights, JSON.stringify(extra));
      assert.deepEqual(trainLanguageModel(rows, { ...small, ...extra }).weights, a.weights, JSON.stringify(extra));
    }
  });

  it('drops the names of a self-labelled row but keeps the words that open a sentence', () => {
    assert.equal(withoutNames('El nombre del usuario es John Doe. Nació en Nueva York.'), 'El nombre del usuario es Nació en');
    assert.equal(withoutNames('Você é instrutor.'), 'Você é instrutor.');
  });
});
