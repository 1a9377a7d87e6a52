// Copies the built admin console (console/dist, from npm run build:console) beside the compiled console router, into <build folder>/src/console/app.
import { cp, rm } from 'node:fs/promises';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(root, process.argv[2] ?? 'dist');
const target = resolve(outDir, 'src/console/app');
await rm(target, { recursive: true, force: true });
await cp(resolve(root, 'console/dist'), target, { recursive: true, filter: (source) => !source.endsWith('.source-hash') });
