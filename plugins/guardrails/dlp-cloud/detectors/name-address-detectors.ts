// Best-effort PERSON_NAME and STREET_ADDRESS detection from surrounding cues (no name lists, no model).
import { Likelihood, type PiiCandidate } from '../info-types.js';
import { scanPattern } from './context-window.js';

// A capitalised name word in any script with case: Élodie, O'Neil, Anne-Marie, McDonald; or an initial "J." / "J".
const NAME_WORD = "\\p{Lu}[\\p{Ll}\\p{M}]+(?:['’-]\\p{Lu}?[\\p{Ll}\\p{M}]+)*";
const INITIAL = '\\p{Lu}\\.?';
const FULL_NAME = `${NAME_WORD}(?:[ \\t]+(?:${NAME_WORD}|${INITIAL}(?=[ \\t]+\\p{Lu}))){0,3}`;

/** Words that often follow the cues below but are not names. */
const NOT_A_NAME = new Set([
  'The', 'A', 'An', 'This', 'That', 'It', 'Here', 'There', 'Not', 'Sorry', 'Fine', 'Good', 'Happy', 'Glad', 'Just', 'So',
  'Very', 'Calling', 'Writing', 'Looking', 'Trying', 'Going', 'Sir', 'Madam', 'Customer', 'Team', 'All', 'Everyone',
  'Support', 'Manager', 'Friend', 'Friends', 'Colleagues', 'Hiring', 'World', 'Word',
]);

/**
 * Cues that introduce a name, and the likelihood of the name after them: explicit labels (`Name:`, "my name is")
 * LIKELY; honorifics (Mr., Dr.), salutations (Dear) and sign-offs (Regards,) POSSIBLE.
 */
const NAME_CUES: Array<{ pattern: RegExp; likelihood: number }> = [
  {
    // No `i` flag: with it, \\p{Lu} would match lower-case letters too.
    pattern: new RegExp(`(?:\\b(?:[Ff]ull[ \\t]+)?[Nn]ame[ \\t]*:[ \\t]*|\\b[Mm]y[ \\t]+name[ \\t]+is[ \\t]+|\\b[Nn]ame'?s[ \\t]+)(${FULL_NAME})`, 'dgu'),
    likelihood: Likelihood.LIKELY,
  },
  {
    pattern: new RegExp(`\\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sr|Sra|Herr|Frau|Mme|Mlle|Sig|Sgra)\\.?[ \\t]+(${FULL_NAME})`, 'dgu'),
    likelihood: Likelihood.POSSIBLE,
  },
  {
    pattern: new RegExp(
      `(?:\\b(?:Dear|Hi|Hello|Attn:?|Attention:?)[ \\t]+|\\b(?:Regards|Sincerely|Thanks|Cheers|Best),?[ \\t]*\\n[ \\t]*)(${FULL_NAME})`,
      'dgu',
    ),
    likelihood: Likelihood.POSSIBLE,
  },
  {
    pattern: new RegExp(`\\b(?:I am|I'm|this is|signed by|contact person|patient|employee|customer)[ \\t]+(${FULL_NAME}(?:[ \\t]+${NAME_WORD})?)(?=[ \\t]*[,.;!?\\n]|$)`, 'dgu'),
    likelihood: Likelihood.POSSIBLE,
  },
];

/** Finds person names introduced by a cue; a lone capitalised common word is dropped. */
export function detectPersonNames(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  for (const cue of NAME_CUES) {
    found.push(
      ...scanPattern(
        text,
        cue.pattern,
        'PERSON_NAME',
        (match) => {
          const name = match[1] ?? '';
          const first = name.split(/[ \t]+/)[0] ?? '';
          return NOT_A_NAME.has(first) ? 0 : cue.likelihood;
        },
        1,
      ),
    );
  }
  return found;
}

const STREET_SUFFIX =
  '(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Square|Sq|Terrace|Ter|Way|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Crescent|Cres|Close|Row|Alley|Trail|Trl|Plaza|Pass|Grove|Gardens|Path|Walk)\\.?';
const UNIT = '(?:,?[ \\t]+(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl|Room|Rm|#)\\.?[ \\t]*#?[A-Za-z0-9-]+)?';
const STREET_WORD = '\\p{Lu}[\\p{L}\\p{M}.\'’-]{0,40}';
// "123 Main Street Apt. 4", "1600 Pennsylvania Ave NW".
const NUMBER_FIRST = new RegExp(
  `(?<![\\w-])\\d{1,6}[A-Za-z]?[ \\t]+(?:${STREET_WORD}[ \\t]+){1,4}${STREET_SUFFIX}(?:[ \\t]+(?:N|S|E|W|NE|NW|SE|SW))?(?![\\p{L}])${UNIT}`,
  'gu',
);
// European order: "Hauptstraße 5", "Koskikatu 25 B", "Storgatan 3".
/** Street-name endings of European addresses, written after the name ("Hauptstraße 5", "Keizersgracht 12"). */
const EUROPEAN_SUFFIX = '(?:stra(?:ß|ss)e|str\\.|gasse|weg|allee|platz|katu|tie|gatan|vägen|gata|vej|gade|straat|laan|plein|gracht|utca|ulica)';
const NAME_FIRST = new RegExp(`(?<![\\p{L}-])\\p{Lu}[\\p{L}\\p{M}-]{0,40}${EUROPEAN_SUFFIX}[ \\t]+\\d{1,5}[A-Za-z]?(?![\\w])${UNIT}`, 'giu');
/** What every NAME_FIRST match holds (an ending, then a house number): a cheap test, since NAME_FIRST tries each word start. */
const EUROPEAN_NUMBER = new RegExp(`${EUROPEAN_SUFFIX}[ \\t]+\\d`, 'iu');
// PO boxes and US military addresses: "P.O. Box 123", "PSC 1234, Box 5678", "Unit 8524 Box 0979".
const BOX = /\b(?:P\.?[ \t]?O\.?[ \t]?Box|PSC[ \t]+\d{1,5},?[ \t]+Box|Unit[ \t]+\d{1,5},?[ \t]+Box)[ \t]+\d{1,6}\b/gi;

/** Finds street addresses: number + street + suffix (POSSIBLE), European street + number and PO boxes (POSSIBLE). */
export function detectStreetAddresses(text: string): PiiCandidate[] {
  return [
    ...scanPattern(text, NUMBER_FIRST, 'STREET_ADDRESS', () => Likelihood.POSSIBLE),
    ...(EUROPEAN_NUMBER.test(text) ? scanPattern(text, NAME_FIRST, 'STREET_ADDRESS', () => Likelihood.POSSIBLE) : []),
    ...scanPattern(text, BOX, 'STREET_ADDRESS', () => Likelihood.POSSIBLE),
  ];
}
