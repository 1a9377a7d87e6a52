// The cost of metrics and tracing: the same gateway with both off and with both on (an OTel SDK registered), in alternating rounds of one run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BENCH_GATEWAY } from './build-gateway.js';
import { measureCpuPerRequest, measureCpuPerRequestTogether, type CpuResult } from './fixed-count.js';

/** The two medians and how much more "on" costs, in percent. */
export interface ObservabilityCost {
  off: CpuResult;
  on: CpuResult;
  extraPercent: number;
  rounds: number;
  /** CPU µs per request of every round, in order, off and on. */
  offRounds: number[];
  onRounds: number[];
}

async function startGateway(args: string[], mode: string): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  // BENCH_GATEWAY_CPU=<n>: the gateways run on that CPU only (taskset), both on the same one.
  const cpu = process.env.BENCH_GATEWAY_CPU;
  const command = cpu ? ['taskset', '-c', cpu, process.execPath] : [process.execPath];
  const child = spawn(command[0]!, [...command.slice(1), BENCH_GATEWAY, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_OBSERVABILITY: mode } });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`the ${mode} gateway exited with ${code}`)));
  });
  return { child, info };
}

const median = (results: CpuResult[]): CpuResult => [...results].sort((a, b) => a.cpuPerRequestUs - b.cpuPerRequestUs)[Math.floor(results.length / 2)]!;

/** One side of a pair: a gateway process, and which of its ports and keys to load (`off` for a `pair` process's second gateway). */
interface Side {
  child: ChildProcess;
  info: Record<string, unknown>;
  side?: 'off';
}

const target = (gateway: Side, body: string) => ({
  origin: `http://127.0.0.1:${String(gateway.side === 'off' ? gateway.info.offPort : gateway.info.port)}`,
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json', 'x-gateway-apikey': String(gateway.side === 'off' ? gateway.info.offKey : gateway.info.key), 'x-gateway-route': 'custom' },
  body,
});

/**
 * Starts two compiled bench gateways (`BENCH_OBSERVABILITY=off` and `on`) in front of the same upstream, and measures
 * the CPU per request of the custom route on each, alternating for `rounds` rounds (the side that goes first
 * alternates too); the median of each side counts. With `processes` above 1, that many pairs of gateways are started
 * one after the other, each measured for `rounds` rounds: one process can stay 10–20% faster or slower than another
 * of the same code for its whole life (its JIT and heap), which rounds within one process do not average out.
 * With `inProcess`, each pair is one process serving both gateways (`BENCH_OBSERVABILITY=pair`), so that luck is the
 * same on both sides. With `together`, each round loads both gateways at the same time (half the connections each)
 * and reads both CPU times over the same stretch, so a busy moment on the machine weighs on both sides alike.
 */
export async function measureObservabilityCost(gatewayArgs: string[], options: { requests: number; connections: number; rounds: number; body: string; processes?: number; inProcess?: boolean; together?: boolean }): Promise<ObservabilityCost> {
  if (options.together && options.inProcess) throw new Error('one process cannot be measured against itself at once: choose together or inProcess');
  const offRuns: CpuResult[] = [];
  const onRuns: CpuResult[] = [];
  for (let pair = 0; pair < (options.processes ?? 1); pair++) {
    // BENCH_ON_MODE (metrics, sdk, sdk-hooks, bare) and BENCH_OFF_MODE pick other pairs: see gateway-bench-server.ts.
    const on: Side = await startGateway(gatewayArgs, options.inProcess ? 'pair' : (process.env.BENCH_ON_MODE ?? 'on'));
    const off: Side = options.inProcess ? { ...on, side: 'off' } : await startGateway(gatewayArgs, process.env.BENCH_OFF_MODE ?? 'off');
    try {
      for (let round = 0; round < options.rounds; round++) {
        const measure = (gateway: Side) => measureCpuPerRequest(target(gateway, options.body), gateway.child.pid!, options);
        if (options.together) {
          // Both loaded at once, half the connections each; which one's pool starts first alternates.
          const sides = round % 2 === 0 ? [off, on] : [on, off];
          const results = await measureCpuPerRequestTogether(
            sides.map((gateway) => ({ target: target(gateway, options.body), pid: gateway.child.pid! })),
            { connections: Math.max(1, options.connections / 2), requests: options.requests },
          );
          offRuns.push(results[sides.indexOf(off)]!);
          onRuns.push(results[sides.indexOf(on)]!);
        } else if (round % 2 === 0) {
          offRuns.push(await measure(off));
          onRuns.push(await measure(on));
        } else {
          onRuns.push(await measure(on));
          offRuns.push(await measure(off));
        }
      }
    } finally {
      off.child.kill('SIGTERM');
      on.child.kill('SIGTERM');
    }
  }
  const offMedian = median(offRuns);
  const onMedian = median(onRuns);
  return {
    off: offMedian,
    on: onMedian,
    extraPercent: (onMedian.cpuPerRequestUs / offMedian.cpuPerRequestUs - 1) * 100,
    rounds: offRuns.length,
    offRounds: offRuns.map((run) => run.cpuPerRequestUs),
    onRounds: onRuns.map((run) => run.cpuPerRequestUs),
  };
}
