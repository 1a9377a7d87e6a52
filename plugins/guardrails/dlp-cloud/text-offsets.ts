// Converts JavaScript string (UTF-16) indices into Unicode code point and UTF-8 byte offsets.
import type { OffsetRange } from './info-types.js';

/** Code point and UTF-8 byte offsets of one UTF-16 index. */
export interface TextOffset {
  codepoint: number;
  byte: number;
}

/** Answers the code point and byte offsets of UTF-16 indices of one text. */
export interface OffsetConverter {
  at(utf16Index: number): TextOffset;
  /** Both ranges of a UTF-16 range `[start, end)`. */
  ranges(start: number, end: number): { byte_range: OffsetRange; codepoint_range: OffsetRange };
}

// Only ASCII: every index is the same in all three units.
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** UTF-8 length of a code point in the Basic Multilingual Plane; a lone surrogate is written as U+FFFD (3 bytes). */
function utf8Length(unit: number): number {
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return 3;
}

/**
 * Builds a converter for `text`. ASCII text converts for free; other text gets a prefix table built once, O(n).
 * A lone surrogate counts as one code point of 3 bytes, as `TextEncoder` would write U+FFFD.
 * @example
 * createOffsetConverter('é a').at(2) // → { codepoint: 2, byte: 3 }
 */
export function createOffsetConverter(text: string): OffsetConverter {
  if (ASCII_ONLY.test(text)) {
    return {
      at: (index) => ({ codepoint: index, byte: index }),
      ranges: (start, end) => ({ byte_range: { start, end }, codepoint_range: { start, end } }),
    };
  }
  const codepoints = new Uint32Array(text.length + 1);
  const bytes = new Uint32Array(text.length + 1);
  let codepoint = 0;
  let byte = 0;
  for (let i = 0; i < text.length; i++) {
    codepoints[i] = codepoint;
    bytes[i] = byte;
    const unit = text.charCodeAt(i);
    codepoint += 1;
    if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A surrogate pair is one code point of 4 bytes; an index between its halves maps to the pair's end.
      byte += 4;
      i += 1;
      codepoints[i] = codepoint;
      bytes[i] = byte;
    } else {
      byte += utf8Length(unit);
    }
  }
  codepoints[text.length] = codepoint;
  bytes[text.length] = byte;
  const at = (index: number): TextOffset => ({ codepoint: codepoints[index] ?? codepoint, byte: bytes[index] ?? byte });
  return {
    at,
    ranges(start, end) {
      const from = at(start);
      const to = at(end);
      return { byte_range: { start: from.byte, end: to.byte }, codepoint_range: { start: from.codepoint, end: to.codepoint } };
    },
  };
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Number of code points in `text` (what a user counts as characters, emoji included). */
export function codepointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
