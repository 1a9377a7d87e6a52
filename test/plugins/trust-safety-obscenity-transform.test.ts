// trustsafety's ASCII fast path of obscenity's blacklist transformation gives exactly obscenity's own text, and the profanity check still finds what obscenity finds.
import assert from 'node:assert/strict';
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { asciiTransformer } from '../../plugins/guardrails/trust-safety/obscenity-ascii-transform.js';
import { obsceneWords } from '../../plugins/guardrails/trust-safety/profanity-check.js';

/** obscenity's own pass (RegExpMatcher 0.4's applyTransformers), the reference. */
const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers }) as unknown as {
  blacklistMatcherTransformers: unknown;
  applyTransformers(input: string, transformers: unknown): [number[], string];
};
const obscenityText = (raw: string): string => matcher.applyTransformers(raw, matcher.blacklistMatcherTransformers)[1];

/** A seeded generator (an LCG is enough here), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
}

describe('trustsafety: obscenity transformation on ASCII text', () => {
  const fast = asciiTransformer(englishRecommendedTransformers.blacklistMatcherTransformers);

  it('builds for the English preset', () => {
    assert.equal(typeof fast, 'function');
  });

  it('equals obscenity’s own transformed text on 20,000 random ASCII texts (leet, confusable and doubled letters included)', () => {
    const next = random(42);
    const favoured = 'abegolsBEGOLS@4310$5!|( ';
    for (let i = 0; i < 20_000; i += 1) {
      let text = '';
      const length = Math.floor(next() * 60);
      for (let j = 0; j < length; j += 1) {
        text += next() < 0.5 ? String.fromCharCode(32 + Math.floor(next() * 95)) : favoured[Math.floor(next() * favoured.length)];
      }
      assert.equal(fast?.(text), obscenityText(text), JSON.stringify(text));
    }
  });

  it('leaves texts with other characters to obscenity (answers undefined)', () => {
    assert.equal(fast?.('naïve café'), undefined);
    assert.equal(fast?.('ｆｕｃｋ'), undefined);
  });

  it('the profanity check still finds leet, doubled and full-width obscenities', () => {
    assert.ok(obsceneWords('what a b1tchh').has('bitch'));
    assert.ok(obsceneWords('sh1t happens').has('shit'));
    assert.ok(obsceneWords('ｆｕｃｋ this').has('fuck'));
    assert.equal(obsceneWords('Thanks for the update on the quarterly planning.').size, 0);
  });
});
