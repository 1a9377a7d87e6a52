// Lexicon classes of single words (insult, weak insult, obscene) that trustsafety's model reads as features of their own.
import { INSULT, WEAK_INSULT } from './lexicon.js';

/** A word from the rules' insult list ("idiot", "moron", "libtard"). */
export const CLASS_INSULT = 1;
/** A word from the rules' weak-insult list ("pathetic", "clown", "vermin"). */
export const CLASS_WEAK_INSULT = 2;
/** An obscene word or a masked one ("fucking", "bullshit", "f*ck"). */
export const CLASS_OBSCENE = 4;

/**
 * The single words a regular-expression fragment of lexicon.ts matches whole: groups, alternatives and `?` are
 * expanded; forms with a space or a hyphen (never one token) and the open pattern `[a-z]+` are left out.
 */
export function expandFragment(fragment: string): string[] {
  let at = 0;
  const alternatives = (): string[] => {
    const out: string[] = [];
    let current: string[] = [''];
    for (;;) {
      if (at >= fragment.length || fragment[at] === ')') {
        out.push(...current);
        return out;
      }
      if (fragment[at] === '|') {
        out.push(...current);
        current = [''];
        at += 1;
        continue;
      }
      let atom: string[];
      if (fragment.startsWith('(?:', at)) {
        at += 3;
        atom = alternatives();
        at += 1; // ')'
      } else if (fragment[at] === '[') {
        // An open character class ("[a-z]+tard"): no finite words.
        at = fragment.indexOf(']', at) + 1;
        if (fragment[at] === '+' || fragment[at] === '*') at += 1;
        atom = ['\u0000'];
      } else if (fragment[at] === '\\') {
        at += 2;
        atom = ['\u0000'];
      } else {
        atom = [fragment[at] as string];
        at += 1;
      }
      if (fragment[at] === '?') {
        atom = [...atom, ''];
        at += 1;
      }
      current = current.flatMap((head) => atom.map((tail) => head + tail));
    }
  };
  return [...new Set(alternatives())].filter((word) => /^[a-z']+$/.test(word));
}

/** Obscenity's words (the obscenity package's English list, without its clinical words) and their usual forms. */
const OBSCENE_ROOTS = ['arse', 'ass', 'bastard', 'bitch', 'blowjob', 'bollocks', 'boob', 'buttplug', 'cock', 'cuck', 'cum', 'cunt', 'deepthroat', 'dick', 'dildo', 'doggystyle', 'felch', 'fisting', 'fuck', 'gangbang', 'handjob', 'hentai', 'hooker', 'jizz', 'piss', 'porn', 'prick', 'pussy', 'shit', 'slut', 'tit', 'turd', 'twat', 'wank', 'whore'];
const OBSCENE_SUFFIXES = ['', 's', 'es', 'ing', 'in', 'er', 'ers', 'ed', 'y', 'ty', 'tier', 'ties', 'head', 'heads', 'face', 'hole', 'holes', 'wit', 'wits', 'bag', 'bags', 'ass', 'show', 'hat', 'hats'];
const OBSCENE_PREFIXES = ['', 'mother', 'bull', 'horse', 'dip', 'dumb', 'jack', 'smart', 'fat', 'lame', 'dick', 'ass', 'chicken'];
/** Forms the suffixes make that are ordinary words. */
const NOT_OBSCENE = new Set(['cumin', 'cocky', 'titer', 'tities', 'asses', 'assy', 'arsey', 'dicky', 'pricked', 'pricking', 'pricker', 'boobed', 'asshat']);

/** Each listed word's classes (a bit set of the CLASS_ constants), built once; see also {@link openFormClasses}. */
export const WORD_CLASSES = new Map<string, number>();
for (const word of expandFragment(INSULT)) WORD_CLASSES.set(word, CLASS_INSULT);
for (const word of expandFragment(WEAK_INSULT)) if (!WORD_CLASSES.has(word)) WORD_CLASSES.set(word, CLASS_WEAK_INSULT);
for (const prefix of OBSCENE_PREFIXES) {
  for (const root of OBSCENE_ROOTS) {
    for (const suffix of OBSCENE_SUFFIXES) {
      const word = prefix + root + suffix;
      if (!NOT_OBSCENE.has(word)) WORD_CLASSES.set(word, (WORD_CLASSES.get(word) ?? 0) | CLASS_OBSCENE);
    }
  }
}
for (const word of ['asshat', 'asshats']) WORD_CLASSES.set(word, (WORD_CLASSES.get(word) ?? 0) | CLASS_OBSCENE);

/** "[a-z]+tard" of the insult list: any longer word ending so, but not a food. */
const TARD = /^[a-z]{2,}tard(?:s|ed)?$/;
const TARD_FOODS = /^(?:mus|cus)tards?$/;
/** A word masked with asterisks ("f*ck", "sh*t", "b**ch", "*ss"). */
const MASKED = /^\p{L}+\*+\p{L}*$|^\*+\p{L}{2,}$/u;

/**
 * The lexicon classes of one model token (lower case, deobfuscated): a bit set of {@link CLASS_INSULT},
 * {@link CLASS_WEAK_INSULT} and {@link CLASS_OBSCENE}; 0 for most words.
 * @example
 * wordClasses('idiots'); // CLASS_INSULT
 */
export function wordClasses(token: string): number {
  return WORD_CLASSES.get(token) ?? openFormClasses(token);
}

/** The classes of a word that is not in {@link WORD_CLASSES}: "[a-z]+tard" forms and masked words. */
export function openFormClasses(token: string): number {
  const last = token.charCodeAt(token.length - 1);
  // "tard", "tards", "tarded" end in d or s; a masked word has an asterisk.
  if ((last === 100 || last === 115) && token.length >= 6 && token.includes('tard')) return TARD.test(token) && !TARD_FOODS.test(token) ? CLASS_INSULT : 0;
  return token.includes('*') && MASKED.test(token) ? CLASS_OBSCENE : 0;
}
