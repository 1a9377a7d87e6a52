// The ranking AUC of a scorer: how often an unsafe (positive) row scores above a safe one, for the variant scripts.

/** Probability that a random positive row scores above a random negative one (ties count half). */
export function auc(labels: boolean[], scores: number[]): number {
  const pos = scores.filter((_, i) => labels[i]);
  const neg = scores.filter((_, i) => !labels[i]);
  let wins = 0;
  for (const a of pos) for (const b of neg) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
