// Runs a gateway server command (the CLI, `npm start`) as a child process on port 0, and reads its port from its "gateway listening" log line.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A running gateway process. */
export interface GatewayProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` (or the address it bound). */
  base: string;
  port: number;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string | null>;
}

/** Options of `spawnGateway`. */
export interface SpawnGatewayOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Its own process group (to signal the group, as a terminal's Ctrl-C does). */
  detached?: boolean;
  /** Printed text to wait for after the listening line (e.g. `seed: applied`). */
  waitFor?: string;
  /** How long to wait in all, in ms; default 60 s. */
  timeoutMs?: number;
}

/** The first JSON log line whose message is `message`, parsed; undefined when there is none (yet). */
export function findLogLine(output: string, message: string): Record<string, unknown> | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes(message)) continue;
    try {
      const fields = JSON.parse(line) as Record<string, unknown>;
      if ((fields.message ?? fields.msg) === message) return fields;
    } catch {
      // not a whole JSON line (yet)
    }
  }
  return undefined;
}

/** The host and port of the server's `gateway listening` log line. */
function listeningLine(output: string): { host: string; port: number } | undefined {
  const fields = findLogLine(output, 'gateway listening');
  return typeof fields?.host === 'string' && typeof fields.port === 'number' ? { host: fields.host, port: fields.port } : undefined;
}

/**
 * Spawns `command args` and waits until it logs `gateway listening` (and `waitFor`).
 * @example
 * const gw = await spawnGateway(process.execPath, ['--import', 'tsx', 'src/cli/gateway-service.ts', 'start', '--config', file]);
 */
export async function spawnGateway(command: string, args: string[], options: SpawnGatewayOptions = {}): Promise<GatewayProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, HOST: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string | null);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  while (Date.now() < deadline && !exitedEarly) {
    const listening = listeningLine(output);
    if (listening && (!options.waitFor || output.includes(options.waitFor))) {
      const host = listening.host === '0.0.0.0' ? '127.0.0.1' : listening.host;
      const port = listening.port;
      return { child, base: `http://${host}:${port}`, port, output: () => output, exited };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!exitedEarly) child.kill('SIGKILL');
  throw new Error(`${command} ${args.join(' ')} did not start${exitedEarly ? ' (it exited)' : ''}:\n${output}`);
}

/** Resolves with the exit once it happens, or rejects after `ms` (the process is then killed). */
export async function exitWithin(gateway: GatewayProcess, ms: number): Promise<number | string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      gateway.child.kill('SIGKILL');
      reject(new Error(`the process did not exit within ${ms} ms:\n${gateway.output()}`));
    }, ms);
  });
  try {
    return await Promise.race([gateway.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
