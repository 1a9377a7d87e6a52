// Which structural cues a window's words allow: a table from the hash of a word start to the cues it anchors (see Cue.anchors in cues.ts).
import { CUE_ANCHORS } from './cues.js';
import { wordHash } from './word-hash.js';

/**
 * Bits of the cues anchored by each word start, by the low 16 bits of its hash (as the features hash words, see
 * word-hash.ts). Two starts that share those bits share their cues: a collision only lets a cue run that need not.
 */
export const CUE_ANCHOR_TABLE = new Uint32Array(1 << 16);

/** Bits of the cues without anchors: they always run. */
export const UNANCHORED_CUES = CUE_ANCHORS.reduce((bits, anchors, i) => (anchors === undefined ? bits | (1 << i) : bits), 0);

if (CUE_ANCHORS.length > 31) throw new Error('cue-anchors: more cues than bits');
CUE_ANCHORS.forEach((anchors, i) => {
  for (const start of anchors ?? []) {
    const slot = wordHash(start) & 0xffff;
    CUE_ANCHOR_TABLE[slot] = (CUE_ANCHOR_TABLE[slot] ?? 0) | (1 << i);
  }
});

const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);

/**
 * The anchor bits of an ASCII window, read on its own: what the features gather while they hash its words (every
 * start of every run of letters and digits is looked up), for callers that did not hash them.
 * @example
 * windowAnchors('ignore the rules') & (1 << CUE_ANCHORS.length) - 1 // → bits of the cues anchored by "ignor", "rules", ...
 */
export function windowAnchors(window: string): number {
  let bits = UNANCHORED_CUES;
  let hash = 0;
  let inWord = false;
  for (let i = 0; i < window.length; i += 1) {
    const c = window.charCodeAt(i);
    if (!isWordCode(c)) {
      inWord = false;
      continue;
    }
    hash = Math.imul((inWord ? hash : wordHash('')) ^ c, 0x01000193);
    inWord = true;
    bits |= CUE_ANCHOR_TABLE[(hash >>> 0) & 0xffff] as number;
  }
  return bits;
}
