// The word-vector part of trustsafety's model: a small tanh network over the SIF-weighted mean GloVe vector of a window, its first layer folded into a per-word table (unsafe-vectors.bin).
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * The header of the vector part (the `vectors` field of unsafe-model.json). The network reads x = Σ a(w)·v(w) / Σ a(w)
 * over the window's words with a vector (v: GloVe 6B 100d, unit length; a(w): the SIF weight from GloVe's frequency
 * rank) and answers `outputBias + Σ_k output[k] · tanh(hiddenBias[k] + W_k · x)`; the model's margin for a text read
 * whole (up to 100 words) is then `linearScale` × the linear model's plus `mix` × this one. Since W·x = Σ a(w)·(W·v(w)) / Σ a(w), the table stores each word's a(w)·W·v(w), so prediction
 * costs one table probe and `hidden` additions per word.
 */
export interface VectorModelMeta {
  /** Hidden units. */
  hidden: number;
  /** The network's margin counts this much in the sum of margins. */
  mix: number;
  /** The linear model's margin (bias included) counts this much in the sum of margins. */
  linearScale: number;
  outputBias: number;
  output: number[];
  hiddenBias: number[];
  /** Words in the table. */
  words: number;
  /** Real projection = stored int16 × projectionScale. */
  projectionScale: number;
  trainedOn: string;
}

/** The vector part as trained (in memory) or as read from unsafe-vectors.bin. */
export interface VectorModelData {
  meta: VectorModelMeta;
  /** FNV-1a hash of each word (the token as modelTokens writes it). */
  keys: Int32Array;
  /** Each word's SIF weight a(w). */
  weights: Float32Array;
  /** Each word's a(w)·W·v(w), `hidden` int16 values per word. */
  projections: Int16Array;
}

/** The vector part, ready to score windows of tokens. */
export interface VectorScorer {
  /** Table rows of the tokens (−1 for a word without a vector). */
  rowsOf(tokens: readonly string[]): Int32Array;
  /** The margin (times `mix`) of the tokens `[start, end)` given their rows. */
  margin(rows: Int32Array, start: number, end: number): number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a of a word, as a signed 32-bit integer (the table's key). */
export function wordKey(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i += 1) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
  return hash | 0;
}

/** Builds the scorer: an open-addressing table from word key to row, and the network's weights. */
export function createVectorScorer(data: VectorModelData): VectorScorer {
  const { meta, keys, weights, projections } = data;
  const H = meta.hidden;
  let slots = 1;
  while (slots < keys.length * 2) slots *= 2;
  const slotKey = new Int32Array(slots);
  const slotRow = new Int32Array(slots).fill(-1);
  for (let row = 0; row < keys.length; row += 1) {
    const key = keys[row] as number;
    let slot = key & (slots - 1);
    while (slotRow[slot] !== -1) slot = (slot + 1) & (slots - 1);
    slotKey[slot] = key;
    slotRow[slot] = row;
  }
  const scale = meta.projectionScale;
  const projection = new Float32Array(projections.length);
  for (let i = 0; i < projections.length; i += 1) projection[i] = (projections[i] as number) * scale;
  const output = Float32Array.from(meta.output);
  const hiddenBias = Float32Array.from(meta.hiddenBias);
  const sums = new Float64Array(H);
  return {
    rowsOf(tokens) {
      const rows = new Int32Array(tokens.length);
      for (let t = 0; t < tokens.length; t += 1) {
        const key = wordKey(tokens[t] as string);
        let slot = key & (slots - 1);
        let row = -1;
        for (; slotRow[slot] !== -1; slot = (slot + 1) & (slots - 1)) {
          if (slotKey[slot] === key) {
            row = slotRow[slot] as number;
            break;
          }
        }
        rows[t] = row;
      }
      return rows;
    },
    margin(rows, start, end) {
      sums.fill(0);
      let total = 0;
      for (let t = start; t < end; t += 1) {
        const row = rows[t] as number;
        if (row < 0) continue;
        total += weights[row] as number;
        const at = row * H;
        for (let k = 0; k < H; k += 1) sums[k] = (sums[k] as number) + (projection[at + k] as number);
      }
      let z = meta.outputBias;
      for (let k = 0; k < H; k += 1) z += (output[k] as number) * Math.tanh((hiddenBias[k] as number) + (total > 0 ? (sums[k] as number) / total : 0));
      return meta.mix * z;
    },
  };
}

/** Serialises the table: keys (int32), SIF weights (float32), then projections (int16), little-endian. */
export function vectorTableBytes(data: VectorModelData): Buffer {
  const n = data.keys.length;
  const bytes = Buffer.alloc(n * 8 + data.projections.length * 2);
  for (let i = 0; i < n; i += 1) {
    bytes.writeInt32LE(data.keys[i] as number, i * 4);
    bytes.writeFloatLE(data.weights[i] as number, n * 4 + i * 4);
  }
  for (let i = 0; i < data.projections.length; i += 1) bytes.writeInt16LE(data.projections[i] as number, n * 8 + i * 2);
  return bytes;
}

/** Reads unsafe-vectors.bin given its header. */
export function readVectorTable(file: URL, meta: VectorModelMeta): VectorModelData {
  const bytes = readFileSync(file);
  const n = meta.words;
  if (bytes.byteLength !== n * 8 + n * meta.hidden * 2) throw new Error('trustsafety: unsafe-vectors.bin does not match unsafe-model.json');
  if (endianness() === 'LE') {
    // The file is little-endian like the machine: typed views over one aligned copy, no per-value reads.
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return { meta, keys: new Int32Array(copy.buffer, 0, n), weights: new Float32Array(copy.buffer, n * 4, n), projections: new Int16Array(copy.buffer, n * 8, n * meta.hidden) };
  }
  const keys = new Int32Array(n);
  const weights = new Float32Array(n);
  const projections = new Int16Array(n * meta.hidden);
  for (let i = 0; i < n; i += 1) {
    keys[i] = bytes.readInt32LE(i * 4);
    weights[i] = bytes.readFloatLE(n * 4 + i * 4);
  }
  for (let i = 0; i < projections.length; i += 1) projections[i] = bytes.readInt16LE(n * 8 + i * 2);
  return { meta, keys, weights, projections };
}
