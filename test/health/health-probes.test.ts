// /healthz and /readyz over real HTTP: liveness without I/O, readiness of storage, plugins and Redis, 503 while draining or cut off.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createGateway, defineGuardrail, memoryStorage, postgresStorage, type StorageAdapter } from '../../src/index.js';
import { createTestGateway, type TestGateway } from '../helpers/test-gateway.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { deleteKeys, requireRedis, testKeyPrefix, redisThroughCut } from '../helpers/redis-test.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import { startExampleServer } from '../helpers/example-server-process.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import express from 'express';

/** Polls /readyz until it answers `status`, up to `ms`. */
async function readyzUntil(app: express.Express, status: number, ms = 8000): Promise<request.Response> {
  const deadline = Date.now() + ms;
  let last: request.Response;
  do {
    last = await request(app).get('/readyz');
    if (last.status === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (Date.now() < deadline);
  assert.fail(`/readyz did not answer ${status} within ${ms} ms; last: ${last.status} ${last.text}`);
}

describe('15.1: health and readiness probes', () => {
  let t: TestGateway;
  beforeEach(async () => {
    t = await createTestGateway();
  });
  afterEach(() => t.close());

  it('15.1: /healthz answers 200 without a key', async () => {
    const res = await request(t.app).get('/healthz').expect(200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('15.1: /readyz answers 200 with its checks, then 503 not_ready in the error shape once drain() is called', async () => {
    const ok = await request(t.app).get('/readyz').expect(200);
    assert.equal(ok.body.status, 'ready');
    assert.deepEqual(ok.body.checks, { plugins: { ok: true }, storage: { ok: true } });
    t.gateway.drain();
    const draining = await request(t.app).get('/readyz').expect(503);
    assert.equal(draining.body.error.code, 'not_ready');
    assert.equal(draining.body.error.type, 'api_error');
    assert.match(draining.body.error.message, /draining/);
    await request(t.app).get('/healthz').expect(200);
  });
});

describe('15.1: the log lines of failed probes', () => {
  type Lines = Record<'info' | 'warn' | 'error', Array<{ message: string; fields?: Record<string, unknown> }>>;
  /** A gateway mounted under `/ops` whose plugin sets up when `finish` is called, its log lines captured. */
  function slowGateway(storage?: StorageAdapter) {
    const lines: Lines = { info: [], warn: [], error: [] };
    const capture = (level: keyof Lines) => (message: string, fields?: Record<string, unknown>) => void lines[level].push({ message, fields });
    let finish!: () => void;
    const slow = defineGuardrail({ name: 'slow_setup', defaultThreshold: 0.5, setup: () => new Promise<void>((resolve) => (finish = resolve)), evaluate: () => ({ results: {}, flagged: false }) });
    const gateway = createGateway({ plugins: [slow], storage, logger: { info: capture('info'), warn: capture('warn'), error: capture('error') } });
    const app = express();
    app.use('/ops', gateway.router);
    return { lines, gateway, app, finish: () => finish?.(), probeLines: () => lines.info.filter(({ fields }) => fields?.path === '/ops/readyz') };
  }

  it("15.1: a starting gateway's 503s (storage and plugins still loading) and a draining gateway's log one info line each, no error", async () => {
    const { lines, gateway, app, finish, probeLines } = slowGateway();
    try {
      for (let probe = 0; probe < 3; probe++) {
        const starting = await request(app).get('/ops/readyz?verbose=1').expect(503);
        assert.equal(starting.body.error.code, 'not_ready');
        assert.match(starting.body.error.message, /still loading/);
      }
      assert.deepEqual(lines.error, [], 'no error line per starting probe');
      assert.equal(probeLines().length, 1, `one info line for the whole start: ${JSON.stringify(lines.info)}`);
      assert.match(probeLines()[0]!.message, /still loading/);
      finish();
      await gateway.ready;
      await request(app).get('/ops/readyz').expect(200);
      gateway.drain();
      for (let probe = 0; probe < 3; probe++) {
        const draining = await request(app).get('/ops/readyz').expect(503);
        assert.equal(draining.body.error.code, 'not_ready');
      }
      assert.deepEqual(lines.error, [], `no error line per draining probe: ${JSON.stringify(lines.error)}`);
      assert.equal(lines.warn.length, 0);
      assert.equal(probeLines().length, 2, `one info line for the whole drain: ${JSON.stringify(lines.info)}`);
      assert.match(probeLines()[1]!.message, /draining/);
    } finally {
      finish();
      await gateway.close();
    }
  });

  it('answers which dependency failed without its error text (which names internal hosts); the log line keeps the text', async () => {
    const storage = new Proxy(memoryStorage(), {
      get: (target, name) =>
        name === 'get' ? () => Promise.reject(new Error('connect ECONNREFUSED 10.20.30.40:5432 (pg-primary.internal)')) : (Reflect.get(target, name) as unknown),
    });
    const { lines, gateway, app, finish } = slowGateway(storage);
    try {
      finish();
      await gateway.ready.catch(() => undefined);
      gateway.readiness.waitFor('config', Promise.reject(new Error('POST http://seed.internal:9000/v1/admin/routes answered 500')));
      await new Promise((resolve) => setImmediate(resolve));
      const failing = await request(app).get('/ops/readyz').expect(503);
      assert.doesNotMatch(failing.text, /10\.20\.30\.40|pg-primary|ECONNREFUSED|seed\.internal|9000/, failing.text);
      assert.equal(failing.body.error.message, 'The gateway is not ready: storage failed.');
      assert.deepEqual(failing.body.error.checks.storage, { ok: false, error: 'storage failed' });
      assert.deepEqual(failing.body.error.checks.config, { ok: false, error: 'config failed' });
      const cause = String(lines.error.at(-1)?.fields?.cause);
      assert.match(cause, /storage: connect ECONNREFUSED 10\.20\.30\.40:5432 \(pg-primary\.internal\)/);
      assert.match(cause, /config: POST http:\/\/seed\.internal:9000/);
    } finally {
      finish();
      await gateway.close();
    }
  });

  it("15.1: a 503 for storage down is an error line naming the probe's whole path, mount prefix included, while starting too", async () => {
    let down = true;
    const inner = memoryStorage();
    const storage = new Proxy(inner, {
      get: (target, name) =>
        name === 'get' ? (key: string) => (down ? Promise.reject(new Error('connection refused')) : target.get(key)) : (Reflect.get(target, name) as unknown),
    });
    const { lines, gateway, app, finish, probeLines } = slowGateway(storage);
    try {
      const failing = await request(app).get('/ops/readyz?verbose=1').expect(503);
      assert.equal(failing.body.error.checks.storage.ok, false);
      assert.deepEqual(lines.error.map(({ message, fields }) => [message, fields?.path, fields?.code]), [['request failed', '/ops/readyz', 'not_ready']]);
      down = false;
      await request(app).get('/ops/readyz').expect(503);
      assert.equal(lines.error.length, 1, 'storage back while still starting: no error line');
      assert.equal(probeLines().length, 1);
      finish();
      await gateway.ready;
      await request(app).get('/ops/readyz').expect(200);
      down = true;
      await request(app).get('/ops/readyz').expect(503);
      assert.equal(lines.error.length, 2, 'storage down once started: an error line');
    } finally {
      down = false;
      finish();
      await gateway.close();
    }
  });
});

describe('15.1: /readyz before the plugins are set up', () => {
  it('15.1: answers 503 while a plugin is still setting up, and 200 once it is, without waiting for it', async () => {
    let finish!: () => void;
    const slow = defineGuardrail({ name: 'slow_setup', defaultThreshold: 0.5, setup: () => new Promise<void>((resolve) => (finish = resolve)), evaluate: () => ({ results: {}, flagged: false }) });
    const gateway = createGateway({ plugins: [slow] });
    const app = express().use(gateway.router);
    try {
      const early = await request(app).get('/readyz').expect(503);
      assert.match(early.body.error.message, /still loading/);
      assert.equal(early.body.error.checks.plugins.ok, false);
      await request(app).get('/healthz').expect(200);
      finish();
      await gateway.ready;
      await request(app).get('/readyz').expect(200);
    } finally {
      finish?.();
      await gateway.close();
    }
  });
});

describe('15.1: /readyz with PostgreSQL cut off', function () {
  requirePostgres();
  let relay: TcpCut;
  let schema: string;
  let t: TestGateway;
  beforeEach(async () => {
    schema = testSchemaName();
    const target = new URL(TEST_DATABASE_URL);
    relay = await tcpCut(target.hostname, Number(target.port || 5432));
    target.port = String(relay.port);
    t = await createTestGateway({ storage: postgresStorage({ connectionString: target.toString(), schema, connectionTimeoutMillis: 1000, queryTimeoutMillis: 500 }) });
  });
  afterEach(async () => {
    await relay.restore();
    await t.close();
    await relay.close();
    await dropSchema(schema);
  });

  it('15.1: answers 503 naming storage while PostgreSQL is unreachable, and 200 again once it is back', async () => {
    await request(t.app).get('/readyz').expect(200);
    await relay.cut();
    const down = await readyzUntil(t.app, 503);
    assert.equal(down.body.error.code, 'not_ready');
    assert.equal(down.body.error.checks.storage.ok, false);
    assert.match(down.body.error.message, /storage/);
    assert.ok(!down.text.includes(String(relay.port)), 'the answer names the database address');
    await relay.restore();
    await readyzUntil(t.app, 200);
  });
});

describe('15.1: /readyz with Redis cut off', function () {
  requireRedis();
  let relay: TcpCut;
  let prefix: string;
  let t: TestGateway;
  beforeEach(async () => {
    prefix = testKeyPrefix();
    let url: string;
    ({ relay, url } = await redisThroughCut());
    t = await createTestGateway({ redis: { url, keyPrefix: prefix, maxReconnectDelayMs: 100 } });
  });
  afterEach(async () => {
    await relay.restore();
    await t.close();
    await relay.close();
    await deleteKeys(prefix);
  });

  it('15.1: answers 503 naming Redis while it is unreachable, and 200 again once it is back', async () => {
    const up = await readyzUntil(t.app, 200);
    assert.deepEqual(up.body.checks.redis, { ok: true });
    await relay.cut();
    const down = await readyzUntil(t.app, 503);
    assert.equal(down.body.error.checks.redis.ok, false);
    assert.equal(down.body.error.checks.storage.ok, true);
    assert.match(down.body.error.message, /Redis/);
    await relay.restore();
    await readyzUntil(t.app, 200);
  });
});

describe('15.1: the example server drains on SIGTERM', function () {
  this.timeout(40_000);
  it('15.1: /readyz answers 503 during the drain delay after SIGTERM while /healthz still answers, then the server exits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-drain-'));
    const server = await startExampleServer({ GATEWAY_ADMIN_KEY: 'drain-test-admin-key-0123456789', GATEWAY_DATA_DIR: dir, GATEWAY_DRAIN_SECONDS: '3', GATEWAY_DATABASE_URL: '', GATEWAY_REDIS_URL: '' });
    try {
      assert.equal((await fetch(`${server.base}/readyz`)).status, 200);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      let status = 0;
      for (const deadline = Date.now() + 2500; Date.now() < deadline && status !== 503; ) {
        status = (await fetch(`${server.base}/readyz`)).status;
      }
      assert.equal(status, 503, 'readyz did not turn 503 after SIGTERM');
      assert.equal((await fetch(`${server.base}/healthz`)).status, 200);
      const [code] = await exited;
      assert.equal(code, 0);
    } finally {
      server.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
