// Logs: pino JSON lines with the request id on every line, secrets redacted by path and scrubbed by value; x-request-id on every answer.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { createPinoLogger, defineProvider, pinoGatewayLogger, type GatewayLogger } from '../../src/index.js';
import { eventually } from '../helpers/eventually.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STORED_KEY = 'stored-leaky-key-0123456789'; // not key-shaped: only the scrubber's stored-secret set can catch it

/** A provider whose adapter fails with the provider key in its error message, as a careless plugin might. */
const leakyProvider = defineProvider({
  name: 'leaky',
  openaiCompatible: true,
  buildRequest(context) {
    throw new Error(`could not sign the request with ${context.apiKey?.value ?? ''}`);
  },
});

/** A pino logger writing into memory, and its parsed lines. */
function memoryPino(): { logger: GatewayLogger; lines: () => Array<Record<string, unknown>> } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return {
    logger: pinoGatewayLogger(createPinoLogger({ destination: out })),
    lines: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A provider whose adapter fails quoting the whole request body, prompt included, as a careless plugin might. */
const quotingProvider = defineProvider({
  name: 'quoting',
  openaiCompatible: true,
  buildRequest(context) {
    throw new Error(`cannot send ${JSON.stringify(context.body)}`);
  },
});

describe('observability: request ids and logs', () => {
  let f: TrafficFixture;
  let log: ReturnType<typeof memoryPino>;
  beforeEach(async () => {
    log = memoryPino();
    f = await createTrafficFixture({ logger: log.logger, logRequests: true, plugins: [leakyProvider, quotingProvider] });
  });
  afterEach(() => f.close());

  it('15.4: every answer carries x-request-id: a sane client id is kept, an unsafe or overlong one is replaced', async () => {
    const kept = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-request-id': 'trace-abc_123:4.5' }).send(chatBody()).expect(200);
    assert.equal(kept.headers['x-request-id'], 'trace-abc_123:4.5');
    const unsafe = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-request-id': 'bad id <script>"' }).send(chatBody()).expect(200);
    assert.match(unsafe.headers['x-request-id'], UUID);
    const long = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-request-id': 'a'.repeat(129) }).send(chatBody()).expect(200);
    assert.match(long.headers['x-request-id'], UUID);
    // Errors, the admin API and unknown paths too.
    const refused = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', 'gwk_not-a-real-key-000000000000').send(chatBody()).expect(401);
    assert.match(refused.headers['x-request-id'], UUID);
    assert.equal(refused.body.error.code, 'invalid_api_key');
    assert.match((await request(f.app).get('/v1/admin/routes').set('x-api-key', TEST_KEYS.viewer).expect(200)).headers['x-request-id'], UUID);
    assert.match((await request(f.app).get('/no/such/path').expect(404)).headers['x-request-id'], UUID);
    const ids = new Set([unsafe.headers['x-request-id'], long.headers['x-request-id'], refused.headers['x-request-id']]);
    assert.equal(ids.size, 3, 'a new id per request');
  });

  it('15.4: a JSON log line per request carries the request id; no line carries a developer key or a stored provider key', async () => {
    await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-request-id': 'req-0001' }).send(chatBody()).expect(200);
    await f.create('/v1/admin/providers', { name: 'leaky', type: 'leaky', config: { models: ['leaky-model'] }, api_keys: [{ api_key: STORED_KEY }] });
    const failed = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model: 'leaky-model' })).expect(500);
    const failedId = failed.headers['x-request-id'];
    const lines = await eventually(() => {
      const all = log.lines();
      assert.ok(all.some((line) => line.message === 'request' && line.request_id === failedId));
      return all;
    });
    const ok = lines.find((line) => line.message === 'request' && line.request_id === 'req-0001');
    assert.ok(ok, 'the access line of the first request');
    assert.equal(ok.level, 'info');
    assert.equal(ok.method, 'POST');
    assert.equal(ok.path, '/v1/chat/completions');
    assert.equal(ok.status, 200);
    assert.equal(ok.route, '(unified)');
    assert.equal(ok.provider, 'fake');
    assert.equal(typeof ok.duration_ms, 'number');
    assert.equal(typeof ok.time, 'string');
    const failure = lines.find((line) => line.message === 'request failed');
    assert.ok(failure, 'the 500 is logged');
    assert.equal(failure.request_id, failedId, 'the error line carries the request id too');
    assert.match(String(failure.cause), /could not sign the request with \[REDACTED\]/);
    const text = JSON.stringify(lines);
    assert.ok(!text.includes(STORED_KEY), 'the stored provider key is scrubbed');
    assert.ok(!text.includes(f.developerKey), 'the developer key is never logged');
    for (const line of lines.filter((entry) => entry.message === 'request' || entry.message === 'request failed')) assert.ok(line.request_id, 'every request line has its id');
  });

  it("a failure's cause is cut on its log line: a plugin quoting a 100 KB prompt does not write it to the log", async () => {
    await f.create('/v1/admin/providers', { name: 'quoting', type: 'quoting', config: { models: ['quoting-model'] }, api_keys: [{ api_key: 'quoting-provider-key-0001' }] });
    const prompt = 'confidential paragraph. '.repeat(4200);
    const failed = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model: 'quoting-model', messages: [{ role: 'user', content: prompt }] })).expect(500);
    const line = await eventually(() => {
      const found = log.lines().find((entry) => entry.message === 'request failed' && entry.request_id === failed.headers['x-request-id']);
      assert.ok(found);
      return found;
    });
    assert.match(String(line.cause), /^cannot send /);
    assert.ok(String(line.cause).length <= 1025, `cause of ${String(line.cause).length} characters`);
    // A stored key the cut would go through is not left half there for the scrubber to miss.
    const cutKey = 'cutacrossthestoredkey0123456789';
    await f.create('/v1/admin/providers', { name: 'quoting2', type: 'quoting', config: { models: ['quoting-model-2'] }, api_keys: [{ api_key: cutKey }] });
    const padded = `${'x'.repeat(1000 - 'cannot send {"model":"quoting-model-2","messages":[{"role":"user","content":"'.length)} ${cutKey} tail`;
    const second = await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model: 'quoting-model-2', messages: [{ role: 'user', content: padded }] })).expect(500);
    const cut = await eventually(() => {
      const found = log.lines().find((entry) => entry.message === 'request failed' && entry.request_id === second.headers['x-request-id']);
      assert.ok(found);
      return String(found.cause);
    });
    assert.ok(!cut.includes(cutKey.slice(0, 12)), cut.slice(-60));
  });

  it('15.4: pino redact paths hide credentials in logged fields', () => {
    const memory = memoryPino();
    memory.logger.warn('upstream refused', { headers: { authorization: 'Bearer abc', 'x-api-key': 'k1' }, api_key: 'sk-abc', provider: { token: 't1' }, kept: 'visible' });
    const [line] = memory.lines();
    assert.equal((line!.headers as Record<string, string>).authorization, '[REDACTED]');
    assert.equal((line!.headers as Record<string, string>)['x-api-key'], '[REDACTED]');
    assert.equal(line!.api_key, '[REDACTED]');
    assert.equal((line!.provider as Record<string, string>).token, '[REDACTED]');
    assert.equal(line!.kept, 'visible');
  });

  it('15.4: a line of plain values skips no redact path that names one of its fields, and a host pino logger keeps its own redaction', () => {
    const memory = memoryPino();
    memory.logger.info('flat', { token: 't1', password: 'p1', secret: 's1', kept: 'visible', count: 3, nothing: null });
    const [flat] = memory.lines();
    assert.deepEqual(
      { token: flat!.token, password: flat!.password, secret: flat!.secret, kept: flat!.kept, count: flat!.count, nothing: flat!.nothing },
      { token: '[REDACTED]', password: '[REDACTED]', secret: '[REDACTED]', kept: 'visible', count: 3, nothing: null },
    );
    // Extra paths given to createPinoLogger count too, top-level names and bracketed ones alike.
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const extra = pinoGatewayLogger(createPinoLogger({ destination: out, redact: ['method', '["x-tenant"]'] }));
    extra.info('request', { method: 'POST', 'x-tenant': 'acme', status: 200 });
    // A pino logger the host made itself: its paths are not known to the gateway, so every line goes through them.
    const hostPino = pinoGatewayLogger(pino({ redact: ['request_id'] }, out));
    hostPino.info('request', { request_id: 'req-1', status: 200 });
    const [own, host] = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual([own!.method, own!['x-tenant'], own!.status], ['[REDACTED]', '[REDACTED]', 200]);
    assert.deepEqual([host!.request_id, host!.status], ['[Redacted]', 200]);
  });

  it('15.4: a host logger (any object with info, warn and error) still receives the lines, with the request id', async () => {
    const seen: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const host: GatewayLogger = {
      info: (message, fields) => seen.push({ message, fields }),
      warn: (message, fields) => seen.push({ message, fields }),
      error: (message, fields) => seen.push({ message, fields }),
    };
    const g = await createTrafficFixture({ logger: host, logRequests: true });
    try {
      const res = await request(g.app).post('/v1/chat/completions').set('x-gateway-apikey', g.developerKey).send(chatBody()).expect(200);
      const line = await eventually(() => {
        const found = seen.find((entry) => entry.message === 'request' && entry.fields?.path === '/v1/chat/completions');
        assert.ok(found);
        return found;
      });
      assert.equal(line.fields?.request_id, res.headers['x-request-id']);
    } finally {
      await g.close();
    }
  });
});
