// Cuts tool output into sentences and lines, and scores each one with the tool-injection model.
import { modelText, textWindows } from '../prompt-injection-detection/hashed-features.js';
import { toolFeatureBuckets } from './concepts.js';
import { documentBuckets } from './reference-page.js';
import { bucketMargin, sigmoid, type HashedModel } from '../prompt-injection-detection/hashed-model.js';

/** Segments shorter than this join the next one ("Hi Ana," is not a sentence on its own). */
const MIN_SEGMENT = 24;
/** Segments longer than this are read in windows of this size, half overlapping. */
const MAX_SEGMENT = 320;
/** The most windows read from one text: bounds the work on very long tool output (about 60 KB of prose). */
export const MAX_WINDOWS = 1200;

/** Sentence ends, line breaks (also escaped ones inside JSON or YAML strings), JSON field boundaries, block-level HTML tags. */
const BREAK = /\\n|\n|(?<=[.!?])\s+|",\s*"|<\/(?:p|div|li|h[1-6]|td|tr)>|<br\s*\/?>/g;

/**
 * The pieces a normalised text is read in: sentences and lines (short ones joined to the next, long ones cut into
 * windows). A planted instruction is usually a sentence or two inside descriptive text, so reading it on its own
 * keeps the host text from diluting it.
 */
export function textSegments(normalised: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of normalised.split(BREAK)) {
    const piece = raw.trim();
    if (piece === '') continue;
    pending = pending === '' ? piece : `${pending} ${piece}`;
    if (pending.length < MIN_SEGMENT) continue;
    if (pending.length > MAX_SEGMENT) out.push(...textWindows(pending, MAX_SEGMENT / 2 + 64, 128));
    else out.push(pending);
    pending = '';
  }
  if (pending !== '') {
    if (out.length > 0 && (out[out.length - 1] as string).length + pending.length < MAX_SEGMENT) out[out.length - 1] = `${out[out.length - 1] as string} ${pending}`;
    else out.push(pending);
  }
  return out;
}

/** The windows the model reads: the segments, at most MAX_WINDOWS of them. */
export function segmentWindows(normalised: string): string[] {
  const segments = textSegments(normalised);
  return segments.length > MAX_WINDOWS ? segments.slice(0, MAX_WINDOWS) : segments;
}

/** The model's text for a raw tool output (normalised as the prompt-injection models read it), in windows. */
export function toolWindows(text: string): string[] {
  return segmentWindows(modelText(text));
}

/** Every window of a raw tool output with its feature buckets (n-grams, concept tokens and the document-level feature of reference-page.ts). */
export function toolWindowBuckets(text: string, bits: number): Array<[window: string, buckets: number[]]> {
  const normalised = modelText(text);
  const document = documentBuckets(normalised, bits);
  return segmentWindows(normalised).map((window) => [window, [...toolFeatureBuckets(window, bits), ...document]]);
}

/**
 * The highest probability of each of the model's labels over the windows of `text` (0 for a text with none), less
 * the header's `windowPenalty` in log-odds per natural log of the window count: a clean text of many sentences has
 * more chances for one of them to read like a request by chance (for log-odds with exponential tails the highest of n
 * grows by about ln n), while a planted instruction stands out whatever the length.
 */
export function scoreSegments(model: HashedModel, text: string): number[] {
  const best = model.weights.map(() => -Infinity);
  const buckets: number[] = [];
  const normalised = modelText(text);
  const document = documentBuckets(normalised, model.header.bits);
  const windows = segmentWindows(normalised);
  if (windows.length === 0) return model.weights.map(() => 0);
  for (const window of windows) {
    buckets.length = 0;
    toolFeatureBuckets(window, model.header.bits, buckets);
    buckets.push(...document);
    for (let i = 0; i < model.weights.length; i += 1) {
      const margin = bucketMargin(model.weights[i] as Float32Array, model.header.biases[i] ?? 0, buckets, model.header.featureFloor ?? 0);
      if (margin > (best[i] as number)) best[i] = margin;
    }
  }
  const penalty = (model.header.windowPenalty ?? 0) * Math.log(windows.length);
  return best.map((margin) => sigmoid(margin - penalty));
}

/** The margin (log-odds) of label `label` for each window of `text`, in order. */
export function segmentMargins(model: HashedModel, text: string, label = 0): number[] {
  const buckets: number[] = [];
  const normalised = modelText(text);
  const document = documentBuckets(normalised, model.header.bits);
  return segmentWindows(normalised).map((window) => {
    buckets.length = 0;
    toolFeatureBuckets(window, model.header.bits, buckets);
    buckets.push(...document);
    return bucketMargin(model.weights[label] as Float32Array, model.header.biases[label] ?? 0, buckets, model.header.featureFloor ?? 0);
  });
}
