// The words of one rule view, split once for the rule gates (scoring.ts): an ASCII view keeps only hashes of its words.

/** What the rule gates ask of a view's words. */
export interface ViewWords {
  /** True when one of `words` is one of the view's words; may rarely answer true when none is (never false when one is). */
  hasAny(words: readonly string[]): boolean;
}

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Hashes are kept to 30 bits, so V8 stores them as small integers. */
const HASH_MASK = 0x3fffffff;

const isAsciiWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);

/** A word's hash as {@link viewWords} keeps it. */
function wordKey(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i += 1) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h & HASH_MASK;
}

/** Gate word lists are few and fixed (the rules' own), so their hashes are kept once made, by list. */
const gateKeys = new WeakMap<readonly string[], number[]>();

/**
 * The words of `text` as `text.split(/[^\p{L}\p{N}]+/u)` gives them. In ASCII text, a word is a run of
 * [A-Za-z0-9], hashed as it is read without making strings; a hash shared by two words can only make a gate pass
 * (its rule's pattern then decides), never fail. Other text is split and kept as strings.
 */
export function viewWords(text: string): ViewWords {
  const keys = new Set<number>();
  let hash = FNV_OFFSET;
  let inWord = false;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127) {
      const words = new Set(text.split(WORD_SPLIT));
      return { hasAny: (wanted) => wanted.some((word) => words.has(word)) };
    }
    if (isAsciiWordCode(c)) {
      hash = Math.imul((inWord ? hash : FNV_OFFSET) ^ c, FNV_PRIME);
      inWord = true;
    } else if (inWord) {
      keys.add(hash & HASH_MASK);
      inWord = false;
    }
  }
  return {
    hasAny(wanted) {
      let wantedKeys = gateKeys.get(wanted);
      if (wantedKeys === undefined) gateKeys.set(wanted, (wantedKeys = wanted.map(wordKey)));
      return wantedKeys.some((key) => keys.has(key));
    },
  };
}
