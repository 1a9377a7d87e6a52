// The shared GloVe table (plugins/guardrails/shared/word-vectors.*) read synchronously, once, for the training scripts.
import { readFileSync } from 'node:fs';
import { WordVectors } from '../../plugins/guardrails/shared/word-vectors.js';

/** The table: its vectors, its words by rank (the order of the file), each word's row, and the raw 8-bit values. */
export interface SharedWordTable {
  vectors: WordVectors;
  words: string[];
  rows: Map<string, number>;
  raw: Int8Array;
}

let table: SharedWordTable | undefined;

/** Reads the shared table on first use and keeps it. */
export function sharedWordTable(): SharedWordTable {
  if (!table) {
    const folder = new URL('../../plugins/guardrails/shared/', import.meta.url);
    const header = JSON.parse(readFileSync(new URL('word-vectors.json', folder), 'utf8')) as { source: string; dimensions: number; scale: number; words: string[] };
    const bytes = readFileSync(new URL('word-vectors.bin', folder));
    const raw = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    table = { vectors: new WordVectors(header, raw), words: header.words, rows: new Map(header.words.map((word, rank) => [word, rank])), raw };
  }
  return table;
}
