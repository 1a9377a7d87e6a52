// Tokens of the trust-safety model's text (shared by the plugin and its trainer): normalised, masks dropped, obfuscated spellings undone, bounded in number.

/** A token made only of one repeated non-letter (a DLP mask such as "********"): carries no meaning, so it is no feature. */
const MASK_RUN = /^([^\p{L}\p{N}])\1+$/u;
/** Word tokens: letters, digits, apostrophes inside words, and the symbols of masked swearing ("f**k", "$hit"). */
const TOKEN = /[\p{L}\p{N}*@$#]+(?:'[\p{L}]+)?/gu;
/** Words of a training text the trainer reads (the first ones). */
export const TRAIN_TOKENS = 400;
/** A text of up to this many words is read whole (about the length of the training texts). */
export const WINDOW_TOKENS = 100;
/**
 * A longer text is read in windows of this many words (a sentence or two), overlapping by half, and its score is the
 * highest window's: one abusive sentence in a long post is then read with little of the harmless text around it.
 */
export const LONG_TEXT_WINDOW = 40;
/** Words read from one text in all (about 150 KB of English); the rules still read the whole text. */
export const MAX_TOKENS = 25_000;

/** Lower case, NFKC, invisible characters out, curly apostrophes straightened. */
export function normaliseForModel(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u200B-\u200F\u2060\uFEFF\u00AD]/g, '')
    .replace(/[’‘`´]/g, "'");
}

/** Leetspeak digits and symbols and the letters they stand for ("sh1t", "h@te", "$cum"). */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const HAS_LEET = /[013457@$]/;
/** A word of letters and leet characters only (so "covid19", "b2b" and "2020" stay as they are). */
const LEET_WORD = /^[\p{L}013457@$]+$/u;
const LETTER = /\p{L}/gu;
/** A letter written three or more times in a row ("soooo", "keeeel"). */
const REPEATED = /(\p{L})\1{2,}/gu;
const SINGLE_LETTER = /^\p{L}$/u;

/**
 * Undoes the usual ways of writing around a word filter: a hashtag's "#" goes, leetspeak in a word of at least two
 * letters becomes letters ("sh1t" → "shit", "nitwit$" → "nitwits"; not a mention "@name"), and a letter repeated
 * three or more times is kept twice ("loooser" → "looser").
 */
function deobfuscate(word: string): string {
  let token = word.length > 1 && word.charCodeAt(0) === 35 /* # */ ? word.slice(1) : word;
  if (token[0] !== '@' && HAS_LEET.test(token) && LEET_WORD.test(token) && (token.match(LETTER)?.length ?? 0) >= 2) {
    token = token.replace(/[013457@$]/g, (c) => LEET[c] ?? c);
  }
  return hasTripleUnit(token) ? token.replace(REPEATED, '$1$1') : token;
}

/**
 * False only when {@link REPEATED} cannot match: no three equal UTF-16 units in a row, and no surrogate (a letter
 * outside the BMP, which the regular expression then checks). A cheap test before it.
 */
function hasTripleUnit(token: string): boolean {
  for (let i = 0; i < token.length; i += 1) {
    const code = token.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return true;
    if (i >= 2 && code === token.charCodeAt(i - 1) && code === token.charCodeAt(i - 2)) return true;
  }
  return false;
}

/** True when the token starts with an ASCII lower-case letter or digit, so it is no {@link MASK_RUN} (a cheap test before it). */
function startsAlphanumeric(token: string): boolean {
  const code = token.charCodeAt(0);
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Joins runs of three or more single letters ("f u c k", "i d i o t") into one word. */
function joinSpacedLetters(tokens: string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 3) out.push(run.join(''));
    else out.push(...run);
    run = [];
  };
  for (const token of tokens) {
    if (token.length <= 2 && SINGLE_LETTER.test(token)) run.push(token);
    else {
      flush();
      out.push(token);
    }
  }
  flush();
  return out;
}

/** The word tokens of a normalised text, without DLP mask runs, with obfuscated spellings undone (see {@link deobfuscate}). */
export function modelTokens(normalised: string): string[] {
  const tokens: string[] = [];
  const add = (raw: string): boolean => {
    const token = deobfuscate(raw);
    if (startsAlphanumeric(token) || !MASK_RUN.test(token)) tokens.push(token);
    return tokens.length < MAX_TOKENS;
  };
  if (isAscii(normalised)) asciiTokens(normalised, add);
  else for (const match of normalised.matchAll(TOKEN)) if (!add(match[0])) break;
  return joinSpacedLetters(tokens);
}

/** True when every character of `text` is ASCII. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** A character of {@link TOKEN}'s main run, in ASCII: a letter, a digit, or * @ $ #. */
function isTokenCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 42 || c === 64 || c === 36 || c === 35;
}

/** A letter, in ASCII. */
function isLetterCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** {@link TOKEN}'s matches in an ASCII text, read with one scan (a run, then an apostrophe and letters if they follow), each given to `add` until it answers false. */
export function asciiTokens(text: string, add: (token: string) => boolean): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isTokenCode(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < n && isTokenCode(text.charCodeAt(i))) i += 1;
    if (i + 1 < n && text.charCodeAt(i) === 39 && isLetterCode(text.charCodeAt(i + 1))) {
      i += 2;
      while (i < n && isLetterCode(text.charCodeAt(i))) i += 1;
    }
    if (!add(text.slice(start, i))) return;
  }
}
