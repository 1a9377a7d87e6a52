// A trustsafety model whose token predictions are remembered, for variant scripts that score every row many times.
import type { UnsafeModel } from '../../../plugins/guardrails/trust-safety/scoring.js';

/** Wraps `model` so each distinct token sequence is predicted once. */
export function memoisedUnsafeModel(model: UnsafeModel & { predictTokens(tokens: readonly string[]): number }): UnsafeModel {
  const memo = new Map<string, number>();
  return {
    predict: (text) => model.predict(text),
    predictTokens: (tokens) => {
      const key = tokens.join(' ');
      let p = memo.get(key);
      if (p === undefined) memo.set(key, (p = model.predictTokens(tokens)));
      return p;
    },
  };
}
