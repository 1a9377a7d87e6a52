// Exploration, not part of eval:guardrails: leave-one-source-out for promptinjectiondetection with a word-vector view per window beside the linear model, writing every held-out row's per-window margins of both (mixed offline by prompt-injection-vectors-mix.ts).
// Run: [PI_OPTS='{"seed":8}'] [PI_VOPTS='{"seed":12}'] [PI_SHAPES=mean,mean+max] [PI_JOINT=1 (one shape: linear and network trained together)] npx tsx scripts/eval/variants/prompt-injection-vectors.ts <out.json> [fold=<repo>,...] [dev]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { detect, promptInjectionRules } from '../../../plugins/guardrails/prompt-injection-detection/detector.js';
import { featureBuckets, modelText, textWindows } from '../../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import { bucketMargin, type HashedModel } from '../../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { DEFAULT_TRAIN_DIR, ownPromptExamples, PROMPT_INJECTION_TRAIN_OPTIONS, PROMPT_INJECTION_WINDOW_PENALTY, promptInjectionExamples, preparePromptExamples, readRows, trainPromptInjection, type PromptInjectionRow } from '../../train/prompt-injection-model.js';
import { trainJointLabel } from '../../train/prompt-injection-joint.js';
import { netMargin, prepareVectorExamples, trainVectorNet, type VectorNet, type VectorPrepared, type VectorShape, type WindowVectorOptions } from '../../train/prompt-injection-vectors.js';
import { sourceOf } from '../leave-one-source-out.js';

const [out = 'vectors.json', ...args] = process.argv.slice(2);
const only = args.find((a) => a.startsWith('fold='))?.slice(5).split(',');
const options = JSON.parse(process.env.PI_OPTS ?? '{}') as Record<string, unknown>;
const vectorOptions = JSON.parse(process.env.PI_VOPTS ?? '{}') as Partial<WindowVectorOptions>;
const shapes = (process.env.PI_SHAPES ?? 'mean,mean+max').split(',') as VectorShape[];
const joint = process.env.PI_JOINT === '1';
const rows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, 'prompt-injection.jsonl'));
const devRows = readRows<PromptInjectionRow>(resolve(DEFAULT_TRAIN_DIR, '..', 'prompt-injection.jsonl'));
const corpus = promptInjectionExamples(rows);
const ownExamples = ownPromptExamples();
const prepared = preparePromptExamples(corpus);
const own = preparePromptExamples(ownExamples);
const vectors = new Map(shapes.map((shape) => [shape, { corpus: prepareVectorExamples(corpus, shape, vectorOptions.sif), own: prepareVectorExamples(ownExamples, shape, vectorOptions.sif) }]));
const devVectors = new Map(shapes.map((shape) => [shape, prepareVectorExamples(devRows.map((r) => ({ text: r.text, labels: [r.labels.prompt_injection, r.labels.jailbreak] })), shape, vectorOptions.sif)]));
const rules = promptInjectionRules();
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
console.error(`prepared ${prepared.length} corpus rows, ${own.length} own rows, shapes ${shapes.join(', ')}`);

/** Linear margins of every window of the text, per head. */
function linearMargins(model: HashedModel, text: string): number[][] {
  const windows = textWindows(modelText(text), model.header.window?.size, model.header.window?.stride);
  return model.weights.map((weights, k) =>
    windows.map((w) => r4(bucketMargin(weights, model.header.biases[k] ?? 0, featureBuckets(w, model.header.bits, [], model.header.cues ?? 0), model.header.featureFloor ?? 0))),
  );
}

/** One held-out row: the shipped scoring's parts and every window's margins (linear `w`, vector `v[shape]`, per head). */
function score(row: PromptInjectionRow, model: HashedModel, nets: Map<VectorShape, VectorNet[]>, input: Map<VectorShape, VectorPrepared>, fold: string) {
  const d = detect(row.text, { decode: true, rules, models: [model], suffixes: true });
  const v = Object.fromEntries(shapes.map((shape) => [shape, nets.get(shape)!.map((net) => input.get(shape)!.inputs.map((x) => r4(netMargin(net, x))))]));
  return { fold, id: row.id, pi: row.labels.prompt_injection, jb: row.labels.jailbreak, s: d.prompt_injection, m: d.model, r: d.rules.prompt_injection, len: row.text.length, w: linearMargins(model, row.text), v };
}

const repos = [...new Set(rows.map((row) => sourceOf(row)))].filter((repo) => !only || only.some((o) => repo.includes(o)));
const result: unknown[] = [];
const runFold = (fold: string, keep: (i: number) => boolean, test: Array<{ row: PromptInjectionRow; input: Map<VectorShape, VectorPrepared> }>): void => {
  const started = performance.now();
  const linearTrain = [...prepared.filter((_, i) => keep(i)), ...own];
  const vectorTrain = (shape: VectorShape): VectorPrepared[] => [...vectors.get(shape)!.corpus.filter((_, i) => keep(i)), ...vectors.get(shape)!.own];
  let model: HashedModel;
  let nets: Map<VectorShape, VectorNet[]>;
  if (joint) {
    // The header of the shipped settings (no epochs), then both labels' jointly trained weights.
    const shape = shapes[0]!;
    const parts = [0, 1].map((label) => trainJointLabel(linearTrain, vectorTrain(shape), label, { ...PROMPT_INJECTION_TRAIN_OPTIONS, ...options }, { ...vectorOptions, shape }));
    const header = trainPromptInjection([], fold, { ...options, epochs: 0 }).header;
    model = { header: { ...header, biases: parts.map((p) => p.bias) }, weights: parts.map((p) => p.weights) };
    nets = new Map([[shape, parts.map((p) => p.net)]]);
  } else {
    model = trainPromptInjection(linearTrain, fold, options);
    nets = new Map(shapes.map((shape) => [shape, [0, 1].map((label) => trainVectorNet(vectorTrain(shape), label, { ...vectorOptions, shape }))]));
  }
  for (const { row, input } of test) result.push(score(row, model, nets, input, fold));
  console.error(`${fold}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
};
for (const repo of repos) {
  const test = rows.flatMap((row, i) => (sourceOf(row) === repo ? [{ row, input: new Map(shapes.map((s) => [s, vectors.get(s)!.corpus[i]!])) }] : []));
  runFold(repo, (i) => sourceOf(rows[i]!) !== repo, test);
}
if (args.includes('dev')) runFold('dev', () => true, devRows.map((row, i) => ({ row, input: new Map(shapes.map((s) => [s, devVectors.get(s)![i]!])) })));
writeFileSync(out, JSON.stringify({ penalty: PROMPT_INJECTION_WINDOW_PENALTY, joint, shapes, rows: result }));
