// Starts and stops examples/server.ts as a child process on a loopback port it picks itself, for tests over real HTTP.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { spawnGateway } from './gateway-process.js';

/** A running example server. */
export interface ExampleServer {
  child: ChildProcess;
  base: string;
  /** Everything the server printed so far. */
  output(): string;
}

/**
 * Starts the example server with `env` over the test's environment, on port 0 unless `env` names a `PORT`: the port is
 * read from its `gateway listening` line, so no other process can take it between a probe and the bind. Then waits
 * until `/healthz` answers, up to `startTimeoutMs` (default 20 s) in all.
 * @example
 * const server = await startExampleServer({ GATEWAY_ADMIN_KEY: key, GATEWAY_DATA_DIR: dir });
 */
export async function startExampleServer(env: Record<string, string>, startTimeoutMs = 20_000): Promise<ExampleServer> {
  const started = performance.now();
  const gateway = await spawnGateway(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    timeoutMs: startTimeoutMs,
  });
  const { child, base, output } = gateway;
  while (child.exitCode === null && performance.now() - started < startTimeoutMs) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, output };
    } catch {
      // not answering yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`the example server did not answer /healthz:\n${output()}`);
}

/** Sends SIGTERM and answers the exit code. */
export async function stopExampleServer(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}
