// The csam filter: conservative rules that match sexual terms co-occurring with terms for minors in one sentence.

// Words for minors; ages are checked separately (a number under 18 before "year old", "yo", "y/o").
const MINOR_TERMS =
  /\b(?:child|children|kids?|kiddie|minors?|underage|under-age|preteens?|pre-teens?|tweens?|toddlers?|infants?|little (?:girls?|boys?)|young (?:girls?|boys?)|schoolgirls?|schoolboys?|prepubescent|lolis?|shotas?|jailbait)\b/gi;
const AGE_UNDER_18 = /\b(?:[1-9]|1[0-7])[- ]?(?:yo|y\/o|yrs? old|years?[- ]old)\b/gi;
// Sexual content and acts, not the bare words "sex" or "sexual", which also occur in insults, news and medicine.
const SEXUAL_TERMS =
  /\b(?:nudes?|naked|nudity|porn\w*|erotic\w*|lewd|sexy|nsfw|xxx|topless|undress\w*|intercourse|masturbat\w*|orgasm\w*|genitals?|explicit (?:photos?|pics?|pictures?|images?|videos?|content|material)|sex (?:with|tapes?|videos?|pics?|photos?|chat)|sexual (?:images?|photos?|pics?|pictures?|videos?|content|material|acts?|role-?play|stories|story))\b/gi;
/** SEXUAL_TERMS for one test (no global state). */
const ANY_SEXUAL_TERM = new RegExp(SEXUAL_TERMS.source, 'i');
/** Terms that only name abusive material, matched on their own. */
const ABUSE_MATERIAL = /\b(?:child porn\w*|kiddie porn|csam|lolicon|shotacon|pedo(?:phile)? (?:porn|pics|videos))\b/i;
/** Sentences about reporting, preventing or teaching about abuse are not matched. */
const SAFETY_CONTEXT =
  /\b(?:report(?:ing|ed)?|prevent(?:ion|ing)?|protect(?:ion|ing)?|safeguard\w*|awareness|education|educational|curriculum|hotline|helpline|law enforcement|police|ncmec|survivors?|therapy|therapist|pediatrician|doctor|consent laws?)\b/i;
/** The most characters between a sexual term and a minor term that still count as one statement. */
const WINDOW = 60;

/** Splits text into sentences (and lines), keeping each piece short enough for co-occurrence to mean something. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== '');
}

/** Start and end offsets of every match of a global regex. */
function spans(pattern: RegExp, text: string): Array<[number, number]> {
  return [...text.matchAll(pattern)].map((m) => [m.index, m.index + m[0].length]);
}

/** True when some sexual term and some minor term (or age under 18) lie within {@link WINDOW} characters. */
function nearEachOther(sentence: string): boolean {
  const sexual = spans(SEXUAL_TERMS, sentence);
  if (sexual.length === 0) return false;
  const minors = [...spans(MINOR_TERMS, sentence), ...spans(AGE_UNDER_18, sentence)];
  return sexual.some(([s0, s1]) => minors.some(([m0, m1]) => m0 - s1 <= WINDOW && s0 - m1 <= WINDOW));
}

/**
 * True when one sentence names abuse material outright, or puts a sexual-content term within 60 characters of a
 * minor term or an age under 18, and the sentence is not about reporting, prevention or education. Deliberately
 * narrow: it is a backstop, not a classifier, and it leaves ambiguous text to the rai filter.
 * @example
 * matchesCsam('Summer camp for kids aged 9-12.') // → false
 */
export function matchesCsam(text: string): boolean {
  // A sentence that matches holds a sexual term or an abuse-material term, so a text with neither is done in two passes.
  if (!ANY_SEXUAL_TERM.test(text) && !ABUSE_MATERIAL.test(text)) return false;
  for (const sentence of sentences(text)) {
    if (SAFETY_CONTEXT.test(sentence)) continue;
    if (ABUSE_MATERIAL.test(sentence) || nearEachOther(sentence)) return true;
  }
  return false;
}
