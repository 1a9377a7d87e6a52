// Profanity and abusive language: the obscenity package finds obscene words (leetspeak and look-alikes too), insult rules add abuse.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { INSULT, WEAK_INSULT } from './lexicon.js';
import { asciiTransformer } from './obscenity-ascii-transform.js';

/** What the profanity check adds to the categories. */
export interface ProfanityScores {
  profanity: number;
  /** Slurs count as hate speech too. */
  hate_speech: number;
  /** Sexual words count as sexual content too. */
  sexual: number;
}

/** Obscenity's words, by what they say: each class has a base profanity weight and may feed another category. */
const SLURS = new Set(['abeed', 'abo', 'africoon', 'arabush', 'boonga', 'chingchong', 'chink', 'kike', 'negro', 'nigger', 'fag', 'dyke', 'tranny', 'retard', 'spastic']);
const SEXUAL_WORDS = new Set(['bestiality', 'blowjob', 'buttplug', 'cum', 'deepthroat', 'dildo', 'doggystyle', 'double penetration', 'ejaculate', 'felch', 'fellatio', 'finger bang', 'fisting', 'gangbang', 'handjob', 'hentai', 'incest', 'jerk off', 'jizz', 'lubejob', 'masturbate', 'orgasm', 'orgy', 'porn', 'semen']);
const ANATOMY = new Set(['anal', 'anus', 'boob', 'cock', 'dick', 'penis', 'pussy', 'tit', 'vagina', 'sex']);
const STRONG = new Set(['fuck', 'cunt', 'twat']);
const MEDIUM = new Set(['shit', 'bitch', 'bastard', 'whore', 'slut', 'prick', 'wank', 'cuck', 'bollocks', 'piss', 'hooker']);
/** Clinical words: sexual content at most, never profanity. */
const CLINICAL = new Set(['anus', 'penis', 'vagina', 'sex', 'semen', 'ejaculate', 'incest', 'bestiality', 'masturbate', 'orgasm', 'anal']);

/** Base profanity weight of one obscenity word. */
function profanityWeight(word: string): number {
  if (CLINICAL.has(word)) return 0;
  if (SLURS.has(word)) return 0.45;
  if (STRONG.has(word)) return 0.45;
  if (MEDIUM.has(word)) return 0.4;
  if (SEXUAL_WORDS.has(word) || ANATOMY.has(word)) return 0.35;
  return 0.25;
}

/** "rape" is left to the violence and sexual rules, which read its context. */
const dataset = englishDataset.removePhrasesIf((phrase) => phrase.metadata?.originalWord === 'rape');
let matcher: RegExpMatcher | undefined;

/** The parts of obscenity's RegExpMatcher (0.4) that the prefilter reuses; absent in another version, so optional. */
interface MatcherInternals {
  blacklistedTerms?: Array<{ regExp: RegExp }>;
  blacklistMatcherTransformers?: unknown;
  applyTransformers?(input: string, transformers: unknown): [number[], string];
}

/**
 * One regular expression that matches where any of obscenity's terms matches, run on obscenity's own transformed
 * text. Most texts contain no obscene word, and one pass of it costs much less than obscenity's pass per term (119
 * terms) plus its whitelist pass. Where it matches, obscenity's full matcher decides, so results are unchanged.
 */
let anyTerm: ((raw: string) => boolean) | undefined;

/** Builds the obscenity matcher and its prefilter once (called from the plugin's setup(); evaluation builds them lazily otherwise). */
export function buildProfanityMatcher(): void {
  if (matcher) return;
  matcher = new RegExpMatcher({ ...dataset.build(), ...englishRecommendedTransformers });
  const internals = matcher as unknown as MatcherInternals;
  const terms = internals.blacklistedTerms;
  if (terms && terms.length > 0 && typeof internals.applyTransformers === 'function' && terms.every((term) => term.regExp instanceof RegExp)) {
    const combined = new RegExp(terms.map((term) => `(?:${term.regExp.source})`).join('|'), 's');
    const apply = internals.applyTransformers.bind(matcher);
    const transformers = internals.blacklistMatcherTransformers;
    // ASCII texts (most) skip obscenity's generic per-character pass; the text they give is the same (see the test).
    const fast = asciiTransformer(englishRecommendedTransformers.blacklistMatcherTransformers);
    anyTerm = (raw) => combined.test(fast?.(raw) ?? apply(raw, transformers)[1]);
  }
}

/** The obscenity words in a text (original word of each matched phrase). */
export function obsceneWords(raw: string): Set<string> {
  buildProfanityMatcher();
  const words = new Set<string>();
  if (anyTerm && !anyTerm(raw)) return words;
  for (const match of (matcher as RegExpMatcher).getAllMatches(raw)) {
    const word = dataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord;
    if (word) words.add(word);
  }
  return words;
}

/** Words that insult only when said to the reader ("you're sick"); elsewhere they are ordinary ("a sick child"). */
const DIRECTED_ONLY = 'evil|sick|nuts|crazy|insane|ugly|fat|gross|lazy|greedy|miserable|arrogant|whiny|shrill|hysterical|dense|thick|slimy|sleazy|nasty|toxic|mindless|psychotic|revolting|joke|nobody|worms?|donkey|snakes?|toads?|slugs?|vultures?|hyenas?|goblins?|puppets?|cows?|embarrassment';
/** Any insult word at all: the insult patterns below run only when one is present. */
const INSULT_WORD = new RegExp(`\\b(?:${INSULT}|${WEAK_INSULT}|${DIRECTED_ONLY})\\b`);
/** Abuse aimed at the reader: "you idiot", "you're a moron", "shut up"; not in a condition ("when you are sick"). */
const DIRECTED = /(?<!\b(?:when|if|while|because|whenever|since|until|unless|once) )\b(?:you|you're|youre|ur|u r|ya|yall|y'all|you all|you guys|your)\s+(?:[\w'-]+\s+){0,3}?/;
const DIRECTED_INSULT = new RegExp(`${DIRECTED.source}${INSULT}\\b|(?<!\\b(?:when|if|while|because|whenever|since|until|unless|once) )\\b(?:you|you're|youre|ur|u r|ya|you all|you guys|y'all)\\s+(?:are\\s+|r\\s+)?(?:a\\s+|an\\s+|such\\s+a\\s+|so\\s+|the\\s+|just\\s+|nothing but\\s+|fucking\\s+|bloody\\s+)?(?:[\\w'-]+\\s+)?(?:${WEAK_INSULT}|${DIRECTED_ONLY})\\b`);
/** Abusive phrases that need no insult word: "shut up", "go to hell", "f*ck you". */
const ABUSIVE_PHRASE = new RegExp(`\\b(?:shut (?:the \\w+ )?up|stfu|gtfo|go to hell|rot in hell|burn in hell|screw you|drop dead|kys|kill yourself|die in a fire|eat shit|suck it|let'?s go brandon|fjb)\\b|\\bf(?:u|\\*|\\W)?(?:c|\\*)?k (?:you|u|off|your|ur|the|them|him|her|this|that|all|every|em|'em|[a-z]+ [a-z]+$)`);
/** Masked obscenities that obscenity's transformers miss: "sh*thead", "b*$trd", "a$$". */
const MASKED = /(?:^|[^a-z])(?:f[*#@$%&|!-]{1,3}(?:c?k|ck|king|ked|ker)?|sh?[*#@$%&|!1-]{1,2}t\w*|b[*#@$%&|!]{1,4}(?:tch|t?ch|st?a?rd|trd)?\w*|a[$*]{2}(?:hole|hat)?\w*|c[*#@$%&|!]{1,2}nt\w*|d[*#@$%&|!]ck\w*|pu?[*#@$%&|!]{1,3}(?:ssy|sy|y)|f[*#@$%&|!]{3,}(?:ing|ed|er)?)(?![a-z])/;
/** The letter and mask mark every MASKED alternative starts with ("f*", "sh1", "a$", "pu#"): a cheap test before it. */
const MASK_AFTER_LETTER = /[fshbacdpu][*#@$%&|!1-]/;
/** Abuse aimed at someone else: "he is a moron", "what a clown", "bunch of idiots". */
const PREDICATE_INSULT = new RegExp(`\\b(?:is|are|was|were|'s|'re|such|what|total|complete|absolute|utter|bunch of|pack of|these|those|dumb|stupid|lying|filthy|disgusting|typical)\\s+(?:an?\\s+)?(?:[\\w'-]+\\s+){0,2}?${INSULT}\\b|\\b(?:is|are|'s|'re|such|total|complete|absolute|utter|bunch of|pack of)\\s+(?:so\\s+|just\\s+|really\\s+|truly\\s+)?${WEAK_INSULT}\\b|\\b(?:is|are|'s|'re|such|bunch of|pack of)\\s+(?:an?\\s+|such\\s+an?\\s+|the\\s+)(?:[\\w'-]+\\s+)?${WEAK_INSULT}\\b`);
/** Self-deprecation ("I was an idiot to ...") and fiction ("the villain is evil") are not abuse. */
const SELF_OR_FICTION = new RegExp(`\\b(?:i|i'm|im|i am|i was|i feel|i felt|i'm such|made me feel|me|myself)\\s+(?:[\\w'-]+\\s+){0,2}?(?:${INSULT}|${WEAK_INSULT})\\b|\\b(?:villain|character|novel|movie|film|book|episode|season|writing|plot|game)\\b`);
const ANY_INSULT = new RegExp(`\\b${INSULT}\\b`);
/** Obscenities used to praise ("so fucking good") rather than to abuse. */
const PRAISE = /\b(?:love|loved|loving|awesome|cool|great|amazing|hilarious|funny|lol|lmao|lmfao|haha|good|best|beautiful|excited|brilliant|perfect|incredible|nice|fantastic|favorite|favourite|thanks|thank you)\b/;

/** Scores profanity and abusive language of a lower-case, NFKC-normalised text (`raw` is the text as sent, for obscenity). */
export function scoreProfanity(text: string, raw: string): ProfanityScores {
  const words = obsceneWords(raw);
  let profanity = 0;
  let hate = 0;
  let sexual = 0;
  for (const word of words) {
    profanity = Math.max(profanity, profanityWeight(word));
    // A slur alone may be a homonym ("a dyke by the sea", "a fag" for a cigarette) or quoted; aimed at someone it is hate (below).
    if (SLURS.has(word)) hate = Math.max(hate, 0.45);
    if (SEXUAL_WORDS.has(word)) sexual = Math.max(sexual, 0.6);
    else if (ANATOMY.has(word)) sexual = Math.max(sexual, 0.3);
  }
  // A self-censored swear word says what it is: the writer marked it as one.
  if (MASK_AFTER_LETTER.test(text) && MASKED.test(text)) profanity = Math.max(profanity, 0.6);
  const obscene = [...words].filter((word) => profanityWeight(word) > 0).length;
  if (obscene > 1) profanity = Math.min(0.95, profanity + 0.1 * (obscene - 1));
  const insulting = INSULT_WORD.test(text);
  const softened = (): number => (SELF_OR_FICTION.test(text) ? 0.3 : 0);
  if (ABUSIVE_PHRASE.test(text) || (insulting && DIRECTED_INSULT.test(text))) profanity = Math.max(profanity, 0.8);
  else if (insulting && PREDICATE_INSULT.test(text)) profanity = Math.max(profanity + 0.15, 0.6 - softened());
  else if (insulting && ANY_INSULT.test(text)) profanity = Math.max(profanity + 0.1, 0.4 - softened());
  else if (profanity > 0 && PRAISE.test(text)) profanity = Math.max(0, profanity - 0.15);
  if (hate > 0 && (DIRECTED.test(text) || (insulting && PREDICATE_INSULT.test(text)))) hate = 0.8;
  return { profanity: Math.min(1, profanity), hate_speech: hate, sexual };
}
