// Finds adversarial token suffixes (GCG, random search): prose that ends in a run of broken tokens with unbalanced brackets.

/** Characters that rarely sit inside an ordinary word: brackets, escapes, template and operator marks. */
const SYMBOL = /[{}[\]()<>\\`$|^~_=*#@%&+/]/;
const LETTER = /\p{L}/u;
/** A lower-case letter followed by a capital inside one token ("introPub", "ActivityThread"). */
const CAMEL_JOIN = /[a-z][A-Z]/;
/** Two or three capitalised words run together, as brand names are ("YouTube", "PowerPoint"): not counted. */
const BRAND_CASE = /^(?:[A-Z][a-z]+){2,3}$/;
/** A mark between two Latin letters that is not an apostrophe, hyphen, dot or comma ("papers?_{"). */
const INNER_MARK = /[a-zA-Z][^\p{L}\p{N}_\s'’\-.,][a-zA-Z]/u;
/** Sentence punctuation and quotes peeled from a token's ends before it is judged. */
const EDGE_PUNCTUATION = /^[.,!?:;"'“”‘’]+|[.,!?:;"'“”‘’]+$/g;

/** Shortest prose head, shortest and longest tail, in tokens; the head's junk share is read over its last HEAD_SPAN tokens. */
const MIN_HEAD = 6;
const MIN_TAIL = 8;
const MAX_TAIL = 60;
const HEAD_SPAN = 40;
/** A fenced code block (fences at line starts): code the user pasted, not a suffix. */
const CODE_FENCE = /(?:^|\n)[ \t]*```[^\n]*\n[\s\S]*?\n[ \t]*```[ \t]*(?=\n|$)/g;
/** A list marker standing alone: "1)", "(2)", "b)", "iv)". Balanced by convention, and ordinary in prose. */
const LIST_MARKER = /^\(?(?:\d{1,2}|[a-zA-Z]|[ivxIVX]{2,4})\)$/;
/** Only the end of a text is read: suffix attacks sit there, and the work stays bounded. */
const READ_CHARS = 4_000;

/** True for a token that is not an ordinary word: bracketed, camel-joined, or with a mark between letters. */
export function isJunkToken(token: string): boolean {
  if (isPlainWord(token)) return false;
  const core = token.replace(EDGE_PUNCTUATION, '');
  if (core === '' || LIST_MARKER.test(core)) return false;
  const symbol = SYMBOL.test(core);
  if (symbol) return LETTER.test(core) || core.length >= 2;
  if (CAMEL_JOIN.test(core) && !BRAND_CASE.test(core)) return true;
  return INNER_MARK.test(core);
}

/**
 * True for an ASCII word, perhaps followed by sentence punctuation (". , ! ? : ;"), with no lower-case letter before a
 * capital: such a token has no symbol, no camel join and no inner mark, so it is never junk. Most prose is these.
 */
function isPlainWord(token: string): boolean {
  let i = 0;
  let lowerBefore = false;
  for (; i < token.length; i += 1) {
    const c = token.charCodeAt(i);
    const lower = c >= 97 && c <= 122;
    const upper = c >= 65 && c <= 90;
    if (!lower && !upper) break;
    if (upper && lowerBefore) return false;
    lowerBefore = lower;
  }
  if (i === 0) return false;
  for (; i < token.length; i += 1) {
    const c = token.charCodeAt(i);
    // . , ! ? : ;
    if (c !== 46 && c !== 44 && c !== 33 && c !== 63 && c !== 58 && c !== 59) return false;
  }
  return true;
}

const CLOSES: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Brackets left unmatched (or closed by the wrong kind), plus an odd count of double quotes and of backticks. */
export function unbalancedMarks(text: string): number {
  const open: string[] = [];
  let bad = 0;
  for (const c of text) {
    if (c === '(' || c === '[' || c === '{') open.push(c);
    else if (c === ')' || c === ']' || c === '}') {
      if (open.at(-1) === CLOSES[c]) open.pop();
      else bad += 1;
    }
  }
  bad += open.length;
  bad += (text.split('"').length - 1) % 2;
  bad += (text.split('`').length - 1) % 2;
  return bad;
}

/**
 * How much the end of `text` looks like an adversarial suffix, in [0, 1]: over every tail of 8 to 60
 * whitespace-separated tokens after at least 6 others, the share of junk tokens in the tail minus twice their share
 * in the 40 tokens before it (so code, JSON and maths, junk from the start, score low), plus 0.1 per unbalanced
 * bracket or quote in that tail (up to 0.4) when there are at least two; halved when the tail is balanced.
 * Ordinary prose, code, templates and tables score below 0.5; most greedy-coordinate-gradient suffixes above 0.6.
 */
export function tokenSpamScore(text: string): number {
  // Only the last MAX_TAIL + HEAD_SPAN tokens can reach the score.
  // Every code fence holds three backticks: without them the replacement would only scan the text.
  const tokens = (text.includes('```') ? text.replace(CODE_FENCE, '\n') : text)
    .slice(-READ_CHARS)
    .split(/\s+/u)
    .filter((t) => t !== '')
    .slice(-(MAX_TAIL + HEAD_SPAN));
  const n = tokens.length;
  if (n < MIN_HEAD + MIN_TAIL) return 0;
  const junk = tokens.map((t) => (isJunkToken(t) ? 1 : 0));
  const prefix = [0];
  for (const j of junk) prefix.push((prefix.at(-1) as number) + j);
  let best = 0;
  let bestTail = 0;
  for (let k = MIN_TAIL; k <= Math.min(MAX_TAIL, n - MIN_HEAD); k += 1) {
    const headEnd = n - k;
    const headStart = Math.max(0, headEnd - HEAD_SPAN);
    const headShare = ((prefix[headEnd] as number) - (prefix[headStart] as number)) / (headEnd - headStart);
    const tailShare = ((prefix[n] as number) - (prefix[headEnd] as number)) / k;
    const contrast = tailShare - 2 * headShare;
    if (contrast > best) [best, bestTail] = [contrast, k];
  }
  if (best <= 0) return 0;
  const unbalanced = unbalancedMarks(tokens.slice(n - bestTail).filter((t) => !LIST_MARKER.test(t.replace(EDGE_PUNCTUATION, ''))).join(' '));
  const score = unbalanced >= 2 ? best + 0.1 * Math.min(unbalanced, 4) : best * 0.5;
  return Math.min(1, score);
}

/** Score from which a suffix counts as evidence, and the score at which its evidence is full. */
const SPAM_FLOOR = 0.25;
const SPAM_FULL = 0.6;
/** Evidence weight of a clear adversarial suffix on its own (a probability, like a rule weight). */
export const TOKEN_SPAM_WEIGHT = 0.9;

/** The evidence of an adversarial suffix as a probability: 0 below 0.25, rising linearly to 0.9 at 0.6 and above. */
export function tokenSpamEvidence(text: string): number {
  const score = tokenSpamScore(text);
  if (score <= SPAM_FLOOR) return 0;
  return TOKEN_SPAM_WEIGHT * Math.min(1, (score - SPAM_FLOOR) / (SPAM_FULL - SPAM_FLOOR));
}
