// The example server refuses a start it cannot make with one JSON error line and exit code 1, never a stack trace: bad settings, a port in use.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ADMIN_KEY = 'start-errors-admin-key-0123456789';

/** Runs the example server with `env` to its exit; answers the exit code and the parsed output lines (every line must be JSON). */
async function runToExit(env: Record<string, string>): Promise<{ code: number | null; lines: Array<Record<string, unknown>>; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATABASE_URL: '', GATEWAY_REDIS_URL: '', GATEWAY_CONFIG: '', GATEWAY_PLUGINS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const lines = output.trim().split('\n').filter(Boolean).map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      assert.fail(`a line that is not a JSON log line (a stack trace?): ${line}\n${output}`);
    }
  });
  return { code, lines, output };
}

describe('examples/server.ts start errors', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-start-errors-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('an option the environment sets wrong (a short admin key) is one error line naming it, and exit 1', async () => {
    const { code, lines } = await runToExit({ GATEWAY_ADMIN_KEY: 'too-short', GATEWAY_DATA_DIR: join(dir, 'short-key') });
    assert.equal(code, 1);
    const error = lines.find((line) => line.level === 'error');
    assert.equal(error?.message, 'the gateway could not start');
    assert.match(String(error?.error), /adminKeys\[0\]\.key must be a string of at least 16 characters/);
  });

  it('a GATEWAY_BASE_URL that is not an absolute http(s) URL stops the start, rather than every /v1/responses request failing', async () => {
    const { code, lines } = await runToExit({ GATEWAY_BASE_URL: 'gateway.example.com', GATEWAY_DATA_DIR: join(dir, 'base-url') });
    assert.equal(code, 1);
    const error = lines.find((line) => line.level === 'error');
    assert.equal(error?.message, 'the gateway could not start');
    assert.match(String(error?.error), /baseUrl must be an absolute http or https URL/);
    assert.ok(!lines.some((line) => line.message === 'gateway listening'));
  });

  it('a PORT, GATEWAY_DRAIN_SECONDS or GATEWAY_STOP_TIMEOUT_SECONDS that is not a number in range, or an unknown LOG_LEVEL, is one error line naming the variable, and exit 1', async () => {
    for (const [env, expected] of [
      [{ PORT: 'http' }, /^PORT must be a whole number from 0 to 65535$/],
      [{ PORT: '70000' }, /^PORT must be/],
      [{ GATEWAY_DRAIN_SECONDS: 'soon' }, /^GATEWAY_DRAIN_SECONDS must be a number of seconds/],
      [{ GATEWAY_STOP_TIMEOUT_SECONDS: '0' }, /^GATEWAY_STOP_TIMEOUT_SECONDS must be a number of seconds from 1 to 3600$/],
      [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent$/],
    ] as const) {
      const { code, lines } = await runToExit({ ...env, GATEWAY_DATA_DIR: join(dir, 'bad-setting') });
      assert.equal(code, 1, JSON.stringify(env));
      assert.match(String(lines.find((line) => line.level === 'error')?.message), expected);
      assert.ok(!lines.some((line) => line.message === 'gateway listening'));
    }
  });

  it('a port another process holds is one error line with the address and EADDRINUSE, and exit 1 after closing the gateway', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, lines } = await runToExit({ PORT: String(port), GATEWAY_DATA_DIR: join(dir, 'taken') });
      assert.equal(code, 1);
      const error = lines.find((line) => line.level === 'error');
      assert.equal(error?.message, 'the server could not listen');
      assert.equal(error?.code, 'EADDRINUSE');
      assert.equal(error?.port, port);
      assert.equal(lines.find((line) => line.message === 'shutting down')?.signal, 'listen-failure');
    } finally {
      holder.close();
    }
  });
});
