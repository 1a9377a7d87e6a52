// Pretrained English word vectors (GloVe 6B, 100 dimensions, 8 bits each) for the guardrail models: loaded once, on first use, from word-vectors.bin and word-vectors.json beside this file.
import { readFile } from 'node:fs/promises';

/** The header written by scripts/train/word-vectors.ts. */
interface WordVectorsHeader {
  source: string;
  dimensions: number;
  scale: number;
  words: string[];
}

/** A read-only table of unit-length word vectors, looked up by lower-case word. */
export class WordVectors {
  /** Values per vector. */
  readonly dimensions: number;
  /** Where the vectors come from (for model cards). */
  readonly source: string;
  private readonly rows: Map<string, number>;
  private readonly table: Int8Array;
  private readonly scale: number;

  constructor(header: WordVectorsHeader, table: Int8Array) {
    if (table.length !== header.words.length * header.dimensions) throw new Error('word-vectors.bin does not match its header');
    this.dimensions = header.dimensions;
    this.source = header.source;
    this.scale = 1 / header.scale;
    this.table = table;
    this.rows = new Map(header.words.map((word, row) => [word, row]));
  }

  /** How many words have a vector. */
  get size(): number {
    return this.rows.size;
  }

  /** Whether `word` (lower case) has a vector. */
  has(word: string): boolean {
    return this.rows.has(word);
  }

  /** Adds `weight` × the vector of `word` into `into`; false (and nothing added) when the word has none. */
  addTo(word: string, into: Float32Array, weight = 1): boolean {
    const row = this.rows.get(word);
    if (row === undefined) return false;
    const factor = weight * this.scale;
    const start = row * this.dimensions;
    for (let d = 0; d < this.dimensions; d += 1) into[d]! += this.table[start + d]! * factor;
    return true;
  }

  /** The cosine similarity of two words' vectors, or undefined when either has none. */
  similarity(a: string, b: string): number | undefined {
    const rowA = this.rows.get(a);
    const rowB = this.rows.get(b);
    if (rowA === undefined || rowB === undefined) return undefined;
    let dot = 0;
    let normA = 0;
    let normB = 0;
    for (let d = 0; d < this.dimensions; d += 1) {
      const x = this.table[rowA * this.dimensions + d]!;
      const y = this.table[rowB * this.dimensions + d]!;
      dot += x * y;
      normA += x * x;
      normB += y * y;
    }
    return dot / Math.sqrt(normA * normB);
  }
}

let loading: Promise<WordVectors> | undefined;

/** Loads the shipped table once (about 3 MB); later calls share it. */
export function loadWordVectors(): Promise<WordVectors> {
  loading ??= (async () => {
    const [header, bytes] = await Promise.all([
      readFile(new URL('./word-vectors.json', import.meta.url), 'utf8'),
      readFile(new URL('./word-vectors.bin', import.meta.url)),
    ]);
    return new WordVectors(JSON.parse(header) as WordVectorsHeader, new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  })();
  return loading;
}
