// Chronicles reads on a 100 MB log: a gateway with a small heap answers a page, an entry and the graph (reads are page by page).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const childScript = fileURLToPath(new URL('./large-log-child.ts', import.meta.url));
const LOG_BYTES = 100 * 1024 * 1024;

/** Writes `values/applications/big.json` and a JSONL log of about `bytes` bytes of ~2 KB entries, newest last. */
async function writeLargeLog(dir: string, bytes: number): Promise<{ newest: string; second: string }> {
  await mkdir(path.join(dir, 'values/applications'), { recursive: true });
  await mkdir(path.join(dir, 'logs/chronicles'), { recursive: true });
  await writeFile(path.join(dir, 'values/applications/big.json'), JSON.stringify({ name: 'big', enabled: true, created_at: '', modified_at: '', created_by: '', modified_by: '' }));
  const pad = 'p'.repeat(1800);
  const start = Date.now() - 3_600_000;
  const file = await open(path.join(dir, 'logs/chronicles/big.jsonl'), 'w');
  let written = 0;
  let n = 0;
  try {
    while (written < bytes) {
      const lines: string[] = [];
      for (let i = 0; i < 1000; i++, n++) {
        lines.push(JSON.stringify({
          id: `e${n}`, timestamp: new Date(start + n).toISOString(), application: 'big', kind: 'tool', endpoint: '/v1/mcp/tools', route: null,
          provider: 'tools', model: null, status: 200, latency_ms: 1, stream: false, attempts: [], input: { q: n }, output: pad, usage: null,
          guardrail_checks: [], tool_invocations: [{ tool: `tool${n % 3}`, registry: 'tools', arguments: {}, latency_ms: 1, guardrail_checks: [] }], error: null,
        }));
      }
      const block = `${lines.join('\n')}\n`;
      await file.write(block);
      written += Buffer.byteLength(block);
    }
  } finally {
    await file.close();
  }
  return { newest: `e${n - 1}`, second: `e${n - 2}` };
}

describe('Chronicles reads on a large log', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-large-log-'));
  });
  afterEach(async () => {
    await chmod(dir, 0o700).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('11.3: a gateway limited to a 200 MB heap answers limit=1, the next page, one entry and the graph of a 100 MB log', async function () {
    this.timeout(60_000);
    const { newest, second } = await writeLargeLog(dir, LOG_BYTES);
    const child = spawn(process.execPath, ['--max-old-space-size=200', '--import', 'tsx', childScript, dir, 'big'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, `the child failed: ${stderr.slice(0, 2000)}`);
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      statuses: number[]; ids: string[]; graph: Array<{ tool: string; requests: number }>; rssBefore: number; rssAfter: number; maxRss: number;
    };
    assert.deepEqual(report.statuses, [200, 200, 200, 200]);
    assert.deepEqual(report.ids, [newest, second, newest]);
    // The graph of a log written before graphs were stored is built once, over the retained (newest 10,000) entries.
    assert.deepEqual(report.graph.map((node) => node.tool).sort(), ['tool0', 'tool1', 'tool2']);
    assert.equal(report.graph.reduce((sum, node) => sum + node.requests, 0), 10_000);
    const grown = report.rssAfter - report.rssBefore;
    console.log(`      100 MB log: RSS ${Math.round(report.rssBefore / 2 ** 20)} MB before the reads, +${Math.round(grown / 2 ** 20)} MB after, peak ${Math.round(report.maxRss / 2 ** 20)} MB`);
    // Reading the log whole would take at least its own size in strings; a page read takes a few MB. The bound leaves
    // room for a loaded machine's allocator noise (+6 to +44 MB seen) and still fails on any whole-file read.
    assert.ok(grown < LOG_BYTES * 0.75, `RSS grew by ${Math.round(grown / 2 ** 20)} MB`);
  });
});
