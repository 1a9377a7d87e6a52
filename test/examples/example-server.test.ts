// The examples server over real HTTP: serves the admin API on file storage, seeds GATEWAY_CONFIG, and keeps data across a restart.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startExampleServer, stopExampleServer } from '../helpers/example-server-process.js';

const ADMIN_KEY = 'example-server-admin-key-0123456789';

const startServer = startExampleServer;
const stop = stopExampleServer;

/** A tool server that holds every request unanswered until released (then answers 404), so a seed stays under way. */
async function holdingToolServer(): Promise<{ url: string; held: () => number; release: () => void; close: () => void }> {
  const held: ServerResponse[] = [];
  let released = false;
  const server = createServer((req, res) => {
    req.resume();
    if (released) res.writeHead(404).end();
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const release = (): void => {
    released = true;
    for (const res of held.splice(0)) res.writeHead(404).end();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, held: () => held.length, release, close: () => server.close() };
}

describe('examples/server.ts', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-example-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('serves the admin API on file storage, seeds GATEWAY_CONFIG, and keeps everything across a restart', async () => {
    const configFile = join(dir, 'config.json');
    await writeFile(
      configFile,
      JSON.stringify({
        providers: [{ name: 'local', type: 'openai', config: { api_base: 'http://127.0.0.1:1/v1' }, api_keys: [{ api_key: 'sk-seeded-secret-123456789' }] }],
        routes: [{ name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'local' }] }],
        applications: [{ name: 'shop', policy: { mode: 'reject' } }],
      }),
    );
    const env = { GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATA_DIR: join(dir, 'data'), GATEWAY_SECRET: 'example-secret', GATEWAY_CONFIG: configFile };
    const headers = { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' };

    let server = await startServer(env);
    const waitForSeed = async () => {
      for (let i = 0; i < 100 && !server.output().includes('seed: applied'); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await waitForSeed();
    const created = await fetch(`${server.base}/v1/admin/templates/t1`, { method: 'POST', headers, body: JSON.stringify({ type: 'dlp' }) });
    assert.equal(created.status, 201);
    assert.equal((await fetch(`${server.base}/v1/admin/routes`)).status, 401);
    const before = await (await fetch(`${server.base}/v1/admin/routes/chat`, { headers })).json();
    assert.equal(await stop(server.child), 0);
    assert.ok(!server.output().includes('sk-seeded-secret-123456789'), 'the server log holds a secret');

    server = await startServer(env);
    await waitForSeed();
    assert.deepEqual(await (await fetch(`${server.base}/v1/admin/routes/chat`, { headers })).json(), before);
    assert.equal((await fetch(`${server.base}/v1/admin/templates/t1`, { headers })).status, 200);
    const policy = (await (await fetch(`${server.base}/v1/admin/applications/shop/policy`, { headers })).json()) as { mode: string };
    assert.equal(policy.mode, 'reject');
    const provider = (await (await fetch(`${server.base}/v1/admin/providers/local`, { headers })).json()) as { api_keys: Array<{ api_key: string }> };
    assert.equal(provider.api_keys[0]?.api_key, 'sk-...6789');
    const missing = await fetch(`${server.base}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'not_found');
    assert.equal(await stop(server.child), 0);
  });

  it('a seed that fails deletes what it created, so the next start creates the application with its policy', async () => {
    const configFile = join(dir, 'guarded.json');
    await writeFile(
      configFile,
      JSON.stringify({
        providers: [{ name: 'local', type: 'openai', config: { api_base: 'http://127.0.0.1:1/v1' } }],
        applications: [{ name: 'guarded', policy: { mode: 'reject', processors: { banned_words: { words: ['forbidden'] } } } }],
      }),
    );
    const plugin = join(dir, 'banned-words.mjs');
    await writeFile(plugin, "export default { kind: 'guardrail', name: 'banned_words', defaultThreshold: 0.5, optionsSchema: { type: 'object', properties: { words: { type: 'array' } } }, evaluate: () => ({ results: {}, flagged: false }) };\n");
    const env = { GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATA_DIR: join(dir, 'data-guarded'), GATEWAY_CONFIG: configFile, GATEWAY_PLUGINS: '' };
    const headers = { 'x-api-key': ADMIN_KEY };

    // Without the plugin the policy is refused: the server stops, and keeps neither the provider nor the application.
    let server = await startServer(env);
    const exited = server.child.exitCode ?? (await once(server.child, 'exit'))[0];
    assert.equal(exited, 1);
    assert.match(server.output(), /banned_words' is not registered.*2 item\(s\) this run created were deleted again/);

    server = await startServer({ ...env, GATEWAY_PLUGINS: plugin });
    for (let i = 0; i < 100 && !server.output().includes('seed: applied'); i++) await new Promise((r) => setTimeout(r, 50));
    const policy = (await (await fetch(`${server.base}/v1/admin/applications/guarded/policy`, { headers })).json()) as { mode: string; processors: Record<string, unknown> };
    assert.equal(policy.mode, 'reject');
    assert.deepEqual(Object.keys(policy.processors), ['banned_words']);
    assert.equal((await fetch(`${server.base}/v1/admin/providers/local`, { headers })).status, 200);
    assert.equal(await stop(server.child), 0);
  });

  it('/readyz answers 503 (an expected start, not an error) until GATEWAY_CONFIG is applied, then 200 with everything in it created', async () => {
    // The registry's tool server holds its answer, so the seed is under way for as long as the test wants.
    const toolServer = await holdingToolServer();
    const configFile = join(dir, 'slow.json');
    await writeFile(
      configFile,
      JSON.stringify({
        applications: [{ name: 'shop' }],
        registries: [{ name: 'tools', url: toolServer.url }],
      }),
    );
    const server = await startServer({ GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATA_DIR: join(dir, 'data-slow'), GATEWAY_CONFIG: configFile });
    try {
      for (let i = 0; i < 400 && toolServer.held() === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(toolServer.held() > 0, 'the seed reached the tool server');
      const pending = await fetch(`${server.base}/readyz`);
      assert.equal(pending.status, 503);
      const body = (await pending.json()) as { error: { code: string; message: string; checks: Record<string, { ok: boolean }> } };
      assert.equal(body.error.code, 'not_ready');
      assert.match(body.error.message, /config is still being applied/);
      assert.equal(body.error.checks.config?.ok, false);
      assert.equal((await fetch(`${server.base}/v1/admin/mcp/registries/tools`, { headers: { 'x-api-key': ADMIN_KEY } })).status, 404);

      toolServer.release();
      let ready = await fetch(`${server.base}/readyz`);
      for (let i = 0; i < 400 && ready.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 25));
        ready = await fetch(`${server.base}/readyz`);
      }
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { checks: Record<string, { ok: boolean }> }).checks.config?.ok, true);
      assert.equal((await fetch(`${server.base}/v1/admin/mcp/registries/tools`, { headers: { 'x-api-key': ADMIN_KEY } })).status, 200);
      assert.match(server.output(), /readiness probes answer 503: config is still being applied/);
      assert.ok(!server.output().includes('"level":"error"'), server.output());
    } finally {
      toolServer.release();
      await stop(server.child);
      toolServer.close();
    }
  });

  it('SIGTERM while GATEWAY_CONFIG is being applied waits for it: the registry is stored with its policies, and the process exits 0', async () => {
    const toolServer = await holdingToolServer();
    const release = toolServer.release;
    const configFile = join(dir, 'interrupted.json');
    await writeFile(
      configFile,
      JSON.stringify({
        registries: [{ name: 'tools', url: toolServer.url, policies: { security_filters: { mode: 'reject' } } }],
      }),
    );
    const dataDir = join(dir, 'data-interrupted');
    let server = await startServer({ GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATA_DIR: dataDir, GATEWAY_CONFIG: configFile });
    try {
      for (let i = 0; i < 400 && toolServer.held() === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(toolServer.held() > 0, 'the seed reached the tool server');
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      for (let i = 0; i < 400 && !server.output().includes('shutting down'); i++) await new Promise((r) => setTimeout(r, 25));
      // The registry's creation is still held by its tool server: the process must not stop under it.
      const early = await Promise.race([exited.then(() => 'exited'), new Promise((r) => setTimeout(() => r('running'), 1500))]);
      assert.equal(early, 'running', server.output());
      release();
      const [code] = await exited;
      assert.equal(code, 0);
      assert.match(server.output(), /seed: applied/);
    } finally {
      release();
      if (server.child.exitCode === null) await stop(server.child);
    }
    server = await startServer({ GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_DATA_DIR: dataDir });
    try {
      const policies = await fetch(`${server.base}/v1/admin/mcp/registries/tools/policies`, { headers: { 'x-api-key': ADMIN_KEY } });
      assert.equal(policies.status, 200);
      assert.equal(((await policies.json()) as { security_filters?: { mode: string } }).security_filters?.mode, 'reject');
    } finally {
      await stop(server.child);
      toolServer.close();
    }
  });

  it('prints a generated super_admin key once when GATEWAY_ADMIN_KEY is unset, and it works', async () => {
    const server = await startServer({ GATEWAY_ADMIN_KEY: '', GATEWAY_DATA_DIR: join(dir, 'data2') });
    const key = /super_admin key is: (\S+)/.exec(server.output())?.[1];
    assert.ok(key);
    assert.equal((await fetch(`${server.base}/v1/admin/routes`, { headers: { 'x-api-key': key } })).status, 200);
    await stop(server.child);
  });
});
