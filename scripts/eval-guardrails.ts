// Runs every guardrail eval module (scripts/eval/*-eval.ts) on the dev set and prints one table of the results.
// Usage: npm run eval:guardrails -- [--data <dir>] [--only <module>] [--strict]
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EvalModule, EvalRow } from './eval/eval-types.js';

/** The eval modules, in the order their rows are printed. A module not written yet is skipped with a note. */
const MODULES = ['prompt-injection-eval', 'trust-safety-eval', 'language-eval', 'pii-eval', 'tool-output-eval'];

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');

interface Args {
  dataDir: string;
  only?: string;
  strict: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { dataDir: resolve(repoRoot, '..', 'shared', 'data', 'guardrails'), strict: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--data') args.dataDir = resolve(argv[++i] ?? '');
    else if (arg === '--only') args.only = argv[++i];
    else if (arg === '--strict') args.strict = true;
    else throw new Error(`unknown argument ${arg}; usage: eval-guardrails [--data <dir>] [--only <module>] [--strict]`);
  }
  return args;
}

/** Finds the EvalModule a file exports: its default export, or the first export with a `run` function. */
function findModule(exports: Record<string, unknown>): EvalModule | undefined {
  const candidates = [exports.default, ...Object.values(exports)];
  return candidates.find((value): value is EvalModule => typeof (value as EvalModule | undefined)?.run === 'function');
}

const fixed = (value: number | undefined, digits = 3): string => (value === undefined ? '' : value.toFixed(digits));

/** Prints rows as one aligned table; the note goes last and is not padded. */
function printTable(rows: EvalRow[]): void {
  const header = ['processor', 'label', 'P', 'R', 'F1', 'acc', 'FPR', 'support', 'target', 'met', 'note'];
  const cells = rows.map((r) => [
    r.processor,
    r.label,
    fixed(r.precision),
    fixed(r.recall),
    fixed(r.f1),
    fixed(r.accuracy),
    fixed(r.falsePositiveRate),
    String(r.support),
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
    r.note ?? '',
  ]);
  const widths = header.map((h, col) => Math.max(h.length, ...cells.map((c) => (c[col] ?? '').length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7]);
  const line = (c: string[]): string =>
    c
      .map((cell, col) => (col === c.length - 1 ? cell : numeric.has(col) ? cell.padStart(widths[col] ?? 0) : cell.padEnd(widths[col] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  ').trimEnd());
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(args.dataDir)) throw new Error(`data folder not found: ${args.dataDir} (pass --data <dir>)`);
  console.log(`guardrail eval on ${args.dataDir}\n`);
  const rows: EvalRow[] = [];
  const notes: string[] = [];
  let failed = false;
  for (const name of MODULES) {
    if (args.only && !name.startsWith(args.only)) continue;
    const file = join(here, 'eval', `${name}.ts`);
    if (!existsSync(file)) {
      notes.push(`${name}: skipped, scripts/eval/${name}.ts does not exist yet`);
      continue;
    }
    const started = performance.now();
    try {
      const module = findModule((await import(pathToFileURL(file).href)) as Record<string, unknown>);
      if (!module) throw new Error('exports no EvalModule (an object with run(dataDir))');
      rows.push(...(await module.run(args.dataDir)));
      notes.push(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      failed = true;
      notes.push(`${name}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  printTable(rows);
  const targets = rows.filter((r) => r.met !== undefined);
  const missed = targets.filter((r) => !r.met);
  console.log(
    `\noverall: ${targets.length - missed.length} of ${targets.length} targets met` +
      (missed.length ? `; missed: ${missed.map((r) => `${r.processor} ${r.label}`).join(', ')}` : ''),
  );
  for (const note of notes) console.log(`  ${note}`);
  if (failed || (args.strict && missed.length > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
