// Text-shape cues of lang_detector: capitalised words (names) weigh less, a text of capitalised ASCII words only leans to English, and a Latin i typed inside a Cyrillic word reads as the Ukrainian і.

/** Longest text (in words) the names-only cue applies to. */
export const NAMES_MAX_WORDS = 4;

/**
 * True when `cased` (normalised but for case: letters and single spaces) holds 1 to {@link NAMES_MAX_WORDS} words,
 * each an ASCII capital followed by ASCII letters: a name, a title or a header ("Michael", "R E Glenn", "Prime Ribs"),
 * with no function word or accent to tell its language.
 * @example
 * namesOnly('Sheridan Titman') // → true
 * namesOnly('Anna está aquí') // → false
 */
export function namesOnly(cased: string): boolean {
  let words = 1;
  for (let i = 0; i < cased.length; i += 1) {
    const code = cased.charCodeAt(i);
    if (code === 32) {
      words += 1;
      if (words > NAMES_MAX_WORDS) return false;
    } else if (code > 0x7a || code < 0x41 || (code > 0x5a && code < 0x61)) return false;
    else if ((i === 0 || cased.charCodeAt(i - 1) === 32) && code > 0x5a) return false;
  }
  return cased.length > 0;
}

/**
 * One flag per word of `cased` (normalised but for case) and its lower-case form `lower`: true for a word that
 * starts with a capital and is not the text's first word. Answers undefined when no word is flagged, or when lower-casing changed the
 * length (the two cannot be aligned).
 * @example
 * capitalisedWords('Ele mora em Boston', 'ele mora em boston') // → [false, false, false, true]
 */
export function capitalisedWords(cased: string, lower: string): boolean[] | undefined {
  if (cased.length !== lower.length || cased === lower) return undefined;
  const flags: boolean[] = [];
  for (let i = 0; i < cased.length; i += 1) {
    if (i > 0 && cased.charCodeAt(i - 1) !== 32) continue;
    const capital = cased.charCodeAt(i) !== lower.charCodeAt(i);
    flags.push(capital);
  }
  // The first word's capital may open a sentence ("Ти сердита"): it says nothing (measured: flagging it in texts of up
  // to 3 words cost Ukrainian short texts 3 of 75 in leave-one-source-out).
  flags[0] = false;
  return flags.some((flag) => flag) ? flags : undefined;
}

/** A Latin i beside a Cyrillic letter (Ukrainian typed on a keyboard without і). */
const LATIN_I_IN_CYRILLIC = /(?<=[\u0400-\u04ff])[iI]|[iI](?=[\u0400-\u04ff])/gu;

/**
 * The text with each Latin i or I that touches a Cyrillic letter turned into the Cyrillic і or І.
 * @example
 * cyrillicLatinI('менi') // → 'мені'
 */
export function cyrillicLatinI(text: string): string {
  return text.replace(LATIN_I_IN_CYRILLIC, (letter) => (letter === 'i' ? '\u0456' : '\u0406'));
}
