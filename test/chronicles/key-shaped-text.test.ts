// Key-shaped text (another application's developer key, which is stored hashed and so cannot be matched by value) is removed from Chronicles, span content and log lines.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { createPinoLogger, defineProvider, pinoGatewayLogger } from '../../src/index.js';
import type { ChronicleEntry } from '../../src/chronicles/chronicle-entry.js';
import { scrubSecretShapes } from '../../src/secrets/secret-shapes.js';
import { eventually } from '../helpers/eventually.js';
import { createMcpFixture } from '../helpers/mcp-fixture.js';
import { recordSpans } from '../helpers/span-recorder.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** Creates application `name` with a developer key on the gateway and answers the key. */
async function otherApplicationKey(app: TrafficFixture['app'], name = 'other'): Promise<string> {
  await request(app).post('/v1/admin/applications').set('x-api-key', TEST_KEYS.superAdmin).send({ name }).expect(201);
  return (await request(app).post(`/v1/admin/applications/${name}/keys`).set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key as string;
}

const entries = async (app: TrafficFixture['app']): Promise<ChronicleEntry[]> =>
  (await request(app).get('/v1/admin/applications/app/chronicles?limit=100').set('x-api-key', TEST_KEYS.viewer).expect(200)).body.data;

/** A provider plugin whose adapter fails with the given text in its error, as a careless plugin might. */
const failingWith = (text: () => string) =>
  defineProvider({
    name: 'careless',
    openaiCompatible: true,
    buildRequest() {
      throw new Error(text());
    },
  });

describe('key-shaped text in Chronicles, span content and logs', () => {
  const { one } = recordSpans();

  describe('model traffic', () => {
    let f: TrafficFixture;
    let other = '';
    let lines = '';
    beforeEach(async () => {
      const out = new PassThrough();
      lines = '';
      out.on('data', (chunk: Buffer) => (lines += chunk.toString('utf8')));
      f = await createTrafficFixture({
        tracing: { recordContent: true },
        logger: pinoGatewayLogger(createPinoLogger({ destination: out })),
        plugins: [failingWith(() => `could not sign:\n${other}`)],
      });
      other = await otherApplicationKey(f.app);
    });
    afterEach(() => f.close());

    const chat = (body: Record<string, unknown>) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(body);

    it("11.2: another application's developer key in a prompt and an answer (JSON and stream) is not stored, nor recorded on the span; ordinary words stay", async () => {
      // After a newline: in the entry's JSON text the key follows `\n`, with no word boundary before it.
      const prompt = `my colleague's key is\n${other} (also ${other}); see the task-management-overview-document`;
      f.fake.script({ text: `You sent ${other}.` });
      await chat(chatBody({ messages: [{ role: 'user', content: prompt }] })).expect(200);
      const span = await eventually(() => one('POST /v1/chat/completions'));
      await chat(chatBody({ messages: [{ role: 'user', content: prompt }], stream: true })).expect(200);
      const recorded = await entries(f.app);
      assert.equal(recorded.length, 2);
      const text = JSON.stringify(recorded);
      assert.ok(!text.includes(other), text);
      assert.ok(!text.includes(other.slice(4, 24)), 'no part of the key is left');
      for (const entry of recorded) {
        assert.equal(entry.application, 'app');
        assert.equal(entry.output, 'You sent [REDACTED].');
        assert.match(JSON.stringify(entry.input), /key is\\n\[REDACTED\] \(also \[REDACTED\]\); see the task-management-overview-document/);
      }
      const content = `${String(span.attributes['gen_ai.input.messages'])} ${String(span.attributes['gen_ai.output.messages'])}`;
      assert.ok(content.includes('task-management-overview-document'), content);
      assert.ok(!content.includes(other), content);
      assert.match(content, /You sent \[REDACTED\]\./);
    });

    it("11.2: another application's key in a provider's error (the entry's error and attempts) and in a log line after a newline is removed", async () => {
      f.fake.script({ fail: { status: 400, message: `bad request: unknown key\n${other}` } });
      await chat(chatBody()).expect(400);
      await f.create('/v1/admin/providers', { name: 'careless', type: 'careless', config: { models: ['careless-model'] }, api_keys: [{ api_key: 'stored-careless-key-0123' }] });
      await chat(chatBody({ model: 'careless-model' })).expect(500);
      const recorded = await entries(f.app);
      assert.equal(recorded.length, 2);
      const text = JSON.stringify(recorded);
      assert.ok(!text.includes(other), text);
      assert.match(text, /\[REDACTED\]/);
      const logged = await eventually(() => {
        assert.match(lines, /could not sign/);
        return lines;
      });
      assert.ok(!logged.includes(other), logged);
    });
  });

  it("11.2: another application's developer key in an MCP tool call's arguments and result is not stored, nor recorded on its span", async () => {
    const f = await createMcpFixture({ tracing: { recordContent: true } });
    try {
      const other = await otherApplicationKey(f.app);
      const client = await f.connect();
      const result = await client.callTool({ name: 'echo', arguments: { text: `forward ${other}` } });
      assert.deepEqual(result.content, [{ type: 'text', text: `forward ${other}` }], 'the caller still gets its answer as it is');
      const span = await eventually(() => one('execute_tool echo'));
      const recorded = await entries(f.app);
      assert.equal(recorded.length, 1);
      const text = JSON.stringify(recorded);
      assert.ok(!text.includes(other), text);
      assert.deepEqual(recorded[0]!.tool_invocations[0]!.arguments, { text: 'forward [REDACTED]' });
      const content = `${String(span.attributes['gen_ai.tool.call.arguments'])} ${String(span.attributes['gen_ai.tool.call.result'])}`;
      assert.ok(!content.includes(other), content);
      assert.match(content, /forward \[REDACTED\]/);
    } finally {
      await f.close();
    }
  });

  it('11.2: the shape searches stay linear on hostile text (many prefixes, long runs, escapes, URL pieces)', () => {
    const size = 2 * 1024 * 1024;
    const hostile = [
      'sk-'.repeat(size / 3),
      'gwk_0123456789abcde '.repeat(size / 20), // one character short of a key, again and again
      `${'a'.repeat(size)}gwk_${'b'.repeat(32)}`, // a long run before the prefix: not a key start
      '\\n'.repeat(size / 2),
      '://'.repeat(size / 3),
      'https://a@b?token=x&'.repeat(size / 20),
      `https://host/?${'&'.repeat(size)}`,
    ];
    for (const text of hostile) assert.equal(typeof scrubSecretShapes(text), 'string');
    assert.equal(scrubSecretShapes('sk-'.repeat(size / 3)), '[REDACTED]', 'a single key-shaped run');
    assert.equal(scrubSecretShapes(`x gwk_${'b'.repeat(16)} y`), 'x [REDACTED] y');
    assert.equal(scrubSecretShapes(`x gwk_${'b'.repeat(15)} y`), `x gwk_${'b'.repeat(15)} y`);
  });
});
