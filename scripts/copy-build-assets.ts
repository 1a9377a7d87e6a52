// Copies what `tsc` does not emit (model weights, model cards, data files under plugins/) into dist/, beside the compiled code that loads them.
import { cp } from 'node:fs/promises';
import { extname, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts']);

await cp(resolve(root, 'plugins'), resolve(root, 'dist', 'plugins'), {
  recursive: true,
  filter: (source) => !SOURCE_EXTENSIONS.has(extname(source)),
});
