// Recognises a reference page (command documentation, option lists) from its line structure: a document-level token the tool model reads beside each sentence.
import { fnv } from '../prompt-injection-detection/hashed-features.js';

/** A line that is code: wrapped in backticks, a shell prompt, a `{{placeholder}}`, or an option (`-v, --verbose …`). */
const CODE_LINE = /^`[^`]+`$|^\$ |\{\{|^-{1,2}[a-z0-9][\w-]*(?:,|=|\s|$)/;
/** A list item that introduces what follows ("- list all running containers:"). */
const INTRO_LINE = /^[-*] .{6,}:$/;
/** A Markdown heading. */
const HEADING_LINE = /^#{1,6} /;

/** Fewest non-empty lines, code lines and introducing list items of a reference page; the share of lines of those kinds and headings. */
const MIN_LINES = 3;
const MIN_CODE = 1;
const MIN_INTRO = 1;
const MIN_SHARE = 0.6;

/**
 * The reference-page feature is this many buckets of its own, each added twice to a window: as many as the
 * character n-grams of a word token, so it learns as fast as one, without sharing those n-grams with English text.
 */
const BUCKETS = 48;
const REPEAT = 2;

/** The feature's buckets per model size, built once: FNV-1a of `document:reference-page:<k>` for k < BUCKETS, masked, each REPEAT times. */
const referenceBucketsByBits = new Map<number, readonly number[]>();

function referenceBuckets(bits: number): readonly number[] {
  let buckets = referenceBucketsByBits.get(bits);
  if (!buckets) {
    const out: number[] = [];
    for (let k = 0; k < BUCKETS; k += 1) {
      const bucket = fnv(`document:reference-page:${k}`, 0) & ((1 << bits) - 1);
      for (let r = 0; r < REPEAT; r += 1) out.push(bucket);
    }
    buckets = out;
    referenceBucketsByBits.set(bits, buckets);
  }
  return buckets;
}

/**
 * True when most of its lines are headings,
 * list items that introduce something and code (a command reference such as a tldr or cheat-sheet page).
 * The model learns the token's weight like any other feature, so it lowers the imperatives of such a page ("- show
 * the bandwidth usage:") without gating: an instruction planted in a reference page still carries its own n-grams,
 * and training plants instructions into such pages.
 */
export function isReferencePage(normalised: string): boolean {
  let lines = 0;
  let code = 0;
  let intro = 0;
  let heading = 0;
  for (const raw of normalised.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    lines += 1;
    if (CODE_LINE.test(line)) code += 1;
    else if (INTRO_LINE.test(line)) intro += 1;
    else if (HEADING_LINE.test(line)) heading += 1;
  }
  return lines >= MIN_LINES && code >= MIN_CODE && intro >= MIN_INTRO && code + intro + heading >= MIN_SHARE * lines;
}

/** The document-level feature buckets of a normalised text (none for most texts), added to each of its windows. */
export function documentBuckets(normalised: string, bits: number): readonly number[] {
  return isReferencePage(normalised) ? referenceBuckets(bits) : [];
}
