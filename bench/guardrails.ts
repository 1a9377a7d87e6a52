// `npm run bench:guardrails`: p50/p99 of each guardrail processor on 1 KB of English text, against the 1 ms p50 target.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GuardrailEngine, type GuardrailPlugin } from '../src/index.js';

/** The built-in processors and their folders under plugins/guardrails, in registration order (dependencies first). */
const PROCESSORS: Array<{ name: string; folder: string; needs?: string[] }> = [
  { name: 'promptinjectiondetection', folder: 'prompt-injection-detection' },
  { name: 'trustsafety', folder: 'trust-safety' },
  { name: 'lang_detector', folder: 'lang-detector' },
  { name: 'dlp_cloud', folder: 'dlp-cloud' },
  { name: 'model_sanitizer', folder: 'model-sanitizer', needs: ['promptinjectiondetection', 'trustsafety', 'dlp_cloud'] },
  { name: 'toolinjectiondetection', folder: 'tool-injection-detection' },
];

const TARGET_P50_MS = 1;
const WARMUP = Number(process.env.BENCH_GUARDRAIL_WARMUP ?? 300);
const ITERATIONS = Number(process.env.BENCH_GUARDRAIL_ITERATIONS ?? 3000);

/** About 1 KB of ordinary English business prose, with one e-mail address and one phone number as a real message would have. */
const PARAGRAPH =
  'Thanks for the update on the quarterly planning. The team reviewed the budget figures yesterday and agreed ' +
  'to move the launch of the new customer portal to the second week of May, so that support has time to prepare ' +
  'the help articles and the onboarding videos. Please send the revised timeline to maria.jensen@example.com ' +
  'before Friday, and let us know whether the vendor can still deliver the hardware on schedule. If anything ' +
  'changes, call the office on 020 7946 0321 and ask for the project desk. We would also like to schedule a short ' +
  'review with the finance group to go over the travel costs, the licence renewals and the training budget for ' +
  'the next two quarters. The draft agenda is attached; feel free to add items. Finally, remember that the office ' +
  'will be closed on Monday for maintenance, so plan any deliveries for Tuesday morning instead. Thanks again for ';
export const ENGLISH_1KB = PARAGRAPH.padEnd(1024, 'your help with all of this. ').slice(0, 1024);

/** One line of the report. */
export interface GuardrailBenchRow {
  processor: string;
  p50: number;
  p99: number;
  mean: number;
  /** Process CPU time (user + system) per run, ms: steadier than wall time on a shared machine. */
  cpu: number;
  iterations: number;
  met: boolean;
  note?: string;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** Registers the processors whose folders exist; answers the engine and the names skipped with a reason. */
async function buildEngine(): Promise<{ engine: GuardrailEngine; skipped: Map<string, string> }> {
  const engine = new GuardrailEngine();
  const skipped = new Map<string, string>();
  for (const { name, folder, needs } of PROCESSORS) {
    const file = fileURLToPath(new URL(`../plugins/guardrails/${folder}/index.ts`, import.meta.url));
    if (!existsSync(file)) {
      skipped.set(name, `plugins/guardrails/${folder}/index.ts does not exist yet`);
      continue;
    }
    const missing = (needs ?? []).filter((dependency) => !engine.has(dependency));
    if (missing.length > 0) {
      skipped.set(name, `needs ${missing.join(', ')}`);
      continue;
    }
    const plugin = ((await import(pathToFileURL(file).href)) as { default: GuardrailPlugin<object, unknown> }).default;
    await engine.add(plugin);
  }
  return { engine, skipped };
}

/** Times `iterations` sequential evaluations after a warm-up; answers the sorted durations in ms. */
async function time(engine: GuardrailEngine, name: string, text: string, input: { text: string; filename?: string }): Promise<{ durations: number[]; cpu: number }> {
  for (let i = 0; i < WARMUP; i++) await engine.evaluate(name, text, { input });
  const durations: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) {
    const started = process.hrtime.bigint();
    await engine.evaluate(name, text, { input });
    durations.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const cpu = process.cpuUsage(cpuStart);
  return { durations: durations.sort((a, b) => a - b), cpu: (cpu.user + cpu.system) / 1000 / ITERATIONS };
}

/**
 * Benchmarks every registered processor on {@link ENGLISH_1KB} (model_sanitizer on its Base64).
 * @example
 * const rows = await benchGuardrails(); // one row per processor, p50/p99 in ms
 */
export async function benchGuardrails(): Promise<GuardrailBenchRow[]> {
  const { engine, skipped } = await buildEngine();
  const rows: GuardrailBenchRow[] = [];
  for (const { name } of PROCESSORS) {
    const reason = skipped.get(name);
    if (reason !== undefined) {
      rows.push({ processor: name, p50: NaN, p99: NaN, mean: NaN, cpu: NaN, iterations: 0, met: false, note: `skipped: ${reason}` });
      continue;
    }
    const text = name === 'model_sanitizer' ? Buffer.from(ENGLISH_1KB, 'utf8').toString('base64') : ENGLISH_1KB;
    const { durations, cpu } = await time(engine, name, text, { text, ...(name === 'model_sanitizer' ? { filename: 'notes.txt' } : {}) });
    const p50 = percentile(durations, 0.5);
    rows.push({
      processor: name,
      p50,
      p99: percentile(durations, 0.99),
      mean: durations.reduce((sum, d) => sum + d, 0) / durations.length,
      cpu,
      iterations: durations.length,
      met: p50 <= TARGET_P50_MS,
    });
  }
  const sanitizer = rows.find((r) => r.processor === 'model_sanitizer' && r.iterations > 0);
  if (sanitizer) {
    // model_sanitizer runs its three dependencies one after the other (they are CPU-bound on one thread).
    const needs = PROCESSORS.find((p) => p.name === 'model_sanitizer')?.needs ?? [];
    const parts = rows.filter((r) => needs.includes(r.processor)).reduce((sum, r) => sum + r.p50, 0);
    sanitizer.note = `includes ${needs.join(' + ')} (p50 sum ${parts.toFixed(3)} ms) and its own csam, URL and Base64 work; measured with the promptinjectiondetection of this tree`;
  }
  return rows;
}

function print(rows: GuardrailBenchRow[]): void {
  const fmt = (n: number): string => (Number.isNaN(n) ? '-' : n.toFixed(3));
  console.log(`guardrail processors on ${ENGLISH_1KB.length} bytes of English text; ${WARMUP} warm-up, ${ITERATIONS} timed runs each\n`);
  console.log(`| processor | p50 ms | p99 ms | mean ms | CPU ms/run | target p50 <= ${TARGET_P50_MS} ms | note |`);
  console.log('|---|---:|---:|---:|---:|---|---|');
  for (const r of rows) {
    const met = r.iterations === 0 ? '-' : r.met ? 'met' : 'MISSED';
    console.log(`| ${r.processor} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.mean)} | ${fmt(r.cpu)} | ${met} | ${r.note ?? ''} |`);
  }
  console.log(`\nNode ${process.version}, ${process.platform}/${process.arch}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  print(await benchGuardrails());
}
