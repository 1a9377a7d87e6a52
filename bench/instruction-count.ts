// `npm run bench:instructions`: machine instructions per request of the bench gateway in each BENCH_OBSERVABILITY mode, counted by valgrind's callgrind, a figure the machine's load does not move.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { BENCH_GATEWAY, buildBenchGateway } from './build-gateway.js';

const run = promisify(execFile);
/** The modes to count (see gateway-bench-server.ts), the first being the one the others are compared with. */
const MODES = (process.env.BENCH_MODES ?? 'off,metrics-only,bare,on').split(',').filter(Boolean);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
/** Requests before counting starts: until then the gateway runs under valgrind uninstrumented (fast), so its JIT settles. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6_000);
const CONNECTIONS = 8;
/** BENCH_KEEP_PROFILES=true keeps each mode's callgrind profile (its path is printed) for callgrind_annotate. */
const KEEP_PROFILES = process.env.BENCH_KEEP_PROFILES === 'true';
/** Modes counted at once (each valgrind runs its program on one core). */
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 2);

/** What a function's name says it does: V8's optimizing compiler and garbage collector run on their own threads, in bursts. */
function categoryOf(name: string): 'compiler' | 'gc' | 'request' {
  if (/compiler::|maglev::|OptimizedCompilationJob|PipelineCompilationJob|Turbofan/i.test(name)) return 'compiler';
  if (/Marking|Sweep|Scaveng|MarkCompact|Evacuat|MemoryChunk|RememberedSet|SlotSet|SizeFromMap|BodyDescriptorBase|FreeList|GCTracer|Heap::OnMoveEvent|PointersUpdating|RelocIterator|VisitRelocInfo|LiveObjectRange|IterateObjectCache|StringTableCleaner|PretenuringHandler::UpdateAllocationSite|MarkingWorklist|ClearNonLive/.test(name)) return 'gc';
  return 'request';
}

/** Instructions per request of one mode: all of them, and split into the compiler's, the GC's and the rest (the request path). */
interface Count {
  mode: string;
  total: number;
  compiler: number;
  gc: number;
  request: number;
  errors: number;
}

async function startProcess(command: string[], env: Record<string, string>): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}`)));
  });
  return { child, info };
}

/** Sends `count` requests to the custom route over CONNECTIONS keep-alive connections; returns how many failed. */
async function load(pool: Pool, key: string, count: number): Promise<number> {
  const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 });
  let left = count;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (left > 0) {
        left--;
        const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json', 'x-gateway-apikey': key, 'x-gateway-route': 'custom' }, body });
        await response.body.dump({ limit: Infinity });
        if (response.statusCode !== 200) errors++;
      }
    }),
  );
  return errors;
}

/** Self instructions by function name, from callgrind_annotate's listing of a profile. */
async function functionCosts(profile: string): Promise<Map<string, number>> {
  const { stdout } = await run('callgrind_annotate', ['--inclusive=no', '--threshold=100', profile], { maxBuffer: 256 * 1024 * 1024 });
  const costs = new Map<string, number>();
  for (const line of stdout.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (match && !match[2]!.includes('PROGRAM TOTALS')) costs.set(match[2]!, Number(match[1]!.replaceAll(',', '')));
  }
  return costs;
}

/** Runs the bench gateway in `mode` under callgrind, warms it up uninstrumented, then counts REQUESTS requests. */
async function countMode(mode: string, upstream: string): Promise<Count> {
  const dir = await mkdtemp(join(tmpdir(), `gateway-icount-${mode}-`));
  const valgrind = ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${join(dir, 'callgrind.out')}`];
  // Node's default metrics are left out: their timers run per second, and under valgrind a second holds few requests.
  const gateway = await startProcess([...valgrind, process.execPath, BENCH_GATEWAY, upstream], { BENCH_OBSERVABILITY: mode, BENCH_DEFAULT_METRICS: 'false' });
  const pool = new Pool(`http://127.0.0.1:${String(gateway.info.port)}`, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 600_000 });
  try {
    await load(pool, String(gateway.info.key), WARMUP);
    const pid = String(gateway.child.pid);
    await run('callgrind_control', ['-i', 'on', pid]);
    const errors = await load(pool, String(gateway.info.key), REQUESTS);
    await run('callgrind_control', ['-i', 'off', pid]);
    await run('callgrind_control', ['-d', pid]);
    // The dump is written as callgrind.out.<n> once the program next runs: wait for its totals line.
    let profile: string | undefined;
    for (let tries = 0; !profile && tries < 600; tries++) {
      for (const file of await readdir(dir)) {
        if (file !== 'callgrind.out' && /^totals: \d+/m.test(await readFile(join(dir, file), 'utf8'))) profile = join(dir, file);
      }
      if (!profile) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (!profile) throw new Error(`${mode}: callgrind wrote no profile`);
    const count: Count = { mode, total: 0, compiler: 0, gc: 0, request: 0, errors };
    for (const [name, cost] of await functionCosts(profile)) {
      count[categoryOf(name)] += cost / REQUESTS;
      count.total += cost / REQUESTS;
    }
    return count;
  } finally {
    await pool.close();
    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => gateway.child.once('exit', resolve));
    if (KEEP_PROFILES) console.error(`${mode}: callgrind profile kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

await run('valgrind', ['--version']).catch(() => {
  console.error('bench:instructions needs valgrind (apt-get install -y valgrind)');
  process.exit(1);
});
buildBenchGateway();
const upstream = await startProcess([process.execPath, '--import', 'tsx', 'bench/fake-upstream-server.ts'], {});
try {
  const counts: Count[] = [];
  for (let index = 0; index < MODES.length; index += PARALLEL) {
    counts.push(...(await Promise.all(MODES.slice(index, index + PARALLEL).map((mode) => countMode(mode, `http://127.0.0.1:${String(upstream.info.port)}`)))));
  }
  const base = counts[0]!;
  const thousands = (value: number): string => (value / 1000).toFixed(1);
  const over = (value: number, reference: number): string => `${value >= reference ? '+' : ''}${(((value - reference) / reference) * 100).toFixed(1)}%`;
  console.log(`\n| mode | request path (k instr/request) | over ${base.mode} | GC | compiler | all | errors |\n|---|---:|---:|---:|---:|---:|---:|`);
  for (const count of counts) {
    console.log(`| ${count.mode} | ${thousands(count.request)} | ${over(count.request, base.request)} | ${thousands(count.gc)} | ${thousands(count.compiler)} | ${thousands(count.total)} | ${count.errors} |`);
  }
  console.log(`\n${REQUESTS} requests counted after ${WARMUP} uncounted, per mode (callgrind, every thread; node ${process.version}). The request path leaves out V8's compiler and garbage collector, which run in bursts that a count of ${REQUESTS} requests may or may not hold.`);
} finally {
  upstream.child.kill('SIGTERM');
}
