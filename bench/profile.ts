// `npm run bench:profile`: a V8 CPU profile of the compiled gateway serving a fixed request count, summarised by self time.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_GATEWAY, buildBenchGateway } from './build-gateway.js';
import { measureCpuPerRequest } from './fixed-count.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUTE = process.env.BENCH_ROUTE ?? 'custom';
const TOP = Number(process.env.PROFILE_TOP ?? 40);
/** BENCH_PROMPT=1k: the 1 KB prompt of `npm run bench`'s prompt rows instead of "Say hello.". */
const PROMPT = process.env.BENCH_PROMPT === '1k' ? 'Please summarise the following meeting notes for the team. '.repeat(17).slice(0, 1024) : 'Say hello.';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function start(args: string[]): Promise<{ pid: number; info: Record<string, unknown>; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { pid: child.pid!, info, stop };
}

/** Where a frame's code lives: a package name, our own file, or a V8/node internal. */
function owner(url: string): string {
  if (!url) return '(native)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith('node:')) return url;
  const own = /bench-build\/(.+)$/.exec(url);
  return own ? own[1]! : url;
}

function summarise(profile: CpuProfile): void {
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...selfMicros.values()].reduce((sum, micros) => sum + micros, 0);
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0;
    if (!micros) continue;
    const where = owner(node.callFrame.url);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byOwner.set(where, (byOwner.get(where) ?? 0) + micros);
  }
  const table = (title: string, entries: Map<string, number>): void => {
    console.log(`\n${title} (self time, µs per request, share)`);
    for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`${(micros / REQUESTS).toFixed(1).padStart(7)}  ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  };
  table('By file or package', byOwner);
  table('By function', byFunction);
}

buildBenchGateway();
const upstream = await start(['--import', 'tsx', 'bench/fake-upstream-server.ts']);
const profileDir = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
const gateway = await start(['--cpu-prof', '--cpu-prof-dir', profileDir, BENCH_GATEWAY, `http://127.0.0.1:${String(upstream.info.port)}`]);
const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: PROMPT }], max_tokens: 16 });
const result = await measureCpuPerRequest(
  {
    origin: `http://127.0.0.1:${String(gateway.info.port)}`,
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', 'x-gateway-apikey': String(gateway.info.key), 'x-gateway-route': ROUTE },
    body,
  },
  gateway.pid,
  { connections: 16, requests: REQUESTS, warmup: 2000 },
);
await gateway.stop();
await upstream.stop();
console.log(`route ${ROUTE}: ${result.cpuPerRequestUs.toFixed(0)} µs CPU per request, ${result.errors} errors (the profile covers warm-up and set-up too)`);
const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile was written in ${profileDir}`);
summarise(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile);
console.log(`\nprofile: ${join(profileDir, file)} (open it in Chrome DevTools for the flame graph)`);
