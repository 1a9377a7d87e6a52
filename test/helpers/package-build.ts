// Builds the package (`npm run build` into dist/) and packs and installs it into a scratch project offline, for tests that use it as a user does.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

let built: Promise<void> | undefined;

/** Runs `npm run build` once per test run. */
export function buildPackage(): Promise<void> {
  built ??= run('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }).then(() => undefined);
  return built;
}

/**
 * Packs the built package and installs the tarball into a new scratch project without the network:
 * the repository's lock file pins every dependency, so npm takes them from its cache.
 * Answers the scratch project's folder.
 */
export async function installPackedPackage(): Promise<string> {
  await buildPackage();
  const scratch = await mkdtemp(join(tmpdir(), 'gateway-packed-'));
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: REPO_ROOT });
  const tarball = stdout.trim().split('\n').at(-1) as string;
  const lock = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, unknown> };
  lock.name = 'scratch-app';
  lock.packages[''] = { name: 'scratch-app', version: '1.0.0' };
  await writeFile(join(scratch, 'package-lock.json'), JSON.stringify(lock));
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch-app', version: '1.0.0', private: true }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', `./${tarball}`], { cwd: scratch, maxBuffer: 16 * 1024 * 1024 });
  return scratch;
}
