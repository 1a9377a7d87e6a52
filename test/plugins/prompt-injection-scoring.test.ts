// promptinjectiondetection's model scoring: summing the n-gram weights as they are hashed gives, bit for bit, the sums of the listed features.
import assert from 'node:assert/strict';
import { featureBuckets, mix, modelText, textWindows, wordAndCueBuckets } from '../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import { bucketMargin, scoreNormalised, sigmoid, type HashedModel } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { promptInjectionModel } from '../../plugins/guardrails/prompt-injection-detection/index.js';
import { seededRandom as random } from '../../scripts/train/linear-trainer.js';

/** The definition: every window's listed features and their margin, the best margin per label, then the window penalty. */
function scoreFromListedFeatures(model: HashedModel, text: string): number[] {
  const { header } = model;
  const windows = textWindows(text, header.window?.size, header.window?.stride);
  const best = header.labels.map(() => -Infinity);
  for (const window of windows) {
    const buckets = featureBuckets(window, header.bits, [], header.cues ?? 0);
    model.weights.forEach((weights, i) => {
      best[i] = Math.max(best[i] as number, bucketMargin(weights, header.biases[i] ?? 0, buckets, header.featureFloor ?? 0));
    });
  }
  return best.map((margin) => sigmoid(margin - (header.windowPenalty ?? 0) * Math.log(windows.length)));
}

const WORDS = ['ignore', 'all', 'previous', 'instructions', 'you', 'are', 'now', 'dan', 'without', 'rules', 'the', 'budget', 'déjà', 'наш', '###', '<|im_start|>', 'system:', 'a', '\n', '  '];

/** Words and stray characters, so windows start and end inside words, n-grams and cues. */
function randomText(next: () => number, maxWords: number): string {
  const count = Math.floor(next() * maxWords);
  let text = '';
  for (let i = 0; i < count; i += 1) {
    text += next() < 0.15 ? String.fromCharCode(33 + Math.floor(next() * 90)) : `${WORDS[Math.floor(next() * WORDS.length)]} `;
  }
  return text;
}

/** The definition of the word features: WORD's matches, FNV-1a from the word seed, mixed, then the bigram of each pair. */
function wordBucketsByRegex(window: string, mask: number): number[] {
  const out: number[] = [];
  let previous = 0;
  for (const [word] of window.matchAll(/[\p{L}\p{N}]+/gu)) {
    let h = (0x811c9dc5 ^ 0x9e3779b9) >>> 0;
    for (let i = 0; i < word.length; i += 1) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
    const hash = h >>> 0;
    out.push(mix(hash) & mask);
    if (previous !== 0) out.push(mix(Math.imul(previous, 31) ^ hash ^ 0x85ebca6b) & mask);
    previous = hash;
  }
  return out;
}

describe('promptinjectiondetection: model scoring', () => {
  it('reads words in ASCII text without the regular expression, exactly as it reads them', () => {
    const next = random(3);
    for (let k = 0; k < 2000; k += 1) {
      let text = '';
      const length = Math.floor(next() * 80);
      for (let i = 0; i < length; i += 1) text += String.fromCharCode(next() < 0.05 ? 128 + Math.floor(next() * 900) : Math.floor(next() * 128));
      assert.deepEqual(wordAndCueBuckets(text, (1 << 18) - 1), wordBucketsByRegex(text, (1 << 18) - 1), JSON.stringify(text));
    }
  });

  it('scores short and long texts exactly as the listed features do (shipped model, two labels)', () => {
    const model = promptInjectionModel();
    const next = random(11);
    for (let k = 0; k < 300; k += 1) {
      const text = modelText(randomText(next, 700));
      assert.deepEqual(scoreNormalised(model, text), scoreFromListedFeatures(model, text), `text of ${text.length} characters`);
    }
    assert.deepEqual(scoreNormalised(model, ''), scoreFromListedFeatures(model, ''));
  });

  it('is exact for one and three labels, small windows, cues, a feature floor and a window penalty', () => {
    const next = random(5);
    const vector = (): Float32Array => new Float32Array(1 << 10).map(() => next() * 2 - 1);
    for (const labels of [['x'], ['x', 'y', 'z']]) {
      for (const [size, stride] of [
        [16, 8],
        [40, 13],
      ] as const) {
        const model: HashedModel = {
          header: { labels, bits: 10, window: { size, stride }, cues: 3, featureFloor: 20, windowPenalty: 0.3, biases: labels.map((_, i) => i - 1), trainedOn: 'test', created: '2026-11-26', seed: 1 },
          weights: labels.map(vector),
        };
        for (let k = 0; k < 150; k += 1) {
          const text = randomText(next, 60);
          assert.deepEqual(scoreNormalised(model, text), scoreFromListedFeatures(model, text), `${labels.length} labels, ${size}/${stride}: ${JSON.stringify(text)}`);
        }
      }
    }
  });
});
