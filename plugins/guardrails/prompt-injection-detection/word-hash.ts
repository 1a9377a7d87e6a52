// A word's hash as the hashed features compute it (FNV-1a from the word seed), for the word gate of self-reference.ts; hashed-features.ts keeps its own copy of the constants for speed, and a test checks both agree.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Seed of a word's hash (before its bucket is taken). */
const WORD_SEED = 0x9e3779b9;

/** The hash the features give a word (a run of letters and digits of a normalised window), before its bucket is taken. */
export function wordHash(word: string): number {
  let h = (FNV_OFFSET ^ WORD_SEED) >>> 0;
  for (let i = 0; i < word.length; i += 1) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}
