// Compiles the benchmark gateway (src, plugins, bench/gateway-bench-server.ts) and the reference proxies to .tmp/bench-build, so benchmarks run them on plain node as production would.
import { execFileSync } from 'node:child_process';

/** The compiled benchmark gateway's entry point, relative to the repository root. */
export const BENCH_GATEWAY = '.tmp/bench-build/bench/gateway-bench-server.js';

/** The compiled reference proxies: bare Express (`json` or `end` answers) and bare `node:http`, both on undici. */
export const BENCH_EXPRESS_REFERENCE = '.tmp/bench-build/bench/reference-proxy-server.js';
export const BENCH_NODE_REFERENCE = '.tmp/bench-build/bench/reference-node-http-server.js';

/** Builds the benchmark gateway with tsc (tsconfig.bench.json) and copies the plugins' data files beside it. */
export function buildBenchGateway(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit' });
  execFileSync('npx', ['tsx', 'scripts/copy-build-assets.ts', '.tmp/bench-build'], { stdio: 'inherit' });
}
