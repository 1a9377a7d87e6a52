// lang_detector's script counts: the array tally gives the same counts, in the same order, as counting every letter in a Map.
import assert from 'node:assert/strict';
import { scriptCounts, scriptOf, type Script } from '../../plugins/guardrails/lang-detector/language-features.js';
import { seededRandom as random } from '../../scripts/train/linear-trainer.js';

/** The definition: each letter's script counted in a Map, in the order the scripts first occur. */
function countEveryLetter(text: string, limit: number): Array<[Script, number]> {
  const counts = new Map<Script, number>();
  for (let i = 0; i < Math.min(text.length, limit); i += 1) {
    const script = scriptOf(text.charCodeAt(i));
    if (script === undefined || (script === 'latin' && !/\p{L}/u.test(text[i] as string))) continue;
    counts.set(script, (counts.get(script) ?? 0) + (script === 'han' || script === 'kana' ? 2 : 1));
  }
  return [...counts];
}

describe('lang_detector: script counts', () => {
  it('counts 5,000 random mixed-script texts as the definition does, order included', () => {
    const next = random(23);
    const pieces = ['abc', 'Zürich', '×÷¡', 'привет', 'שלום', 'مرحبا', '日本', 'かな', '한국', 'ไทย', 'नमस्ते', 'αβγ', '123 ', ' ', 'Æ'];
    for (let k = 0; k < 5000; k += 1) {
      let text = '';
      const count = Math.floor(next() * 12);
      for (let i = 0; i < count; i += 1) text += pieces[Math.floor(next() * pieces.length)];
      const limit = 1 + Math.floor(next() * 40);
      assert.deepEqual([...scriptCounts(text, limit)], countEveryLetter(text, limit), `${JSON.stringify(text)} up to ${limit}`);
    }
  });
});
