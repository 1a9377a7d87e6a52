// GATEWAY_HEAP_GROWING_PERCENT: the example server's bound on how far V8's old generation grows past its live size, and its validation.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { heapGrowingPercent } from '../../examples/heap-growth.js';

const childScript = fileURLToPath(new URL('./heap-growth-child.ts', import.meta.url));

async function peakHeapMb(percent: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', childScript], { env: { ...process.env, GATEWAY_HEAP_GROWING_PERCENT: percent } });
  return (JSON.parse(stdout.trim()) as { peakHeapMb: number }).peakHeapMb;
}

describe('GATEWAY_HEAP_GROWING_PERCENT', function () {
  this.timeout(60_000);

  it("the default (100) keeps the heap under load well below V8's own growth (0)", async () => {
    const own = await peakHeapMb('0');
    const bounded = await peakHeapMb('');
    assert.ok(bounded < own * 0.75, `peak heap ${bounded.toFixed(0)} MB with the default, ${own.toFixed(0)} MB with V8's own growth`);
  });

  it('reads a whole number from 0 to 1000, 100 when unset', () => {
    assert.equal(heapGrowingPercent(undefined), 100);
    assert.equal(heapGrowingPercent(''), 100);
    assert.equal(heapGrowingPercent('0'), 0);
    assert.equal(heapGrowingPercent('50'), 50);
    for (const bad of ['-1', '1.5', 'lots', '1001']) assert.throws(() => heapGrowingPercent(bad), /GATEWAY_HEAP_GROWING_PERCENT/);
  });

  it('the example server refuses to start with a value that is not one', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', GATEWAY_ADMIN_KEY: 'heap-growth-admin-key-0123456789', GATEWAY_DATA_DIR: '/nonexistent/never-created', GATEWAY_HEAP_GROWING_PERCENT: 'lots' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.match(output, /GATEWAY_HEAP_GROWING_PERCENT must be a whole number/);
  });
});
