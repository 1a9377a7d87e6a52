// Names a caller chooses (the model, a route header, a tool name) are recorded scrubbed of key shapes and URL credentials, and bounded; admin-chosen names stay as they are.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { createPinoLogger, pinoGatewayLogger } from '../../src/index.js';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { eventually } from '../helpers/eventually.js';
import { createMcpFixture } from '../helpers/mcp-fixture.js';
import { recordSpans } from '../helpers/span-recorder.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** A developer key of another application, as a caller could paste it. */
const OTHER_KEY = `gwk_${'Q7x'.repeat(10)}`;
const CREDENTIALED = 'https://bob:hunter2-password@models.example/m';

const entries = async (app: TrafficFixture['app'], query = ''): Promise<ChronicleEntry[]> =>
  (await request(app).get(`/v1/admin/applications/app/chronicles?limit=100${query}`).set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data;

describe('caller-chosen names in Chronicles, spans and logs', () => {
  const { spans } = recordSpans();

  it('11.2: a key-shaped or credentialed model (answered, refused, or as the attempt sent it) and an unknown route header are recorded scrubbed; span names and logs hold neither; ordinary names and filters are unchanged', async () => {
    const out = new PassThrough();
    let lines = '';
    out.on('data', (chunk: Buffer) => (lines += chunk.toString('utf8')));
    const f = await createTrafficFixture({ logger: pinoGatewayLogger(createPinoLogger({ destination: out })), logRequests: true });
    try {
      const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
        request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, ...headers }).send(chatBody(body));
      f.fake.script({ text: 'one' });
      await chat({ model: `fake/${OTHER_KEY}` }).expect(200); // passed through to the provider: the caller's own model
      f.fake.script({ text: 'two' });
      await chat({ model: `fake/${CREDENTIALED}` }).expect(200);
      await chat({ model: OTHER_KEY }).expect(400); // no provider serves it: refused before any attempt
      await chat({}, { 'x-gateway-route': OTHER_KEY }).expect(404);
      f.fake.script({ text: 'three' });
      await chat({}).expect(200);

      const recorded = await entries(f.app);
      assert.equal(recorded.length, 5);
      const text = JSON.stringify(recorded);
      for (const secret of [OTHER_KEY, OTHER_KEY.slice(4, 24), 'hunter2-password']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
      const [plain, route, refused, credentialed, passed] = recorded;
      assert.equal(passed!.model, '[REDACTED]');
      assert.deepEqual(passed!.attempts.map((attempt) => attempt.model), ['[REDACTED]']);
      assert.equal(credentialed!.model, 'https://***@models.example/m');
      assert.equal(credentialed!.attempts[0]!.model, 'https://***@models.example/m');
      assert.equal(refused!.model, '[REDACTED]');
      assert.equal(route!.route, '[REDACTED]');
      assert.equal(plain!.model, 'gpt-4o-mini', 'an ordinary model name is kept');
      assert.equal(plain!.provider, 'fake');
      assert.deepEqual((await entries(f.app, '&model=gpt-4o-mini')).map((entry) => entry.id), [plain!.id, route!.id], 'filters still find ordinary names');

      const names = spans().map((span) => `${span.name} ${String(span.attributes['gen_ai.request.model'] ?? '')}`).join('\n');
      // The attempt span is named by the model as labelled (`other`: the caller chose it); its attribute holds it scrubbed.
      assert.match(names, /^chat other \[REDACTED\]$/m);
      assert.ok(!names.includes(OTHER_KEY) && !names.includes('hunter2-password'), names);
      const logged = await eventually(() => {
        assert.equal(lines.split('\n').filter((line) => line.includes('"path":"/v1/chat/completions"')).length, 5);
        return lines;
      });
      assert.ok(!logged.includes(OTHER_KEY) && !logged.includes('hunter2-password'), logged);
    } finally {
      await f.close();
    }
  });

  it('11.2: a model refused as too long or holding control characters is recorded bounded to 512 characters, without them', async () => {
    const f = await createTrafficFixture();
    try {
      const model = `${'m\u0001'.repeat(20_000)}${OTHER_KEY}`;
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ model })).expect(400);
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'r'.repeat(8000) }).send(chatBody()).expect(404);
      const [route, refused] = await entries(f.app);
      assert.equal(refused!.model, 'm'.repeat(512));
      assert.equal(route!.route, 'r'.repeat(512));
    } finally {
      await f.close();
    }
  });

  it("11.2: a tools/call naming a key-shaped tool is refused and recorded with the name scrubbed; a huge name is cut like any recorded field", async () => {
    const f = await createMcpFixture({ chronicles: { maxFieldBytes: 1024 } });
    try {
      const client = await f.connect();
      // Refused with a JSON-RPC error (the SDK client throws it); the caller is told its own name.
      await assert.rejects(client.callTool({ name: `lookup ${OTHER_KEY}`, arguments: {} }), /has no tool named lookup/);
      await assert.rejects(client.callTool({ name: 't'.repeat(5000), arguments: {} }), /has no tool named/);
      const recorded = await eventually(async () => {
        const found = await entries(f.app);
        assert.equal(found.length, 2);
        return found;
      });
      const [long, keyed] = recorded;
      assert.equal(keyed!.tool_invocations[0]!.tool, 'lookup [REDACTED]');
      assert.ok(!JSON.stringify(keyed).includes(OTHER_KEY));
      assert.equal(long!.tool_invocations[0]!.tool, `${'t'.repeat(1024)}…[truncated]`);
      assert.ok(long!.truncated?.some((field) => field.field === 'tool_invocations.0.tool'));
    } finally {
      await f.close();
    }
  });
});
