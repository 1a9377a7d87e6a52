// The csam filter: conservative rules that match sexual terms co-occurring with terms for minors in one sentence.

// Words for minors; ages are checked separately (a number under 18 before "year old", "yo", "y/o").
const MINOR_TERMS =
  /\b(?:child|children|childs?|kids?|kiddie|minors?|underage|under-age|under age|preteens?|pre-teens?|tweens?|toddlers?|infants?|bab(?:y|ies)|little (?:girls?|boys?)|young (?:girls?|boys?)|schoolgirls?|schoolboys?|prepubescent|pubescent|lolis?|shotas?|jailbait)\b/i;
const AGE_UNDER_18 = /\b(?:[1-9]|1[0-7])[- ]?(?:yo|y\/o|yrs? old|years?[- ]old)\b/i;
const SEXUAL_TERMS =
  /\b(?:sex|sexual|sexually|sexy|nudes?|naked|nudity|porn|porno|pornography|pornographic|erotic|erotica|explicit|intercourse|lewd|nsfw|genitals?|orgasm|masturbat\w*|fetish\w*|molest\w*|seduc\w*|onlyfans|undress\w*|topless|xxx)\b/i;
/** Terms that only name abusive material, matched on their own. */
const ABUSE_MATERIAL = /\b(?:child porn\w*|kiddie porn|cp videos?|csam|lolicon|shotacon|pedo(?:phile)? (?:porn|pics|videos))\b/i;
/** Sentences about reporting, preventing or teaching about abuse are not matched. */
const SAFETY_CONTEXT =
  /\b(?:report(?:ing|ed)?|prevent(?:ion|ing)?|protect(?:ion|ing)?|safeguard\w*|awareness|education|educational|curriculum|hotline|helpline|law enforcement|police|ncmec|survivors?|therapy|therapist|pediatrician|doctor|consent laws?)\b/i;

/** Splits text into sentences (and lines), keeping each piece short enough for co-occurrence to mean something. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== '');
}

/**
 * True when one sentence names abuse material outright, or puts a sexual term together with a minor term or an
 * age under 18, and the sentence is not about reporting, prevention or education. Deliberately narrow: it is a
 * backstop, not a classifier, and it leaves ambiguous text to the rai filter.
 * @example
 * matchesCsam('Summer camp for kids aged 9-12.') // → false
 */
export function matchesCsam(text: string): boolean {
  for (const sentence of sentences(text)) {
    if (SAFETY_CONTEXT.test(sentence)) continue;
    if (ABUSE_MATERIAL.test(sentence)) return true;
    if (SEXUAL_TERMS.test(sentence) && (MINOR_TERMS.test(sentence) || AGE_UNDER_18.test(sentence))) return true;
  }
  return false;
}
