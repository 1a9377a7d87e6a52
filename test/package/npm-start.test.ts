// `npm start` runs the built server with node itself: SIGTERM to npm, or to its whole process group, reaches the gateway, which flushes Chronicles and exits.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { exitWithin, findLogLine, spawnGateway } from '../helpers/gateway-process.js';
import { buildPackage, REPO_ROOT } from '../helpers/package-build.js';

const ADMIN_KEY = 'gwa_npm_start_test_admin_key_0123';
const run = promisify(execFile);

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function filesContaining(dir: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && (await readFile(join(entry.parentPath, entry.name), 'utf8')).includes(text)) found.push(entry.name);
  }
  return found;
}

describe('npm start', function () {
  this.timeout(240_000);
  let fake: FakeProvider;
  let dir: string;
  before(async () => {
    await buildPackage();
    fake = await startFakeProvider();
    dir = await mkdtemp(join(tmpdir(), 'gateway-npm-start-'));
    await writeFile(
      join(dir, 'gateway.yaml'),
      `providers:\n  - name: fake\n    type: openai\n    config: { api_base: "${fake.url}/v1", models: [gpt-4o-mini] }\n    api_keys:\n      - api_key: sk-npm-start-provider-key-0001\napplications:\n  - name: shop\n`,
    );
  });
  after(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const target of ['the npm process', 'its process group'] as const) {
    it(`15.7: SIGTERM to ${target} stops the server cleanly, leaves no process behind and the Chronicle of the last request is stored`, async () => {
      const dataDir = join(dir, target === 'the npm process' ? 'data-npm' : 'data-group');
      const env = { PORT: '0', HOST: '', GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_CONFIG: join(dir, 'gateway.yaml'), GATEWAY_DATABASE_URL: '', GATEWAY_REDIS_URL: '' };
      const gateway = await spawnGateway('npm', ['start', '--ignore-scripts', '--silent'], { cwd: REPO_ROOT, env, detached: true, waitFor: 'seed: applied' });
      const pgid = gateway.child.pid as number;
      let requestId: string | null = null;
      try {
        const created = await fetch(`${gateway.base}/v1/admin/applications/shop/keys`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: '{}' });
        const developerKey = ((await created.json()) as { key: string }).key;
        const answer = await fetch(`${gateway.base}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${developerKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
        });
        assert.equal(answer.status, 200);
        requestId = answer.headers.get('x-gateway-request-id');
        assert.ok(requestId);
      } finally {
        if (target === 'the npm process') gateway.child.kill('SIGTERM');
        else process.kill(-pgid, 'SIGTERM');
      }
      assert.equal(await exitWithin(gateway, 20_000), 0);
      assert.equal(findLogLine(gateway.output(), 'shutting down')?.signal, 'SIGTERM');
      for (let i = 0; i < 200 && groupAlive(pgid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const orphaned = groupAlive(pgid);
      if (orphaned) process.kill(-pgid, 'SIGKILL');
      assert.ok(!orphaned, 'a process of npm start outlived it');
      assert.ok((await filesContaining(dataDir, requestId)).length > 0, 'the Chronicle of the last request was not stored');
    });
  }
});

describe('npm start after npm ci --omit=dev', function () {
  this.timeout(240_000);
  let dir: string;
  before(async () => {
    await buildPackage();
    // A checkout as a production image has it: built, then installed without the dev dependencies (offline, from the lock file).
    dir = await mkdtemp(join(tmpdir(), 'gateway-npm-start-prod-'));
    for (const entry of ['package.json', 'package-lock.json', 'dist', 'scripts']) await cp(join(REPO_ROOT, entry), join(dir, entry), { recursive: true });
    await run('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--silent'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('15.7: runs its prestart without the build tools, serves the built server and stops cleanly on SIGTERM', async () => {
    // PATH without node_modules/.bin folders (npm run adds this repository's), as a production machine has it.
    const path = (process.env.PATH ?? '').split(delimiter).filter((folder) => !folder.includes('node_modules')).join(delimiter);
    const env = { PATH: path, PORT: '0', HOST: '', GATEWAY_DATA_DIR: join(dir, 'data'), GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATABASE_URL: '', GATEWAY_REDIS_URL: '', GATEWAY_CONFIG: '' };
    const gateway = await spawnGateway('npm', ['start', '--silent'], { cwd: dir, env });
    try {
      assert.match(gateway.output(), /starting the build in dist\/ as it is/);
      assert.equal((await fetch(`${gateway.base}/healthz`)).status, 200);
    } finally {
      gateway.child.kill('SIGTERM');
    }
    assert.equal(await exitWithin(gateway, 20_000), 0);
  });
});
