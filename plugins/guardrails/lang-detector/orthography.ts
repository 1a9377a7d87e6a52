// Orthography cues of lang_detector: letters a language's alphabet lacks (ã for Spanish, і for Russian) count against it, and so does the absence of Ukrainian or Russian letters.

/**
 * Letters beyond a–z each model language writes (lower case, NFC). A letter that some language of a script group
 * writes and another does not is "foreign" to the other; letters no language of the group lists (ø, å in Turkish…) are
 * ignored. English and Indonesian list the accents their texts borrow with names and loanwords.
 */
export const LANGUAGE_LETTERS: Record<string, string> = {
  en: 'áàâäçéèêëíïñóôöúü',
  es: 'áéíóúüñ',
  fr: 'àâæçéèêëîïôœùûüÿ',
  de: 'äöüßé',
  it: 'àèéìíîòóùú',
  pt: 'áàâãçéêíóôõúü',
  nl: 'áàéèêëíïóôöúü',
  pl: 'ąćęłńóśźż',
  // Turkish also as ý þ ð: ı ş ğ in the Windows-1254 encoding read as Windows-1252, common in older web text.
  tr: 'âçğıîöşûýþð',
  // Vietnamese: its own letters, plus every precomposed letter of U+1EA0–U+1EF9 (added below).
  vi: 'àáâãèéêìíòóôõùúýăđĩũơư',
  id: 'é',
  sv: 'åäöé',
  cs: 'áčďéěíňóřšťúůýž',
  ru: 'ёыэъ',
  // ~ stands for the Ukrainian word forms of UKRAINIAN_FORMS (no letter of a text is ~).
  uk: 'іїєґ\'~',
  // Yeh and kaf are typed in their Arabic or Persian form in both languages (keyboards differ): only ة and پ چ ژ گ tell.
  ar: 'ة',
  fa: 'پچژگ',
};

/**
 * Share of a language's letters that are its own distinctive letters, where that share is high: about 6% of
 * Ukrainian letters are і, ї or є, about 2% of Russian letters ы, э, ъ or ё. A text without any of them is less likely
 * in that language: n letters without one cost about share × n in log-likelihood.
 */
export const DISTINCTIVE_SHARE: Record<string, number> = { uk: 0.06, ru: 0.02 };
/** The absence cost is capped at 1 logit (1, 1.5 and 2 were tried: the same but for 1 to 2 texts), so n-grams decide a long text. */
export const ABSENCE_CAP = 1;

/** Apostrophes written inside a word; between two Cyrillic letters only Ukrainian uses one (Russian writes ъ). */
const CYRILLIC_APOSTROPHE = /[\u0400-\u04ff]['\u2019\u02bc][\u0400-\u04ff]/u;

/**
 * Word forms only Ukrainian writes, counted as one Ukrainian letter: "ськ" (Ukrainian -ський, -ська, -ського; Russian
 * writes -ский) and a word ending in -ити (the Ukrainian infinitive, робити, говорити; Russian writes -ить).
 */
const UKRAINIAN_FORMS = /ськ|ити(?![\u0400-\u04ff])/u;

/** Counts of distinct foreign letters are capped: a long text that quotes a few names is still read by its n-grams. */
export const FOREIGN_CAP = 3;

/** Letter → languages (among `languages`) that write it; only letters some but not all of them write. */
export function letterOwners(languages: string[]): Map<string, Set<number>> {
  const owners = new Map<string, Set<number>>();
  languages.forEach((lang, index) => {
    const letters = [...(LANGUAGE_LETTERS[lang] ?? '')];
    if (lang === 'vi') for (let code = 0x1ea0; code <= 0x1ef9; code += 1) letters.push(String.fromCharCode(code));
    for (const letter of letters) {
      const set = owners.get(letter) ?? new Set<number>();
      set.add(index);
      owners.set(letter, set);
    }
  });
  for (const [letter, set] of owners) if (set.size === languages.length) owners.delete(letter);
  return owners;
}

/**
 * Answers, for each of `languages`, how many distinct letters of `normalised` it does not write (capped at
 * {@link FOREIGN_CAP}); `raw` is scanned for an apostrophe inside a Cyrillic word, which counts as a Ukrainian letter,
 * and `normalised` for the word forms of UKRAINIAN_FORMS, which count as another.
 * @example
 * foreignLetters('não sei', 'não sei', ['es', 'pt'], letterOwners(['es', 'pt'])) // → [1, 0]
 */
export function foreignLetters(normalised: string, raw: string, languages: string[], owners: Map<string, Set<number>>): number[] {
  const counts = languages.map(() => 0);
  const add = (letter: string): void => {
    const set = owners.get(letter);
    if (set === undefined) return;
    for (let k = 0; k < counts.length; k += 1) if (!set.has(k)) counts[k] = (counts[k] as number) + 1;
  };
  // Each foreign letter counts once, however often it recurs: text garbled by a wrong encoding (Czech UTF-8 read as
  // Windows-1250 shows ă again and again) is one cue, not many.
  const seen = new Set<string>();
  for (const letter of normalised) {
    if (letter.charCodeAt(0) <= 0x7f || seen.has(letter)) continue;
    seen.add(letter);
    add(letter);
  }
  if (owners.has("'") && CYRILLIC_APOSTROPHE.test(raw)) add("'");
  if (owners.has('~') && UKRAINIAN_FORMS.test(normalised)) add('~');
  return counts.map((count) => Math.min(count, FOREIGN_CAP));
}

/**
 * Log-likelihood cost, per language of `languages`, of a text of `letters` letters (`normalised`) in which none of
 * that language's distinctive letters occur: share × letters, capped at {@link ABSENCE_CAP}; 0 for languages without a
 * {@link DISTINCTIVE_SHARE} or whose letters do occur.
 * @example
 * absenceCosts('это было', 7, ['ru', 'uk'], letterOwners(['ru', 'uk'])) // → [0, 0.42] (э is Russian)
 */
export function absenceCosts(normalised: string, letters: number, languages: string[], owners: Map<string, Set<number>>): number[] {
  const seen = languages.map(() => false);
  for (const letter of normalised) {
    if (letter.charCodeAt(0) <= 0x7f) continue;
    const set = owners.get(letter);
    if (set !== undefined) for (const k of set) seen[k] = true;
  }
  return languages.map((lang, k) => {
    const share = DISTINCTIVE_SHARE[lang];
    return share === undefined || seen[k] ? 0 : Math.min(share * letters, ABSENCE_CAP);
  });
}
