// `npm start`'s prestart: builds dist/ when the build tools are installed; after `npm ci --omit=dev` they are not, and the build already in dist/ starts as it is.
// Plain JavaScript rather than TypeScript: tsx is a dev dependency, and this runs without them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(resolve(root, 'package.json'));
const BUILD_TOOLS = ['typescript', 'tsx', 'vite'];

function installed(name) {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

if (BUILD_TOOLS.every(installed)) {
  // npm_execpath is the npm that runs this script; the same one runs the build.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'build']] : ['npm', ['run', 'build']];
  const build = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
if (existsSync(resolve(root, 'dist/examples/server.js'))) {
  console.error('The build tools (dev dependencies) are not installed: starting the build in dist/ as it is.');
  process.exit(0);
}
console.error('dist/ is not built, and building it needs the dev dependencies: run `npm install` (or `npm ci`), then `npm start`.');
process.exit(1);
