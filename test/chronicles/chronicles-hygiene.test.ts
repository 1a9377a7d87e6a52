// Chronicles hygiene: no echoed secret in any form, 499 with the partial output, bounded fields, a running usage graph.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { fileStorage, memoryStorage, Storage } from '../../src/index.js';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { ChroniclesRecorder } from '../../src/chronicles/chronicles-recorder.js';
import { createMcpFixture, REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { createTestGateway, TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const PROVIDER_KEY = 'sk-stored-provider-key-0001';

/** Every form of `secret` a scrubbed text must not hold. */
function forms(secret: string): string[] {
  return [secret, secret.toUpperCase(), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), Buffer.from(`x${secret}`).toString('base64').slice(2, -2)];
}

const entries = async (f: { app: TrafficFixture['app'] }, app = 'app'): Promise<ChronicleEntry[]> =>
  (await request(f.app).get(`/v1/admin/applications/${app}/chronicles?limit=100`).set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data;

describe('Chronicles hygiene', () => {
  describe('over model traffic', () => {
    let f: TrafficFixture;
    beforeEach(async () => {
      f = await createTrafficFixture({ chronicles: { maxFieldBytes: 4096 } });
      await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    });
    afterEach(() => f.close());

    const chat = (body = chatBody()) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' }).send(body);

    it('11.2: a provider key echoed by the provider in a 200 answer (plain, upper case, base64), in JSON and in a stream, is not stored', async () => {
      const echo = `Your key is ${PROVIDER_KEY}, shouting ${PROVIDER_KEY.toUpperCase()}, encoded ${Buffer.from(PROVIDER_KEY).toString('base64')} and ${Buffer.from(`Basic:${PROVIDER_KEY}`).toString('base64')}.`;
      f.fake.script({ text: echo });
      await chat().expect(200);
      await chat(chatBody({ stream: true })).expect(200);
      const recorded = await entries(f);
      assert.equal(recorded.length, 2);
      const text = JSON.stringify(recorded);
      for (const form of forms(PROVIDER_KEY)) assert.ok(!text.includes(form), `found ${form}`);
      // The relay already masked every form in what it sent (as error messages mask it), the JSON answer and the stream
      // alike: forms cut across two events included, as it reads each text the client joins as one.
      for (const entry of recorded) assert.match(entry.output!, /Your key is sk-\.\.\.0001, shouting sk-\.\.\.0001, encoded sk-\.\.\.0001/);
    });

    it('11.9: a client that leaves mid-stream is recorded as 499 with the partial output', async () => {
      f.fake.script({ text: 'one two three four five six', chunks: 6, chunkDelayMs: 150 });
      const server = f.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        await new Promise<void>((resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' } },
            (res) => {
              let seen = '';
              res.on('data', (chunk: Buffer) => {
                seen += chunk.toString();
                if ((seen.match(/"content":"[^"]/g) ?? []).length >= 2) {
                  req.destroy(); // leave after the second content chunk
                  resolve();
                }
              });
              res.on('error', () => undefined);
            },
          );
          req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
          req.end(JSON.stringify(chatBody({ stream: true })));
        });
        let recorded: ChronicleEntry[] = [];
        for (let tries = 0; recorded.length === 0 && tries < 200; tries++) {
          recorded = await entries(f);
          if (recorded.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.equal(recorded.length, 1);
        assert.equal(recorded[0]!.status, 499);
        assert.equal(recorded[0]!.error?.code, 'client_disconnected');
        assert.equal(recorded[0]!.stream, true);
        const output = recorded[0]!.output;
        assert.ok(output !== null && output.length > 0 && 'one two three four five six'.startsWith(output), `output: ${output}`);
        assert.ok(!output.includes('six'));
        // The provider's usage chunk never came: the stream is still paid for, with usage estimated from its text.
        const usage = recorded[0]!.usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number; estimated?: boolean } | null;
        assert.equal(usage?.estimated, true, JSON.stringify(usage));
        assert.equal(usage.completion_tokens, Math.ceil(output.length / 4));
        assert.ok(usage.prompt_tokens >= 1 && usage.total_tokens === usage.prompt_tokens + usage.completion_tokens);
        assert.ok((recorded[0]!.cost?.usd ?? 0) > 0, `cost: ${JSON.stringify(recorded[0]!.cost)}`);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    it('11.3: a large answer and input are cut to chronicles.maxFieldBytes with a truncated marker', async () => {
      const big = 'word '.repeat(60_000); // 300 KB
      f.fake.script({ text: big });
      await chat(chatBody({ messages: [{ role: 'user', content: big }] })).expect(200);
      const [entry] = await entries(f);
      assert.ok(Buffer.byteLength(JSON.stringify(entry)) < 20_000, `entry of ${Buffer.byteLength(JSON.stringify(entry))} bytes`);
      assert.equal(typeof entry!.output, 'string');
      assert.ok(entry!.output!.endsWith('…[truncated]'));
      assert.ok(Buffer.byteLength(entry!.output!) <= 4096 + Buffer.byteLength('…[truncated]'));
      assert.ok((entry!.input as string).startsWith('[{"role":"user","content":"word word'));
      assert.deepEqual(
        entry!.truncated!.map((cut) => cut.field).sort(),
        ['input', 'output'],
      );
      assert.equal(entry!.truncated!.find((cut) => cut.field === 'output')!.bytes, Buffer.byteLength(big));
    });
  });

  it('11.2: a registry token, provider key and developer key echoed in a tool result (any case, base64) are not stored', async () => {
    const f = await createMcpFixture();
    try {
      await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin)
        .send({ name: 'p', type: 'openai', config: { api_base: 'http://127.0.0.1:9/v1' }, api_keys: [{ api_key_secret_name: 'k', api_key: PROVIDER_KEY }] }).expect(201);
      f.mcp.setLookupResult(
        `token ${REGISTRY_TOKEN.toUpperCase()} ${Buffer.from(REGISTRY_TOKEN).toString('base64')} key ${Buffer.from(PROVIDER_KEY).toString('base64url')} ` +
          `developer key ${f.developerKey.toUpperCase()} ${Buffer.from(f.developerKey).toString('base64')}`,
      );
      const client = await f.connect();
      await client.callTool({ name: 'lookup', arguments: { query: 'x' } });
      const text = JSON.stringify(await entries(f));
      assert.match(text, /lookup/);
      for (const form of [...forms(REGISTRY_TOKEN), ...forms(PROVIDER_KEY), ...forms(f.developerKey)]) assert.ok(!text.includes(form), `found ${form}`);
    } finally {
      await f.close();
    }
  });

  it('11.3: pages through a file log newest first with cursors, and refuses a cursor whose entry a trim removed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-chronicles-pages-'));
    const t = await createTestGateway({ storage: fileStorage({ dir }) });
    try {
      await request(t.app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'app' }).expect(201);
      const base = { application: 'app', kind: 'model', endpoint: '/v1/chat/completions', route: 'r', provider: 'p', model: 'm', status: 200, latency_ms: 1,
        stream: false, attempts: [], input: null, output: 'x', usage: null, guardrail_checks: [], tool_invocations: [], error: null };
      const now = Date.now();
      await t.gateway.storage.append('chronicles/app', Array.from({ length: 250 }, (_, n) => ({ ...base, id: `e${n}`, timestamp: new Date(now - 250 + n).toISOString(), status: n % 2 ? 200 : 500 })));
      const page = (query: string) => request(t.app).get(`/v1/admin/applications/app/chronicles?${query}`).set('x-api-key', TEST_KEYS.viewer);
      const seen: string[] = [];
      let cursor: string | null = null;
      const cursors: string[] = [];
      do {
        const res: request.Response = await page(`limit=100${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        seen.push(...res.body.data.map((e: ChronicleEntry) => e.id));
        cursor = res.body.next_cursor;
        if (cursor) cursors.push(cursor);
      } while (cursor);
      assert.deepEqual(seen, Array.from({ length: 250 }, (_, n) => `e${249 - n}`));
      const failed = await page('limit=3&status=500').expect(200);
      assert.deepEqual(failed.body.data.map((e: ChronicleEntry) => e.id), ['e248', 'e246', 'e244']);
      const next = await page(`limit=3&status=500&cursor=${failed.body.next_cursor}`).expect(200);
      assert.deepEqual(next.body.data.map((e: ChronicleEntry) => e.id), ['e242', 'e240', 'e238']);
      await t.gateway.storage.trimLog('chronicles/app', 50);
      const stale = await page(`limit=100&cursor=${cursors[1]}`).expect(400);
      assert.equal(stale.body.error.param, 'cursor');
      await page('limit=1&cursor=not-a-cursor').expect(400);
    } finally {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('recorder', () => {
    const toolEntry = (id: string, output: string, timestamp = new Date().toISOString()): ChronicleEntry => ({
      id, timestamp, application: 'app', kind: 'tool', endpoint: '/v1/mcp/tools', route: null, provider: 'tools', model: null, status: 200,
      latency_ms: 1, stream: false, attempts: [], input: { query: 'x' }, output, usage: null,
      guardrail_checks: [{ processor: 'dlp_cloud', phase: 'tool_result' as never, request_reject: false, triggered: [], results: [{ content: output, strategy: 'mask', findings: [] }], latency_ms: 1 }],
      tool_invocations: [{ tool: 'lookup', registry: 'tools', arguments: { query: 'x' }, result: output, latency_ms: 1,
        guardrail_checks: [{ processor: 'dlp_cloud', phase: 'tool_result' as never, request_reject: false, triggered: [], results: [{ content: output, strategy: 'mask', findings: [] }], latency_ms: 1 }] }],
      error: null,
    });

    it('11.3: a 30 MB tool result becomes a line of a few hundred KB at most, with the DLP text not stored again', async () => {
      const storage = new Storage(memoryStorage());
      await storage.init();
      const recorder = new ChroniclesRecorder(storage);
      try {
        const huge = 'r'.repeat(30 * 1024 * 1024);
        const given = toolEntry('big', huge);
        recorder.record(given);
        await recorder.flush();
        // What the request still holds (its checks and invocation) is not changed by recording.
        assert.equal(given.tool_invocations[0]!.result, huge);
        assert.equal((given.guardrail_checks[0]!.results as Array<{ content: string }>)[0]!.content, huge);
        const page = await storage.readLogBackward<ChronicleEntry>('chronicles/app', { limit: 1 });
        const line = JSON.stringify(page!.records[0]!.value);
        assert.ok(line.length < 4 * 33 * 1024, `the line is ${line.length} bytes`);
        const stored = page!.records[0]!.value;
        assert.ok(stored.output!.endsWith('…[truncated]'));
        assert.ok((stored.tool_invocations[0]!.result as string).endsWith('…[truncated]'));
        assert.deepEqual(stored.truncated, [
          { field: 'output', bytes: huge.length },
          { field: 'tool_invocations.0.result', bytes: huge.length },
        ]);
        assert.ok(!line.includes('"content"'), 'the DLP-transformed text is the recorded output; it is not stored again');
      } finally {
        await recorder.close();
        await storage.close();
      }
    });

    it('11.3: the age sweep reads the log newest first and trims what is older than maxAgeMs', async () => {
      const storage = new Storage(memoryStorage());
      await storage.init();
      let now = Date.parse('2030-01-01T00:10:00.000Z');
      const recorder = new ChroniclesRecorder(storage, { retention: { maxAgeMs: 5 * 60_000 }, now: () => now });
      try {
        for (let minute = 0; minute < 10; minute++) recorder.record(toolEntry(`m${minute}`, 'ok', `2030-01-01T00:0${minute}:00.000Z`));
        await recorder.flush();
        assert.deepEqual((await recorder.entries('app')).map((e) => e.id), ['m5', 'm6', 'm7', 'm8', 'm9']);
        await recorder.sweep();
        assert.deepEqual((await storage.readLog<ChronicleEntry>('chronicles/app')).map((e) => e.id), ['m5', 'm6', 'm7', 'm8', 'm9']);
        now += 3 * 60_000;
        await recorder.sweep();
        assert.deepEqual((await storage.readLog<ChronicleEntry>('chronicles/app')).map((e) => e.id), ['m8', 'm9']);
      } finally {
        await recorder.close();
        await storage.close();
      }
    });

    it('11.3: the usage graph is a stored running aggregate, not recomputed from the log', async () => {
      const storage = new Storage(memoryStorage());
      await storage.init();
      const recorder = new ChroniclesRecorder(storage);
      try {
        for (let i = 0; i < 3; i++) recorder.record(toolEntry(`t${i}`, 'ok', `2030-01-01T00:00:0${i}.000Z`));
        await recorder.flush();
        recorder.record(toolEntry('t3', 'ok', '2030-01-01T00:00:09.000Z'));
        await recorder.flush();
        assert.deepEqual(await recorder.graph('app'), { nodes: [{ tool: 'lookup', server: 'tools', requests: 4, last_used: '2030-01-01T00:00:09.000Z' }] });
        // Retention may drop entries; the graph stays, read without touching the log.
        await storage.rewriteLog('chronicles/app', []);
        const reopened = new ChroniclesRecorder(storage);
        assert.equal((await reopened.graph('app')).nodes[0]!.requests, 4);
        await reopened.close();
      } finally {
        await recorder.close();
        await storage.close();
      }
    });
  });
});
