// Exploration: trustsafety's model with extra tokens (shouting and lexicon classes) beside its words.
// Run: npx tsx scripts/eval/variants/trust-safety-extra-tokens.ts [variant ...]
import { report, tokenTrainer, type CachedRow } from './trust-safety-harness.js';
import { GROUP, INSULT, WEAK_INSULT } from '../../../plugins/guardrails/trust-safety/lexicon.js';
import { obsceneWords } from '../../../plugins/guardrails/trust-safety/profanity-check.js';
import { withoutMasks } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { modelTokens, normaliseForModel } from '../../../plugins/guardrails/trust-safety/unsafe-tokens.js';

const CAPS = /\b[A-Z]{3,}\b/g;
function style(raw: string): string[] {
  const out: string[] = [];
  const caps = raw.match(CAPS)?.length ?? 0;
  if (caps >= 1) out.push('<caps1>');
  if (caps >= 3) out.push('<caps3>');
  const letters = raw.match(/\p{L}/gu)?.length ?? 0;
  const upper = raw.match(/\p{Lu}/gu)?.length ?? 0;
  if (letters >= 10 && upper / letters > 0.5) out.push('<shout>');
  if (/!!/.test(raw)) out.push('<bang2>');
  if (/[?!]{3,}/.test(raw)) out.push('<punct3>');
  return out;
}
const INSULT_TOKEN = new RegExp(`^${INSULT}$`);
const WEAK_TOKEN = new RegExp(`^${WEAK_INSULT}$`);
function lexicon(tokens: string[], raw: string): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (INSULT_TOKEN.test(t)) out.push('<insult>');
    else if (WEAK_TOKEN.test(t)) out.push('<weak>');
  }
  out.push(...[...obsceneWords(raw)].map(() => '<obscene>'));
  return out;
}
const STRONG = new Set(['fuck', 'cunt', 'twat']);
const MEDIUM = new Set(['shit', 'bitch', 'bastard', 'whore', 'slut', 'prick', 'wank', 'cuck', 'bollocks', 'piss', 'hooker']);
const SLURS = new Set(['abeed', 'abo', 'africoon', 'arabush', 'boonga', 'chingchong', 'chink', 'kike', 'negro', 'nigger', 'fag', 'dyke', 'tranny', 'retard', 'spastic']);
function obsceneClass(w: string): string {
  return STRONG.has(w) ? '<strong>' : MEDIUM.has(w) ? '<medium>' : SLURS.has(w) ? '<slur>' : '<obscene>';
}
const YOU = new Set(['you', 'your', "you're", 'youre', 'u', 'ur', 'ya', 'yall', "y'all", 'yourself']);
function lexicon2(tokens: string[], raw: string, directed: boolean, group: boolean): string[] {
  const out: string[] = [];
  let lastYou = -10;
  tokens.forEach((t, i) => {
    if (YOU.has(t)) lastYou = i;
    const cls = INSULT_TOKEN.test(t) ? '<insult>' : WEAK_TOKEN.test(t) ? '<weak>' : '';
    if (cls) {
      out.push(cls);
      if (directed && i - lastYou <= 3) out.push('<you_abuse>');
    }
  });
  for (const w of obsceneWords(raw)) out.push(obsceneClass(w));
  if (group && GROUP_RE.test(raw.toLowerCase())) out.push('<group>');
  return out;
}
const GROUP_RE = new RegExp(String.raw`\b${GROUP}\b`);
type Fn = (tokens: string[], raw: string) => string[];
const variants: Record<string, Fn> = {
  style: (tokens, raw) => [...tokens, ...style(raw)],
  lexicon: (tokens, raw) => [...tokens, ...lexicon(tokens, raw)],
  both: (tokens, raw) => [...tokens, ...style(raw), ...lexicon(tokens, raw)],
  insultOnly: (tokens, raw) => [...tokens, ...lexicon(tokens, '')],
  classes: (tokens, raw) => [...tokens, ...lexicon2(tokens, raw, false, false)],
  directed: (tokens, raw) => [...tokens, ...lexicon2(tokens, raw, true, false)],
  group: (tokens, raw) => [...tokens, ...lexicon2(tokens, raw, true, true)],
};
for (const name of process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(variants)) {
  const fn = variants[name]!;
  report(name, tokenTrainer((text) => fn(modelTokens(normaliseForModel(text)), text)), undefined, (c: CachedRow) => fn(c.tokens, withoutMasks(c.row.text)));
}
