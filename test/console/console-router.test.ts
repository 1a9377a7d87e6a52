// gateway.console over HTTP: the built page and assets under /console with a strict CSP and no framing, and the admin endpoints it reads.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createGateway, errorMiddleware, notFoundHandler } from '../../src/index.js';
import { buildConsoleIfStale } from '../helpers/console-build.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

function assertConsoleHeaders(res: request.Response): void {
  const csp = res.headers['content-security-policy'] as string;
  assert.ok(csp, 'a Content-Security-Policy is set');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /style-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https?:/);
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
}

describe('gateway.console (the admin console router)', function () {
  this.timeout(180_000);
  let t: TestGateway;
  let app: express.Express;
  before(async () => {
    await buildConsoleIfStale();
    t = await createTestGateway();
    app = express();
    app.use(t.gateway.console);
    app.use(t.app);
  });
  after(() => t.close());

  it('16.1: serves the page at /console/ with a strict CSP, X-Frame-Options DENY and no-store; /console redirects to /console/', async () => {
    const redirect = await request(app).get('/console').expect(308);
    assert.equal(redirect.headers.location, '/console/');
    const page = await request(app).get('/console/').expect(200);
    assertConsoleHeaders(page);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.text, /<div id="app"><\/div>/);
    // No inline script or style, and nothing from another host.
    assert.doesNotMatch(page.text, /<script(?![^>]*\ssrc=)[^>]*>/);
    assert.doesNotMatch(page.text, /<style|\sstyle=/);
    assert.doesNotMatch(page.text, /(src|href)="(https?:)?\/\//);
  });

  it('16.1: serves the hashed assets it references, cached immutably, under the same headers', async () => {
    const page = await request(app).get('/console/').expect(200);
    const assets = [...page.text.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => match[1]!);
    assert.ok(assets.some((asset) => asset.endsWith('.js')) && assets.some((asset) => asset.endsWith('.css')), `assets: ${assets.join(', ')}`);
    for (const asset of assets) {
      const res = await request(app).get(`/console/${asset}`).expect(200);
      assertConsoleHeaders(res);
      assert.match(res.headers['cache-control'] as string, /immutable/);
      // The bundle holds no URL of another host to load code or styles from.
      assert.doesNotMatch(res.text, /(import|@import|url)\(?\s*["']https?:\/\//);
    }
    const missing = await request(app).get('/console/assets/nope.js').expect(404);
    assertConsoleHeaders(missing);
    assert.equal(missing.body.error.type, 'not_found_error');
  });

  it('16.1: the console is opt-in: gateway.router alone does not serve it', async () => {
    await request(t.app).get('/console/').expect(404);
  });

  it('16.1: answers 503 console_not_built in the OpenAI error shape when the assets are missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'console-missing-'));
    const gateway = createGateway({ console: { assetsDir: dir } });
    try {
      const bare = express().use(gateway.console).use(notFoundHandler).use(errorMiddleware());
      const res = await request(bare).get('/console/').expect(503);
      assert.equal(res.body.error.code, 'console_not_built');
      assertConsoleHeaders(res);
    } finally {
      await gateway.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves nothing outside its assets folder, and no dotfile, by any spelling of the path; every refusal under the same headers', async () => {
    const root = await mkdtemp(join(tmpdir(), 'console-escape-'));
    const dir = join(root, 'dist');
    await mkdir(join(dir, 'assets'), { recursive: true });
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(join(dir, 'assets', 'app.js'), 'export {};');
    await writeFile(join(dir, 'assets', '.env'), 'TOKEN=dotfile-secret');
    await writeFile(join(root, 'outside.txt'), 'outside-secret');
    const gateway = createGateway({ console: { assetsDir: dir } });
    const server = createServer(express().use(gateway.console).use(notFoundHandler).use(errorMiddleware()));
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      // Sent byte for byte (no client resolves the dots first).
      const get = (path: string) =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
          httpGet({ host: '127.0.0.1', port, path }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          }).on('error', reject);
        });
      const served = await get('/console/assets/app.js');
      assert.equal(served.status, 200);
      assert.match(String(served.headers['content-type']), /javascript/);
      for (const path of [
        '/console/assets/../../outside.txt',
        '/console/assets/..%2f..%2foutside.txt',
        '/console/assets/%2e%2e/%2e%2e/outside.txt',
        '/console/assets/..%5c..%5coutside.txt',
        '/console/assets/.env',
        '/console/assets/%2eenv',
        '/console/assets/app.js%00.html',
        '/console/index.html',
        '/console/assets/',
      ]) {
        const res = await get(path);
        assert.ok(res.status === 404 || res.status === 400 || res.status === 403, `${path}: ${res.status}`);
        assert.doesNotMatch(res.body, /secret/, path);
        assert.equal(res.headers['x-frame-options'], 'DENY', path);
        assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
        assert.match(String(res.headers['content-security-policy']), /default-src 'none'/, path);
      }
    } finally {
      server.close();
      await gateway.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('16.2: GET /v1/admin/whoami answers the key\'s name and role, and 401 without a key', async () => {
    const who = await request(app).get('/v1/admin/whoami').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(who.body, { name: 'auditor', role: 'viewer' });
    const root = await request(app).get('/v1/admin/whoami').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
    assert.equal(root.body.role, 'super_admin');
    const none = await request(app).get('/v1/admin/whoami').expect(401);
    assert.equal(none.body.error.code, 'missing_api_key');
  });

  it('16.2: GET /v1/admin/schemas/policy answers the schemas the policy endpoints validate with, and every processor', async () => {
    const res = await request(app).get('/v1/admin/schemas/policy').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.deepEqual(res.body.application.properties.mode.enum, ['inspect', 'reject']);
    assert.equal(res.body.application.properties.timeout_ms.maximum, 60000);
    assert.equal(res.body.route.properties.enabled.type, 'boolean');
    const names = res.body.processors.map((p: { name: string }) => p.name);
    for (const name of ['promptinjectiondetection', 'trustsafety', 'lang_detector', 'dlp_cloud', 'model_sanitizer']) assert.ok(names.includes(name), name);
    // What the schema says is what the API enforces: the maximum it shows is refused one above.
    await request(app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.admin).send({ name: 'schema-app' }).expect(201);
    const refused = await request(app).put('/v1/admin/applications/schema-app/policy').set('x-api-key', TEST_KEYS.admin).send({ timeout_ms: res.body.application.properties.timeout_ms.maximum + 1 }).expect(400);
    assert.equal(refused.body.error.param, 'timeout_ms');
  });

  it('16.2: GET /v1/admin/plugins lists the registered guardrail processors and provider types', async () => {
    const res = await request(app).get('/v1/admin/plugins').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.ok(res.body.guardrail.includes('dlp_cloud'));
    assert.ok(res.body.provider.includes('openai'));
  });
});
