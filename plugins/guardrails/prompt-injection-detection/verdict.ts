// The result shape both injection processors answer: categories over the threshold, their scores, and which triggered.

/** Results of promptinjectiondetection and toolinjectiondetection, exactly as the spec names them. */
export interface InjectionResults {
  categories: { prompt_injection: boolean; jailbreak: boolean };
  category_scores: { prompt_injection: number; jailbreak: number };
}

/** The processor's answer for two scores and a threshold: a category is flagged when its score is over the threshold. */
export function injectionVerdict(scores: { prompt_injection: number; jailbreak: number }, threshold: number): { results: InjectionResults; flagged: boolean; triggered: string[] } {
  const categories = { prompt_injection: scores.prompt_injection > threshold, jailbreak: scores.jailbreak > threshold };
  const triggered = (Object.keys(categories) as (keyof typeof categories)[]).filter((name) => categories[name]);
  return {
    results: { categories, category_scores: { prompt_injection: scores.prompt_injection, jailbreak: scores.jailbreak } },
    flagged: triggered.length > 0,
    triggered,
  };
}
