// The final mixing step of the hashed n-gram features shared by the trained guardrail models (trustsafety, lang_detector).

/**
 * Mixes an FNV-1a state with a feature kind and masks it to the bucket count (a power of two). The shipped weights
 * depend on this exact function: changing it means retraining every model that uses it.
 */
export function finishFeatureHash(hash: number, kind: number, mask: number): number {
  let h = (hash ^ Math.imul(kind, 0x9e3779b1)) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) & mask;
}
