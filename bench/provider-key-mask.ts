// `npx tsx bench/provider-key-mask.ts`: the cost of masking every form of the provider key in relayed answers (ns per answer or chunk), against the exact-bytes indexOf it replaced.
import { ChunkedSecretMask } from '../src/secrets/chunked-secret-mask.js';
import { SecretFormMatcher } from '../src/secrets/secret-form-matcher.js';

const KEY = 'sk-bench-upstream-key';
const keyBytes = Buffer.from(KEY);
const answer = (text: string): Buffer =>
  Buffer.from(JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion', created: 1700000000, model: 'bench-model', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }));
const small = answer('Hello from the benchmark upstream.');
const large = answer('The quick brown fox jumps over the lazy dog, since computers can compute; sketch and skip. '.repeat(44));
const event = Buffer.from(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: ' w12' } }] })}\n\n`);
const cut = event.subarray(0, 100);

/** Median ns per call over 5 runs of `count` calls, after a warm-up. */
function ns(fn: () => unknown, count = 200_000): number {
  for (let i = 0; i < 50_000; i++) fn();
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) fn();
    runs.push(Number(process.hrtime.bigint() - start) / count);
  }
  return runs.sort((a, b) => a - b)[2]!;
}

const rows: Array<[string, number, number]> = [];
for (const [name, body] of [[`JSON answer, ${small.length} B`, small], [`JSON answer, ${large.length} B`, large]] as const) {
  // Both decode the answer once, as the JSON relay parses it; before: one indexOf of the exact bytes.
  rows.push([name, ns(() => (body.indexOf(keyBytes) < 0 ? body.toString('utf8') : '')), ns(() => SecretFormMatcher.of(KEY, 'text')!.mask(body.toString('utf8')))]);
}
const stream = ChunkedSecretMask.of(KEY)!;
rows.push([`stream chunk ending an event, ${event.length} B`, ns(() => event.indexOf(keyBytes)), ns(() => stream.chunk(event))]);
rows.push([`stream chunk cut mid-event, ${cut.length} B`, ns(() => cut.indexOf(keyBytes)), ns(() => [stream.chunk(cut), stream.flush()])]);
console.log('| case | exact bytes (indexOf), ns | every form, ns | added, ns |\n|---|---:|---:|---:|');
for (const [name, before, after] of rows) console.log(`| ${name} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(after - before).toFixed(0)} |`);
console.log(`\nnode ${process.version}; median of 5 runs`);
