// The trained language model: a script step, then softmax regression over hashed character n-grams for Latin, Cyrillic and Arabic script.
import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { forEachFeature, normaliseCasedForLanguage, SCRIPT_LANGUAGE, scriptCounts, type Script } from './language-features.js';
import { capitalisedWords, cyrillicLatinI, namesOnly } from './text-cues.js';
import { hasJapaneseOnlyKanji } from './japanese-kanji.js';
import { absenceCosts, DISTINCTIVE_SHARE, foreignLetters, letterOwners } from './orthography.js';

/** The model file header (JSON); the weights follow in `language-weights.bin`. */
export interface LanguageModelMeta {
  /** Class order of the weight rows. */
  languages: string[];
  /** Which model classes each script may answer. */
  scriptLanguages: Partial<Record<Script, string[]>>;
  /** Hash buckets (a power of two). */
  buckets: number;
  /** How many times each whole word counts among a text's features (1 when absent). */
  wordWeight?: number;
  /** Logit taken from a language per letter its alphabet lacks (see orthography.ts); 0 or absent: no such cue. */
  orthographyPenalty?: number;
  /** Weight of the features of a capitalised word that does not open the text (a name; see text-cues.ts); 1 or absent: no cue. */
  capitalWeight?: number;
  /** Logits added to English for a text of capitalised ASCII words only (names, titles, headers; see text-cues.ts). */
  namesPrior?: number;
  /** Weights are stored as int16; real weight = stored × scale. */
  scale: number;
  bias: number[];
  /** How it was made, for readers of the file. */
  trainedOn: string;
}

/** Weights in memory: `weights[bucket * classes + class]`. */
export interface LanguageModelData {
  meta: LanguageModelMeta;
  weights: Float32Array | Int16Array;
}

/** One detection. */
export interface LanguageGuess {
  lang: string;
  prob: number;
}

/** Characters read per text: the language of the first 4,000 is the text's. */
const SCAN_LIMIT = 4000;
/** Fewer letters than this in the winning script: no language signal. */
const MIN_LETTERS = 1;

/** The model's view of one text: the winning script, its share of the letters, and each candidate's probability. */
export interface LanguageScores {
  /** The answer when no candidate is scored: `und`, or the one language of the script. */
  fixed?: LanguageGuess;
  /** Share of the text's letters in the winning script. */
  share: number;
  /** Softmax probability of each language the script allows (only when `fixed` is absent). */
  probs: Map<string, number>;
}

/** A loaded language detector. */
export interface LanguageModel {
  detect(text: string): LanguageGuess;
  /** Every candidate's probability, for combining with another detector. */
  scores(text: string): LanguageScores;
}

/** Builds a detector from model data (shipped or just trained). */
export function createLanguageModel(data: LanguageModelData): LanguageModel {
  const { meta, weights } = data;
  const classes = meta.languages.length;
  const scale = weights instanceof Int16Array ? meta.scale : 1;
  const classIndex = new Map(meta.languages.map((lang, i) => [lang, i]));
  // Each script's classes are one contiguous range of the class order (the trainer writes them so).
  const candidates = new Map<Script, { from: number; to: number; langs: string[]; owners: ReturnType<typeof letterOwners>; absence: boolean }>();
  const penalty = meta.orthographyPenalty ?? 0;
  for (const [script, langs] of Object.entries(meta.scriptLanguages) as Array<[Script, string[]]>) {
    const ids = langs.map((lang) => classIndex.get(lang) ?? -1);
    const from = Math.min(...ids);
    if (ids.some((id, k) => id !== from + k)) throw new Error(`lang_detector: the classes of ${script} are not contiguous in the model file`);
    candidates.set(script, { from, to: from + ids.length, langs, owners: letterOwners(langs), absence: langs.some((lang) => DISTINCTIVE_SHARE[lang] !== undefined) });
  }
  const capitalWeight = meta.capitalWeight ?? 1;
  const namesPrior = meta.namesPrior ?? 0;
  const englishClass = classIndex.get('en') ?? -1;
  const sums = new Float64Array(classes);
  let buckets = new Int32Array(8192);
  let count = 0;
  const collect = (bucket: number): void => {
    if (count === buckets.length) {
      const grown = new Int32Array(buckets.length * 2);
      grown.set(buckets);
      buckets = grown;
    }
    buckets[count] = bucket;
    count += 1;
  };
  // Capitalised words: where each word's features start in `buckets`, so a flagged word's features can weigh less.
  let wordStarts = new Int32Array(1024);
  let words = 0;
  const startWord = (): void => {
    if (words === wordStarts.length) {
      const grown = new Int32Array(wordStarts.length * 2);
      grown.set(wordStarts);
      wordStarts = grown;
    }
    wordStarts[words] = count;
    words += 1;
  };
  /** Scores `text` into `sums` (softmax numerators relative to the top, in [from, to)), or answers a fixed guess. */
  const score = (text: string): LanguageGuess | { from: number; to: number; share: number; z: number; topClass: number } => {
    const counts = scriptCounts(text, SCAN_LIMIT);
    let script: Script | undefined;
    let best = 0;
    let total = 0;
    for (const [name, count] of counts) {
      total += count;
      if (count > best) {
        best = count;
        script = name;
      }
    }
    if (script === undefined || best < MIN_LETTERS) return { lang: 'und', prob: 0 };
    // Han with any kana beside it is Japanese: Japanese writes its content words in Han; so is Han with a kanji only Japanese writes.
    if (script === 'han' && ((counts.get('kana') ?? 0) > 0 || hasJapaneseOnlyKanji(text, SCAN_LIMIT))) script = 'kana';
    const share = best / total;
    const only = SCRIPT_LANGUAGE[script];
    if (only !== undefined) return { lang: only, prob: round(share) };
    const range = candidates.get(script);
    if (range === undefined) return { lang: 'und', prob: 0 };
    let read = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
    if (script === 'cyrillic') read = cyrillicLatinI(read);
    const cased = normaliseCasedForLanguage(read);
    const normalised = cased.toLowerCase();
    const { from, to } = range;
    const names = namesPrior !== 0 && englishClass >= from && englishClass < to && namesOnly(cased);
    const capitals = capitalWeight !== 1 && !names ? capitalisedWords(cased, normalised) : undefined;
    count = 0;
    words = 0;
    let n = forEachFeature(normalised, meta.buckets, collect, meta.wordWeight ?? 1, capitals !== undefined ? startWord : undefined);
    const foreign = penalty > 0 ? foreignLetters(normalised, read, range.langs, range.owners) : undefined;
    const absent = penalty > 0 && range.absence ? absenceCosts(normalised, letterCount(normalised), range.langs, range.owners) : undefined;
    sums.fill(0);
    if (capitals === undefined) {
      for (let i = 0; i < count; i += 1) {
        const row = (buckets[i] as number) * classes;
        for (let c = from; c < to; c += 1) sums[c] = (sums[c] as number) + (weights[row + c] as number);
      }
    } else {
      // A capitalised word's features count capitalWeight times each, in the sums and in n.
      for (let w = 0; w < words; w += 1) {
        const start = wordStarts[w] as number;
        const end = w + 1 < words ? (wordStarts[w + 1] as number) : count;
        const factor = capitals[w] === true ? capitalWeight : 1;
        if (factor !== 1) n -= (1 - factor) * (end - start);
        for (let i = start; i < end; i += 1) {
          const row = (buckets[i] as number) * classes;
          for (let c = from; c < to; c += 1) sums[c] = (sums[c] as number) + (weights[row + c] as number) * factor;
        }
      }
    }
    const norm = n > 0 ? scale / Math.sqrt(n) : 0;
    let top = -Infinity;
    let topClass = from;
    for (let c = from; c < to; c += 1) {
      const value = (meta.bias[c] as number) + (sums[c] as number) * norm - (foreign ? penalty * (foreign[c - from] as number) : 0) - (absent ? (absent[c - from] as number) : 0) + (names && c === englishClass ? namesPrior : 0);
      sums[c] = value;
      if (value > top) {
        top = value;
        topClass = c;
      }
    }
    let z = 0;
    for (let c = from; c < to; c += 1) {
      sums[c] = Math.exp((sums[c] as number) - top);
      z += sums[c] as number;
    }
    return { from, to, share, z, topClass };
  };
  return {
    detect(text: string): LanguageGuess {
      const scored = score(text);
      if ('lang' in scored) return scored;
      return { lang: meta.languages[scored.topClass] as string, prob: round(scored.share / scored.z) };
    },
    scores(text: string): LanguageScores {
      const scored = score(text);
      if ('lang' in scored) return { fixed: scored, share: scored.prob, probs: new Map() };
      const probs = new Map<string, number>();
      for (let c = scored.from; c < scored.to; c += 1) probs.set(meta.languages[c] as string, (sums[c] as number) / scored.z);
      return { share: scored.share, probs };
    },
  };
}

/** Letters beyond ASCII of a normalised text (for Cyrillic, its Cyrillic letters; Latin names inside do not count). */
function letterCount(normalised: string): number {
  let count = 0;
  for (let i = 0; i < normalised.length; i += 1) if (normalised.charCodeAt(i) > 0x7f) count += 1;
  return count;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Reads the shipped model: `language-model.json` (header) and `language-weights.bin` (int16 little-endian). */
export async function loadLanguageModel(folder: URL): Promise<LanguageModel> {
  const [metaText, bytes] = await Promise.all([readFile(new URL('language-model.json', folder), 'utf8'), readFile(new URL('language-weights.bin', folder))]);
  const meta = JSON.parse(metaText) as LanguageModelMeta;
  // The file is little-endian int16; a copy keeps the view aligned whatever the buffer's offset.
  let weights: Int16Array;
  if (endianness() === 'LE') weights = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  else {
    weights = new Int16Array(bytes.byteLength / 2);
    for (let i = 0; i < weights.length; i += 1) weights[i] = bytes.readInt16LE(i * 2);
  }
  if (weights.length !== meta.buckets * meta.languages.length) throw new Error('lang_detector: language-weights.bin does not match language-model.json');
  return createLanguageModel({ meta, weights });
}
