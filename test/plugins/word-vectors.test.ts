// The shipped pretrained word vectors: they load quickly, match their header, and place related words closer than unrelated ones.
import assert from 'node:assert/strict';
import { loadWordVectors } from '../../plugins/guardrails/shared/word-vectors.js';
import { cpuTime } from '../helpers/cpu-time.js';

describe('shared word vectors (GloVe 6B 100d, 8-bit)', () => {
  it('loads in under 200 ms and holds frequent words and the corpus words news text rarely uses', async () => {
    // CPU time, not wall time: the bound is on the load's work, which other processes on a loaded machine cannot slow.
    const { ms, result: vectors } = await cpuTime(() => loadWordVectors());
    assert.ok(ms < 200, `${ms.toFixed(1)} ms of CPU`);
    assert.equal(vectors.dimensions, 100);
    assert.ok(vectors.size >= 20_000 && vectors.size <= 40_000, String(vectors.size));
    for (const word of ['the', 'ignore', 'instructions', 'idiot', 'jailbreak']) assert.ok(vectors.has(word), word);
  });

  it('reads related words as closer than unrelated ones', async () => {
    const vectors = await loadWordVectors();
    assert.ok(vectors.similarity('king', 'queen')! > vectors.similarity('king', 'carrot')! + 0.3);
    assert.ok(vectors.similarity('disregard', 'ignore')! > vectors.similarity('disregard', 'banana')! + 0.3);
    assert.equal(vectors.similarity('king', 'no-such-word'), undefined);
  });

  it('adds a weighted unit vector, and nothing for an unknown word', async () => {
    const vectors = await loadWordVectors();
    const sum = new Float32Array(vectors.dimensions);
    assert.equal(vectors.addTo('no-such-word', sum), false);
    assert.equal(Math.hypot(...sum), 0);
    assert.equal(vectors.addTo('house', sum, 2), true);
    assert.ok(Math.abs(Math.hypot(...sum) - 2) < 0.05);
  });
});
