// Copies what `tsc` does not emit (model weights, model cards, data files under plugins/) into the build folder (default dist/), beside the compiled code that loads them.
import { cp } from 'node:fs/promises';
import { extname, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts']);

const outDir = resolve(root, process.argv[2] ?? 'dist');
await cp(resolve(root, 'plugins'), resolve(outDir, 'plugins'), {
  recursive: true,
  filter: (source) => !SOURCE_EXTENSIONS.has(extname(source)),
});
