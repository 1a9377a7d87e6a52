// The package as a user gets it: packed, installed offline into a scratch project, used from plain Node (ESM and CommonJS) and through its bin.
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exitWithin, spawnGateway } from '../helpers/gateway-process.js';
import { installPackedPackage, REPO_ROOT } from '../helpers/package-build.js';

const run = promisify(execFile);
const ADMIN_KEY = 'gwa_packed_test_admin_key_012345';

/** A user's app: plain ESM JavaScript that mounts the gateway in Express, with a guardrail defined through the package entry. */
const ESM_APP = `import express from 'express';
import { createGateway, defineGuardrail, errorMiddleware, memoryStorage } from 'gateway-service';

const shout = defineGuardrail({
  name: 'no_shouting', defaultThreshold: 0.5,
  evaluate: (text) => ({ results: { shouting: text === text.toUpperCase() }, flagged: text === text.toUpperCase() }),
});
const gateway = createGateway({ storage: memoryStorage(), plugins: [shout], adminKeys: [{ key: '${ADMIN_KEY}', role: 'super_admin' }] });
await gateway.ready;
const app = express();
app.use('/ai', gateway.router);
app.use(errorMiddleware());
const server = app.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port + '/ai';
  const headers = { 'x-api-key': '${ADMIN_KEY}', 'x-gateway-apikey': '${ADMIN_KEY}', 'content-type': 'application/json' };
  const created = await fetch(base + '/v1/admin/applications', { method: 'POST', headers, body: JSON.stringify({ name: 'shop' }) });
  const listed = await (await fetch(base + '/v1/admin/applications', { headers })).json();
  const applied = await fetch(base + '/v1/guardrail/no_shouting/apply', { method: 'POST', headers, body: JSON.stringify({ input: { text: 'STOP' } }) });
  console.log(JSON.stringify({ created: created.status, names: listed.map((a) => a.name), applied: applied.status, assessment: await applied.json() }));
  server.close();
  await gateway.close();
});
`;

/** A CommonJS app: require() of the package entry (no top-level await in it), then a gateway that gets ready. */
const CJS_APP = `const { createGateway, memoryStorage, defineProvider } = require('gateway-service');
const gateway = createGateway({ storage: memoryStorage() });
gateway.ready.then(async () => {
  console.log(JSON.stringify({ createGateway: typeof createGateway, defineProvider: typeof defineProvider, ready: true }));
  await gateway.close();
});
`;

/** Every bare module name a JavaScript file imports or requires (relative and `node:` imports left out). */
function bareImports(source: string): string[] {
  const names: string[] = [];
  const name = String.raw`['"]((?:@[\w.-]+/)?[\w.:-]+(?:/[\w./-]*)?)['"]`;
  const pattern = new RegExp(String.raw`^\s*(?:import|export)\b[^;]*?\bfrom\s*${name}|^\s*import\s*${name}|\bimport\s*\(\s*${name}\s*\)|\brequire\s*\(\s*${name}\s*\)|\bcreateRequire\([^)]*\)\s*\(\s*${name}\s*\)`, 'gm');
  for (const match of source.matchAll(pattern)) {
    const specifier = match.slice(1).find((group) => group !== undefined) as string;
    if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    const parts = specifier.split('/');
    names.push(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
  }
  return names;
}

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.js')).map((entry) => join(entry.parentPath, entry.name));
}

describe('the packed package', function () {
  this.timeout(240_000);
  let scratch: string;
  let packBuilt: boolean;
  before(async () => {
    ({ dir: scratch, packBuilt } = await installPackedPackage());
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  it('npm pack builds dist/ first (prepack), so a tarball packed from a clone never holds a missing or stale build', () => {
    assert.ok(packBuilt, 'npm pack did not rebuild dist/src/index.js');
  });

  it('15.7: installs offline from its tarball with only what a user needs, .d.ts and the trained guardrail models included', async () => {
    const root = join(scratch, 'node_modules', 'gateway-service');
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(manifest.exports, {
      '.': { types: './dist/src/index.d.ts', import: './dist/src/index.js', require: './dist/src/index.js' },
      './package.json': './package.json',
    });
    const files = (await readdir(root, { recursive: true })).map((file) => file.replaceAll('\\', '/'));
    for (const needed of [
      'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/gateway-service.js', 'dist/examples/server.js', 'README.md', 'LICENSE',
      'dist/plugins/guardrails/prompt-injection-detection/model.bin', 'dist/plugins/guardrails/lang-detector/language-weights.bin',
      'dist/plugins/guardrails/trust-safety/unsafe-weights.bin', 'dist/plugins/guardrails/trust-safety/unsafe-vectors.bin',
      'dist/plugins/guardrails/tool-injection-detection/model.bin',
    ]) {
      assert.ok(files.includes(needed), `${needed} is not in the package`);
    }
    const unwanted = files.filter((file) => /\.(ts|map)$/.test(file) && !file.endsWith('.d.ts') || /^(src|test|bench|scripts|plugins)\//.test(file));
    assert.deepEqual(unwanted, [], 'sources, tests or source maps were packed');
    // The GloVe table (2.8 MB) is read only by the training scripts: trustsafety ships its own vectors (unsafe-vectors.bin).
    const trainingOnly = files.filter((file) => /shared\/word-vectors\.(bin|json)$/.test(file));
    assert.deepEqual(trainingOnly, [], 'the training-only word-vector table was packed');
  });

  it('15.7: plain Node imports it (no tsx), mounts the gateway under a prefix in an Express app and serves requests, a custom guardrail included', async () => {
    await writeFile(join(scratch, 'app.mjs'), ESM_APP);
    const { stdout } = await run(process.execPath, ['app.mjs'], { cwd: scratch });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { created: number; names: string[]; applied: number; assessment: unknown };
    assert.equal(result.created, 201);
    assert.deepEqual(result.names, ['shop']);
    assert.equal(result.applied, 200);
    assert.deepEqual(result.assessment, { assessments: [{ no_shouting: { request_reject: true, results: { shouting: true } } }] });
  });

  it('15.7: a CommonJS app require()s it', async () => {
    await writeFile(join(scratch, 'app.cjs'), CJS_APP);
    const { stdout } = await run(process.execPath, ['app.cjs'], { cwd: scratch });
    assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1) as string), { createGateway: 'function', defineProvider: 'function', ready: true });
  });

  it('15.7: TypeScript finds its declarations through exports: typed define helpers, and a wrong use is an error', async () => {
    await writeFile(
      join(scratch, 'consumer.ts'),
      `import { createGateway, defineGuardrail, type Gateway, type GuardrailPlugin } from 'gateway-service';
const plugin: GuardrailPlugin<{ words: string[] }, { count: number }> = defineGuardrail<{ words: string[] }, { count: number }>({
  name: 'counter', defaultThreshold: 0.5,
  evaluate: (_text, { options }) => ({ results: { count: options.words.length }, flagged: false }),
});
const gateway: Gateway = createGateway({ plugins: [plugin] });
export const wrong: number = gateway;
`,
    );
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--typeRoots', join(REPO_ROOT, 'node_modules', '@types'), '--types', 'node', 'consumer.ts'];
    const failed = await run(process.execPath, [tsc, ...args], { cwd: scratch }).then(() => undefined, (error: { stdout: string }) => error);
    assert.ok(failed, 'the wrong assignment compiled');
    assert.deepEqual(failed.stdout.trim().split('\n'), ["consumer.ts(7,14): error TS2322: Type 'Gateway' is not assignable to type 'number'."]);
  });

  it('its declarations type-check in a strict project without skipLibCheck, with only the types installing the package brings', async () => {
    // The .d.ts files import express's and pg's types (gateway.router is an Express Router, postgresStorage takes a
    // pg.Pool): without @types/express and @types/pg installed with the package, every such import is TS7016, or
    // under skipLibCheck silently \`any\`.
    await writeFile(
      join(scratch, 'strict-consumer.ts'),
      `import { createGateway, postgresStorage, type Gateway } from 'gateway-service';
const gateway: Gateway = createGateway({ storage: postgresStorage({ connectionString: 'postgres://localhost/db' }) });
gateway.router.use((_req, _res, next) => next());
export const wrong: number = gateway.router;
`,
    );
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'strict-consumer.ts'];
    const failed = await run(process.execPath, [tsc, ...args], { cwd: scratch }).then(() => undefined, (error: { stdout: string }) => error);
    assert.ok(failed, 'the wrong assignment compiled: gateway.router is typed any');
    assert.deepEqual(failed.stdout.trim().split('\n').filter((line) => !line.startsWith(' ')), [
      "strict-consumer.ts(4,14): error TS2322: Type 'Router' is not assignable to type 'number'.",
    ]);
  });

  it('15.7: its gateway-service bin validates and starts a gateway.yaml, seeding it, and stops cleanly on SIGTERM', async () => {
    await writeFile(
      join(scratch, 'gateway.yaml'),
      'server:\n  port: 0\n  admin_key: ${TEST_ADMIN_KEY}\n  data_dir: ./data\nroutes:\n  - name: unified\napplications:\n  - name: shop\n    policy: { mode: reject }\n',
    );
    const bin = join(scratch, 'node_modules', '.bin', 'gateway-service');
    const env = { TEST_ADMIN_KEY: ADMIN_KEY };
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal((await run(bin, ['--version'], { cwd: scratch })).stdout.trim(), version, 'the installed bin finds its own package.json');
    const { stdout } = await run(bin, ['validate', 'gateway.yaml'], { cwd: scratch, env: { ...process.env, ...env } });
    assert.match(stdout, /gateway\.yaml: valid \(0 providers, 1 route, 1 application, 0 registries, 0 plugin modules\)/);
    const gateway = await spawnGateway(bin, ['start', '--config', 'gateway.yaml'], { cwd: scratch, env, waitFor: 'seed: applied' });
    try {
      const policy = await fetch(`${gateway.base}/v1/admin/applications/shop/policy`, { headers: { 'x-api-key': ADMIN_KEY } });
      assert.equal(((await policy.json()) as { mode: string }).mode, 'reject');
    } finally {
      gateway.child.kill('SIGTERM');
    }
    assert.equal(await exitWithin(gateway, 20_000), 0);
  });

  it('15.7: every package the built code imports is a dependency, not a devDependency', async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const missing = new Set<string>();
    let checked = 0;
    for (const file of await jsFiles(join(REPO_ROOT, 'dist'))) {
      for (const name of bareImports(await readFile(file, 'utf8'))) {
        checked += 1;
        if (!(name in manifest.dependencies)) missing.add(`${name} (${file.slice(REPO_ROOT.length + 1)})`);
      }
    }
    assert.ok(checked > 20, `only ${checked} imports were found`);
    assert.deepEqual([...missing], []);
  });
});
