// Packs the package (`npm pack`, whose prepack builds dist/) and installs it into a scratch project offline, for tests that use it as a user does.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** The modification time of the built package entry, in ms; 0 when there is none. */
async function entryBuiltAt(): Promise<number> {
  return stat(join(REPO_ROOT, 'dist/src/index.js')).then((entry) => entry.mtimeMs, () => 0);
}

let packed: Promise<{ tarball: string; packBuilt: boolean }> | undefined;

/**
 * Packs the package once per test run as a user does: `npm pack`, whose `prepack` runs `npm run build` into dist/.
 * Answers the tarball (removed when the run ends) and whether packing built dist/ afresh.
 */
function packPackage(): Promise<{ tarball: string; packBuilt: boolean }> {
  packed ??= (async () => {
    const before = await entryBuiltAt();
    const dir = await mkdtemp(join(tmpdir(), 'gateway-pack-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const version = (JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    await run('npm', ['pack', '--pack-destination', dir], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    return { tarball: join(dir, `gateway-service-${version}.tgz`), packBuilt: (await entryBuiltAt()) > before };
  })();
  return packed;
}

/** Builds dist/ once per test run (through `npm pack`, which builds first). */
export async function buildPackage(): Promise<void> {
  await packPackage();
}

/**
 * Installs the packed package into a new scratch project without the network: the repository's lock file pins every
 * dependency, so npm takes them from its cache. Answers the scratch project's folder, and whether `npm pack` built
 * dist/ afresh.
 */
export async function installPackedPackage(): Promise<{ dir: string; packBuilt: boolean }> {
  const { tarball, packBuilt } = await packPackage();
  const scratch = await mkdtemp(join(tmpdir(), 'gateway-packed-'));
  const lock = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, unknown> };
  lock.name = 'scratch-app';
  lock.packages[''] = { name: 'scratch-app', version: '1.0.0' };
  await writeFile(join(scratch, 'package-lock.json'), JSON.stringify(lock));
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch-app', version: '1.0.0', private: true }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', tarball], { cwd: scratch, maxBuffer: 16 * 1024 * 1024 });
  return { dir: scratch, packBuilt };
}
