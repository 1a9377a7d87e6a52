// Combines a trained hashed n-gram model with the few truly general rules (override phrases, chat-template tokens, encodings, hidden characters).
import { DEFAULT_SCAN_LIMIT, foldView, textViews } from './normalise.js';
import { maskBlobs } from './hashed-features.js';
import { scoreNormalised, type HashedModel } from './hashed-model.js';
import { INJECTION_RULES, MULTILINGUAL_RULES, type InjectionRule } from './rules.js';
import { MORE_LANGUAGE_RULES } from './rules-more-languages.js';
import { scoreRules, type GatedView } from './scoring.js';
import { tokenSpamEvidence } from './token-spam.js';

/** Rules kept beside the model because they hold for any source: explicit override phrases (in 13 languages), prompt extraction, chat-template tokens. */
export const GENERAL_RULE_IDS = [
  'override.ignore-previous',
  'override.ignore-everything',
  'override.compact',
  'override.ignore-given',
  'extraction.reveal-prompt',
  'delimiter.chat-tokens',
  'delimiter.inst-tags',
] as const;

/** Rules for instructions planted in data: the general ones plus text that addresses the AI reading it. */
export const TOOL_RULE_IDS = [...GENERAL_RULE_IDS, 'indirect.note-to-ai', 'indirect.ai-address', 'indirect.if-you-are-ai'] as const;

/** Picks rules by id (and every multilingual override). */
export function selectRules(ids: readonly string[]): InjectionRule[] {
  const wanted = new Set(ids);
  return [...INJECTION_RULES.filter((rule) => wanted.has(rule.id)), ...MULTILINGUAL_RULES.filter((rule) => rule.family === 'override')];
}

/** The rules promptinjectiondetection runs: the general ones, every multilingual override, and the overrides in more languages. */
export function promptInjectionRules(): InjectionRule[] {
  return [...selectRules(GENERAL_RULE_IDS), ...MORE_LANGUAGE_RULES];
}

/** Unicode tag characters (ASCII smuggling): invisible text that models still read. */
const TAG_CHARACTERS = /[\u{E0020}-\u{E007E}]{4,}/u;
/** Evidence weight of hidden tag-character text on its own. */
const HIDDEN_TEXT_WEIGHT = 0.6;

/** What one text scored, with the parts (for logs and tests). */
export interface Detection {
  prompt_injection: number;
  jailbreak: number;
  /** Highest model probability per model label, over the text and its decoded payloads. */
  model: Record<string, number>;
  /** The rules' own scores and the rules that matched. */
  rules: { prompt_injection: number; jailbreak: number; matched: string[] };
}

/** How to read and score a text. */
export interface DetectOptions {
  decode: boolean;
  scanLimit?: number;
  rules: readonly InjectionRule[];
  /** Models to run; each label's highest probability over all models and texts is reported under its name. */
  models: readonly HashedModel[];
  /** Also look for an adversarial token suffix at the end of the text (see token-spam.ts); off unless asked for. */
  suffixes?: boolean;
}

/**
 * What the models read for the plain view at `index` (as `modelText` makes it): when masking changes nothing, the
 * folded view textViews already made (the next view; absent when folding changed nothing), so the text is folded once.
 */
function modelTextOfView(views: readonly GatedView[], index: number): string {
  const plain = (views[index] as GatedView).text;
  const masked = maskBlobs(plain);
  if (masked !== plain) return foldView(masked);
  const next = views[index + 1];
  return next?.kind === 'folded' && next.decoded === views[index]?.decoded ? next.text : plain;
}

const round = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;

/**
 * Scores `text`: the models read every window of the normalised text and of each decoded payload (highest
 * probability wins), the rules read all views, and `prompt_injection` is the highest of the model's
 * prompt_injection and jailbreak probabilities and the rule score; `jailbreak` is the model's jailbreak probability
 * (or, with `suffixes`, the evidence of an adversarial token suffix when that is higher).
 */
export function detect(text: string, options: DetectOptions): Detection {
  const views: GatedView[] = textViews(text, options.decode, options.scanLimit ?? DEFAULT_SCAN_LIMIT);
  const rules = scoreRules(views, options.rules);
  const model: Record<string, number> = {};
  // Each source text (the input, then each decoded payload) has one plain view; the models read it as modelText does.
  views.forEach((view, i) => {
    if (view.kind !== 'plain') return;
    const normalised = modelTextOfView(views, i);
    for (const m of options.models) {
      const scores = scoreNormalised(m, normalised);
      m.header.labels.forEach((label, k) => {
        model[label] = Math.max(model[label] ?? 0, scores[k] ?? 0);
      });
    }
  });
  let ruleScore = rules.prompt_injection;
  if (TAG_CHARACTERS.test(text)) {
    ruleScore = 1 - (1 - ruleScore) * (1 - HIDDEN_TEXT_WEIGHT);
    rules.matched.push('hidden-tag-characters');
  }
  // An adversarial suffix is a jailbreak technique: its evidence counts toward both scores.
  const suffix = options.suffixes ? tokenSpamEvidence(text) : 0;
  if (suffix > 0) {
    ruleScore = 1 - (1 - ruleScore) * (1 - suffix);
    rules.matched.push('adversarial-suffix');
  }
  const jailbreak = Math.max(model.jailbreak ?? 0, suffix);
  return {
    prompt_injection: round(Math.max(model.prompt_injection ?? 0, jailbreak, ruleScore)),
    jailbreak: round(jailbreak),
    model,
    rules: { prompt_injection: ruleScore, jailbreak: rules.jailbreak, matched: rules.matched },
  };
}
