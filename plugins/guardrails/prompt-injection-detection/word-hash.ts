// FNV-1a, as the hashed features use it for words: shared by hashed-features.ts and the word gate of self-reference.ts.

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
/** Seed of a word's hash (before its bucket is taken). */
export const WORD_SEED = 0x9e3779b9;

/** FNV-1a of a whole string, from a seed (0: plain FNV-1a). */
export function fnv(text: string, seed: number): number {
  let h = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** The hash the features give a word (a run of letters and digits of a normalised window), before its bucket is taken. */
export function wordHash(word: string): number {
  return fnv(word, WORD_SEED);
}
