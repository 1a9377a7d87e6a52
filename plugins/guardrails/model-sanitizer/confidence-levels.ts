// Model Armor confidence levels: scores map to levels, and the request threshold maps to the lowest level that counts.

/** Model Armor's DetectionConfidenceLevel values, lowest first. */
export const CONFIDENCE_LEVELS = ['LOW_AND_ABOVE', 'MEDIUM_AND_ABOVE', 'HIGH'] as const;

/** One confidence level. */
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

/** The lowest score of each level: LOW_AND_ABOVE [0.5, 0.7), MEDIUM_AND_ABOVE [0.7, 0.9), HIGH [0.9, 1]. */
export const LEVEL_FLOORS: Record<ConfidenceLevel, number> = { LOW_AND_ABOVE: 0.5, MEDIUM_AND_ABOVE: 0.7, HIGH: 0.9 };

/** The level of a score in [0, 1], or undefined below 0.5 (no confidence at all). */
export function confidenceOf(score: number): ConfidenceLevel | undefined {
  for (let i = CONFIDENCE_LEVELS.length - 1; i >= 0; i--) {
    const level = CONFIDENCE_LEVELS[i] as ConfidenceLevel;
    if (score >= LEVEL_FLOORS[level]) return level;
  }
  return undefined;
}

/**
 * The lowest level that counts for a threshold: the lowest level whose floor is at least the threshold.
 * t ≤ 0.5 → LOW_AND_ABOVE; 0.5 < t ≤ 0.7 → MEDIUM_AND_ABOVE; t > 0.7 → HIGH. So a score below the threshold
 * never counts, and the default 0.5 keeps every level.
 */
export function minimumConfidence(threshold: number): ConfidenceLevel {
  return CONFIDENCE_LEVELS.find((level) => LEVEL_FLOORS[level] >= threshold) ?? 'HIGH';
}

/** The score's level when it reaches the minimum level for the threshold; undefined when it does not count. */
export function countedConfidence(score: number, threshold: number): ConfidenceLevel | undefined {
  const level = confidenceOf(score);
  if (!level) return undefined;
  return CONFIDENCE_LEVELS.indexOf(level) >= CONFIDENCE_LEVELS.indexOf(minimumConfidence(threshold)) ? level : undefined;
}
