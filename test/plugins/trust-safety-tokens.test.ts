// trustsafety's word tokens: the one-scan reading of ASCII text finds exactly the tokens of the regular expression it replaces.
import assert from 'node:assert/strict';
import { asciiTokens } from '../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { seededRandom as random } from '../../scripts/train/linear-trainer.js';

/** The definition: letters, digits and * @ $ #, then an apostrophe and letters when they follow. */
const TOKEN = /[\p{L}\p{N}*@$#]+(?:'[\p{L}]+)?/gu;

describe('trustsafety: word tokens', () => {
  it('reads the tokens of 20,000 random ASCII texts as the regular expression does', () => {
    const next = random(17);
    const alphabet = "abcXYZ019*@$#' '-.,!\n\t_&";
    for (let k = 0; k < 20_000; k += 1) {
      let text = '';
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(next() * alphabet.length)];
      const found: string[] = [];
      asciiTokens(text, (token) => found.push(token) > 0);
      assert.deepEqual(found, [...text.matchAll(TOKEN)].map((match) => match[0]), JSON.stringify(text));
    }
  });

  it('stops when told to', () => {
    const found: string[] = [];
    asciiTokens("one two three don't", (token) => found.push(token) < 2);
    assert.deepEqual(found, ['one', 'two']);
  });
});
