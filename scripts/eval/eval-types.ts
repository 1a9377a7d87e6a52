// Shared types of the guardrail evaluation: each processor's eval module returns rows of one table.

/** One row of the evaluation table. Metrics that do not apply are left out. */
export interface EvalRow {
  /** Processor identifier, e.g. `promptinjectiondetection`. */
  processor: string;
  /** What is scored: a label (`prompt_injection`), a category, an info type, or `accuracy`. */
  label: string;
  precision?: number;
  recall?: number;
  f1?: number;
  accuracy?: number;
  /** False-positive rate on the negatives, where the target names one. */
  falsePositiveRate?: number;
  /** Number of positives (or of rows, for accuracy). */
  support: number;
  /** The target from the issue, e.g. `F1 >= 0.9`, and whether it was met. */
  target?: string;
  met?: boolean;
  note?: string;
}

/** One eval module: a processor (or a family of them) scored on the dev set. */
export interface EvalModule {
  name: string;
  /** `dataDir` is the folder holding the JSONL files (../shared/data/guardrails by default). */
  run(dataDir: string): Promise<EvalRow[]>;
}
