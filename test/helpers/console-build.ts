// Builds the admin console (Vite) before the tests that serve it, unless console/dist was built from the same sources.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const consoleDir = join(root, 'console');
/** The built console the gateway serves by default. */
export const CONSOLE_DIST = join(consoleDir, 'dist');
const STAMP = join(CONSOLE_DIST, '.source-hash');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
}

/** A hash of everything the build reads: the console sources, its config and the locked dependency versions. */
async function sourceHash(): Promise<string> {
  const files = [...(await sourceFiles(join(consoleDir, 'src'))), join(consoleDir, 'index.html'), join(consoleDir, 'vite.config.ts'), join(root, 'package-lock.json')];
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.slice(root.length)).update('\0').update(await readFile(file)).update('\0');
  return hash.digest('hex');
}

let built: Promise<void> | undefined;

/**
 * Builds console/dist with Vite when its sources changed since the last build (a few seconds), once per process.
 * Sources and assets cannot diverge in a test run, and console/dist need not be committed.
 */
export function buildConsoleIfStale(): Promise<void> {
  built ??= (async () => {
    const hash = await sourceHash();
    const stamp = await readFile(STAMP, 'utf8').catch(() => '');
    if (stamp === hash) return;
    const { build } = await import('vite');
    await build({ configFile: join(consoleDir, 'vite.config.ts'), logLevel: 'error' });
    await writeFile(STAMP, hash);
  })();
  return built;
}
