// Compiles the benchmark gateway (src, plugins, bench/gateway-bench-server.ts) to .tmp/bench-build, so benchmarks run it on plain node as production would.
import { execFileSync } from 'node:child_process';

/** The compiled benchmark gateway's entry point, relative to the repository root. */
export const BENCH_GATEWAY = '.tmp/bench-build/bench/gateway-bench-server.js';

/** Builds the benchmark gateway with tsc (tsconfig.bench.json) and copies the plugins' data files beside it. */
export function buildBenchGateway(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit' });
  execFileSync('npx', ['tsx', 'scripts/copy-build-assets.ts', '.tmp/bench-build'], { stdio: 'inherit' });
}
