// Starts and stops examples/server.ts as a child process on a free loopback port, for tests over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A running example server. */
export interface ExampleServer {
  child: ChildProcess;
  base: string;
  /** Everything the server printed so far. */
  output(): string;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

/**
 * Starts the example server with `env` over the test's environment, and waits until `/healthz` answers: at least
 * 400 tries, and up to `startTimeoutMs` (default 20 s) on a slow machine.
 * @example
 * const server = await startExampleServer({ GATEWAY_ADMIN_KEY: key, GATEWAY_DATA_DIR: dir });
 */
export async function startExampleServer(env: Record<string, string>, startTimeoutMs = 20_000): Promise<ExampleServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (let i = 0; i < 400 || performance.now() - started < startTimeoutMs; i++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, output: () => output };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`the example server did not start:\n${output}`);
}

/** Sends SIGTERM and answers the exit code. */
export async function stopExampleServer(child: ChildProcess): Promise<number | null> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}
