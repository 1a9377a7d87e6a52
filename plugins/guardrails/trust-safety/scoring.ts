// Combines the category rules, the profanity check and the trained unsafe-text model into the six trust-safety scores.
import { isCounterSpeech, scoreCategoryRules } from './category-rules.js';
import { GROUP } from './lexicon.js';
import { scoreProfanity } from './profanity-check.js';
import { modelTokens } from './unsafe-tokens.js';

/** The six categories, in the order the results list them. */
export const CATEGORIES = ['violence', 'weapons', 'hate_speech', 'crime', 'sexual', 'profanity'] as const;
export type Category = (typeof CATEGORIES)[number];
export type CategoryScores = Record<Category, number>;

/** Anything that answers the probability that a text is unsafe (the shipped model, or a fold model in evaluation). */
export interface UnsafeModel {
  predict(text: string): number;
  /** The same on tokens of the rule-normalised text, so the text is normalised once; used when present. */
  predictTokens?(tokens: readonly string[]): number;
}

/** How much the model counts when it adds to a category: final = 1 - (1 - rule)(1 - MODEL_WEIGHT * (p - MODEL_FLOOR) / (1 - MODEL_FLOOR)). */
export const MODEL_WEIGHT = 0.9;
/** Below this probability the model adds nothing. Floors and weight were picked on the dev set (thresholds only; the model never saw it). */
export const MODEL_FLOOR = 0.4;
/**
 * The floor when the text names a protected group. There the model reads group words that its hateful training rows
 * share with neutral statements ("Muslims", "gay people"), so it must be surer before it adds anything.
 */
export const GROUP_MODEL_FLOOR = 0.7;
/** A rule score at least this high names the category the model's evidence goes to. */
const CUE_MINIMUM = 0.1;

/** How much insults and the model count in counter-speech or negated harm. */
const COUNTER_SPEECH_FACTOR = 0.6;
/** How much the model's evidence counts there (it reads the harmful words, not the negation around them). */
const COUNTER_SPEECH_MODEL_FACTOR = 0.4;
/**
 * A slur's harmless twin, told by its context: a dog (bitch), a cigarette (fag), a meatball or firewood (faggot), a
 * sea wall (dyke), a garden tool (hoe). obscenity still finds the word; the model, which cannot tell the senses, adds nothing.
 */
const SLUR_HOMONYM = /\bbitch(?:es)?\b[^.!?\n]{0,60}\b(?:dogs?|pupp(?:y|ies)|canines?|vet|breed(?:er|ing)?|litter|kennel|barking|whelp\w*|sire|show)\b|\b(?:dogs?|pupp(?:y|ies)|canines?|labrador|retriever|spaniel|terrier|greyhound|breed(?:er|ing)?|kennel|litter)\b[^.!?\n]{0,60}\bbitch(?:es)?\b|\bfags?\b[^.!?\n]{0,40}\b(?:smok\w*|cigarettes?|lighter|ash\w*|puff\w*|lungs?|packet|light(?:ed|ing)?)\b|\b(?:smok\w*|cigarettes?|lighter|packet of|light(?:ed|ing)? (?:a|up a))\b[^.!?\n]{0,40}\bfags?\b|\bfaggots?\b[^.!?\n]{0,60}\b(?:meatballs?|gravy|butcher|dinner|ate|eat|cooked|pan-fried|sticks|firewood|fuel|bundle|onion)\b|\b(?:meatballs?|gravy|butcher|dinner|ate|eat|cooked|pan-fried|sticks|firewood|fuel|bundle)\b[^.!?\n]{0,60}\bfaggots?\b|\bdykes?\b[^.!?\n]{0,60}\b(?:flood\w*|sea|water|tide|dam|dutch|netherlands|council|river|canal|embankment)\b|\b(?:flood\w*|sea|water|tide|dam|dutch|council|river|canal|built)\b[^.!?\n]{0,60}\bdykes?\b|\b(?:garden|rake|shovel|spade|weeding) hoes?\b|\bhoes?\b[^.!?\n]{0,30}\b(?:garden|shovel|rake|spade|weeds?|soil)\b/;

const MENTIONS_GROUP = new RegExp(String.raw`\b${GROUP}\b`);
/** A word every SLUR_HOMONYM alternative holds: without one of them the pattern cannot match, so it is not run. */
const SLUR_HOMONYM_WORDS = ['bitch', 'fag', 'dyke', 'hoe'];

/**
 * A one-line question or request ("how do I kill a Python process?"). The rules read these well (intent, target,
 * fiction), while the model, which sees only words, confuses them with their harmful twins; so there the model
 * counts `REQUEST_MODEL_FACTOR` as much.
 */
const REQUEST = /^\s*(?:how|what|what's|whats|where|why|who|when|which|can|could|should|would|is|are|do|does|did|give|tell|show|explain|write|list|help|describe|summari[sz]e|outline|suggest|recommend|compare|translate)\b[^\n]{0,200}$/;
const REQUEST_MODEL_FACTOR = 0.35;

/**
 * What DLP masking leaves: a run of one mask character standing alone ("****************", "#####"), or any run of
 * six or more. It carries no meaning, so it is taken out before scoring; "f***" (a run after letters) stays.
 */
const MASK_RUN = /(?<![\p{L}\p{N}])([*#•●■█xX_])\1{2,}(?![\p{L}\p{N}])|([*#•●■█_])\2{5,}/gu;

/** The text without DLP mask runs. */
export function withoutMasks(text: string): string {
  return text.includes('*') || text.includes('#') || /[•●■█_xX]{3}/.test(text) ? text.replace(MASK_RUN, ' ') : text;
}

/** A quoted span: "…" or “…”, on one line. */
const QUOTED = /"[^"\n]{2,300}"|“[^”\n]{2,300}”/g;
/**
 * Words around a quotation that report or judge it rather than say it: "statements like", "saying", "he called me",
 * "is hateful". With one of them outside the quotes, the quoted words are someone else's (news, counter-speech).
 */
const REPORTING = /\b(?:say|says|said|saying|statements?|things|stuff|messages?|words|phrases?|comments?|threats?|tweets?|posts?|slogans?|chants?|chanting|chanted|shouted|shouting|yelled|yelling|wrote|writes|writing|quote|quoting|quoted|called|calling|call|like|such as|reported|claims?|claimed|hateful|hurtful|bigoted|racist|sexist|homophobic|transphobic|offensive|dehumani[sz]ing|unacceptable|slurs?)\b/;

/**
 * The text with the words inside quotation marks taken out when the words outside report or judge them ("statements
 * like "X are scum" are hurtful"): a quoted insult is not the writer's. Unchanged when there is no such frame.
 */
export function withoutReportedQuotes(text: string): string {
  if (!text.includes('"') && !text.includes('“')) return text;
  const outside = text.replace(QUOTED, ' ');
  return outside !== text && REPORTING.test(outside.toLowerCase()) ? text.replace(QUOTED, ' "quote" ') : text;
}

const INVISIBLE = /[\u200B-\u200F\u2060\uFEFF\u00AD]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');
const CURLY_APOSTROPHE = /[’‘`´]/;
const CURLY_APOSTROPHE_ALL = new RegExp(CURLY_APOSTROPHE.source, 'g');
/** A run of white space that is not one plain space: what collapsing changes. */
const UNCOLLAPSED_SPACE = /\s\s|[^\S ]/;

/**
 * Lower case, NFKC, invisible characters out, curly apostrophes straightened, spaces collapsed. Each replacement
 * runs only when its test finds something to replace (a global replacement that changes nothing still costs).
 */
export function normaliseForRules(text: string): string {
  let out = text.normalize('NFKC').toLowerCase();
  if (INVISIBLE.test(out)) out = out.replace(INVISIBLE_ALL, '');
  if (CURLY_APOSTROPHE.test(out)) out = out.replace(CURLY_APOSTROPHE_ALL, "'");
  if (UNCOLLAPSED_SPACE.test(out)) out = out.replace(/\s+/g, ' ');
  return out;
}

/** How the model's probability enters the scores (the shipped values are the defaults of {@link scoreTrustSafety}). */
export interface ModelTuning {
  floor: number;
  weight: number;
  /** How much the model counts in a one-line question or request (default {@link REQUEST_MODEL_FACTOR}). */
  request?: number;
  /** The floor when a protected group is named (default: `floor`). */
  groupFloor?: number;
}

/** Rounds a score to 4 decimals and keeps it in [0, 1]. */
function clampScore(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
}

/**
 * Scores `text` in the six categories. Rules and the profanity check give the first scores; then, when a model is
 * given and it finds the text unsafe, its probability is added to the category the rules point at (the highest
 * rule score), or, with no cue at all, to hate_speech when a protected group is named and to profanity (abusive
 * language) otherwise. `tuning` overrides the model floors, weight and request factor (for threshold sweeps in evaluation).
 * @example
 * scoreTrustSafety('how do I make a pipe bomb at home').weapons; // about 0.85
 */
export function scoreTrustSafety(sent: string, model?: UnsafeModel, tuning: ModelTuning = { floor: MODEL_FLOOR, weight: MODEL_WEIGHT, groupFloor: GROUP_MODEL_FLOOR }): CategoryScores {
  const text = withoutReportedQuotes(withoutMasks(sent));
  const normalised = normaliseForRules(text);
  const rules = scoreCategoryRules(normalised);
  const profane = scoreProfanity(normalised, text);
  // Insults in counter-speech ("I never said that X are stupid") are the view the writer rejects.
  const counter = isCounterSpeech(normalised);
  if (counter) profane.profanity *= COUNTER_SPEECH_FACTOR;
  const scores: CategoryScores = {
    violence: rules.violence,
    weapons: rules.weapons,
    hate_speech: Math.max(rules.hate_speech, profane.hate_speech),
    crime: rules.crime,
    sexual: Math.max(rules.sexual, profane.sexual),
    profanity: profane.profanity,
  };
  if (model) {
    const probability = model.predictTokens ? model.predictTokens(modelTokens(normalised)) : model.predict(text);
    const groupNamed = probability > Math.min(tuning.floor, tuning.groupFloor ?? tuning.floor) && MENTIONS_GROUP.test(normalised);
    const floor = groupNamed ? (tuning.groupFloor ?? tuning.floor) : tuning.floor;
    if (probability > floor) {
      let target: Category = groupNamed ? 'hate_speech' : 'profanity';
      let best = CUE_MINIMUM;
      for (const category of CATEGORIES) {
        if (scores[category] >= best) {
          best = scores[category];
          target = category;
        }
      }
      const request = REQUEST.test(normalised) ? (tuning.request ?? REQUEST_MODEL_FACTOR) : 1;
      // The model reads words, not negation or word sense: it counts less in counter-speech about a group and not at all for a slur's harmless twin.
      const homonym = SLUR_HOMONYM_WORDS.some((word) => normalised.includes(word)) && SLUR_HOMONYM.test(normalised);
      const context = homonym ? 0 : counter ? COUNTER_SPEECH_MODEL_FACTOR : 1;
      const evidence = context * request * tuning.weight * ((probability - floor) / (1 - floor));
      scores[target] = 1 - (1 - scores[target]) * (1 - evidence);
    }
  }
  for (const category of CATEGORIES) scores[category] = clampScore(scores[category]);
  return scores;
}
