// OpenTelemetry traces: the Node SDK with an in-memory exporter checks span names, parents and attributes, and the traceparent sent upstream.
import assert from 'node:assert/strict';
import { SpanKind } from '@opentelemetry/api';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { recordSpans } from '../helpers/span-recorder.js';
import { FAKE_USAGE } from '../helpers/fake-provider.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { bannedWords } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const CLIENT_TRACEPARENT = `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`;

describe('observability: traces without an SDK', () => {
  it('15.3: with no SDK registered, nothing is traced and no traceparent goes upstream', async () => {
    const f = await createTrafficFixture();
    try {
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody()).expect(200);
      assert.equal(f.fake.requests[0]?.headers.traceparent, undefined);
    } finally {
      await f.close();
    }
  });
});

describe('observability: traces with the Node SDK', () => {
  const { named, one, parentOf, spans } = recordSpans();

  describe('model requests', () => {
    let f: TrafficFixture;
    beforeEach(async () => {
      f = await createTrafficFixture({ plugins: [bannedWords] });
      await f.create('/v1/admin/routes', {
        name: 'support',
        type: 'chat',
        config: { settings: { retries: 1 } },
        models: [{ name: 'primary-model', provider: 'fake', weight: 1 }],
      });
    });
    afterEach(() => f.close());

    const chat = (body = chatBody(), headers: Record<string, string> = {}) =>
      request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'support', ...headers }).send(body);

    it('15.3: a request span continues the client trace, each upstream attempt is a CLIENT child with GenAI attributes, and the provider receives its traceparent', async () => {
      f.fake.script([{ fail: { status: 503 } }]);
      await chat(chatBody(), { traceparent: CLIENT_TRACEPARENT }).expect(200);
      const server = await eventually(() => one('POST /v1/chat/completions'));
      assert.equal(server.kind, SpanKind.SERVER);
      assert.equal(server.spanContext().traceId, CLIENT_TRACE_ID, 'the client trace goes on');
      assert.equal(parentOf(server), CLIENT_SPAN_ID);
      assert.equal(server.attributes['gen_ai.operation.name'], 'chat');
      assert.equal(server.attributes['gen_ai.provider.name'], 'openai');
      assert.equal(server.attributes['gen_ai.request.model'], 'primary-model');
      assert.equal(server.attributes['gen_ai.response.model'], 'primary-model');
      assert.equal(server.attributes['gen_ai.usage.input_tokens'], FAKE_USAGE.prompt);
      assert.equal(server.attributes['gen_ai.usage.output_tokens'], FAKE_USAGE.completion);
      assert.equal(server.attributes['http.response.status_code'], 200);
      assert.equal(server.attributes['gen_ai.input.messages'], undefined, 'no prompt unless recordContent');

      const attempts = named('chat primary-model');
      assert.equal(attempts.length, 2, 'a failed attempt and its retry');
      for (const attempt of attempts) {
        assert.equal(attempt.kind, SpanKind.CLIENT);
        assert.equal(parentOf(attempt), server.spanContext().spanId);
        assert.equal(attempt.spanContext().traceId, CLIENT_TRACE_ID);
        assert.equal(attempt.attributes['gen_ai.request.model'], 'primary-model');
        assert.equal(attempt.attributes['gateway.provider'], 'fake');
      }
      const [succeeded, failed] = [...attempts].sort((a, b) => Number(a.attributes['http.response.status_code']) - Number(b.attributes['http.response.status_code']));
      assert.equal(succeeded!.attributes['http.response.status_code'], 200);
      assert.equal(succeeded!.attributes['gen_ai.usage.output_tokens'], FAKE_USAGE.completion);
      assert.equal(failed!.attributes['http.response.status_code'], 503);
      assert.equal(failed!.attributes['error.type'], 'http_5xx');
      // The fake provider received each attempt's own span as the parent.
      const received = f.fake.requests.map((r) => r.headers.traceparent);
      assert.equal(received.length, 2);
      for (const attempt of attempts) assert.ok(received.includes(`00-${CLIENT_TRACE_ID}-${attempt.spanContext().spanId}-01`), `traceparent of ${attempt.spanContext().spanId}`);
    });

    it('a client trace that is not sampled goes on unsampled: the provider receives its trace id with the flag off, and nothing is recorded', async () => {
      f.fake.script([{ fail: { status: 503 } }]);
      await chat(chatBody(), { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-00` }).expect(200);
      const received = f.fake.requests.map((r) => String(r.headers.traceparent));
      assert.equal(received.length, 2, 'a failed attempt and its retry');
      for (const traceparent of received) {
        const [version, traceId, parentId, flags] = traceparent.split('-');
        assert.deepEqual([version, traceId, flags], ['00', CLIENT_TRACE_ID, '00'], traceparent);
        assert.match(parentId!, /^[0-9a-f]{16}$/);
        assert.notEqual(parentId, CLIENT_SPAN_ID, "the gateway's own span is the provider's parent");
      }
      // Both attempts name the same parent: the gateway's request span, since no attempt span is made for a trace nobody records.
      assert.equal(new Set(received).size, 1);
      const entry = await eventually(async () => {
        const list = await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
        assert.ok(list.body.data[0], 'the entry was written');
        return list.body.data[0] as { trace_id?: string };
      });
      assert.equal(entry.trace_id, CLIENT_TRACE_ID, 'the Chronicles entry still names the trace');
      assert.deepEqual(spans().filter((span) => span.spanContext().traceId === CLIENT_TRACE_ID).map((span) => span.name), [], 'no span of the trace is exported');
    });

    it('a client\'s baggage never goes upstream: the provider receives the trace context only', async () => {
      await chat(chatBody(), { traceparent: CLIENT_TRACEPARENT, baggage: 'session=internal-0123,user=alice' }).expect(200);
      const sent = f.fake.requests.at(-1)!.headers;
      assert.match(String(sent.traceparent), new RegExp(`^00-${CLIENT_TRACE_ID}-`));
      assert.equal(sent.baggage, undefined);
    });

    it('15.3: each guardrail processor gets a child span of the request', async () => {
      await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.superAdmin).send({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } }).expect(200);
      await chat(chatBody({ messages: [{ role: 'user', content: 'a forbidden word' }] })).expect(400);
      const server = await eventually(() => one('POST /v1/chat/completions'));
      const check = one('guardrail banned_words');
      assert.equal(parentOf(check), server.spanContext().spanId);
      assert.equal(check.attributes['gateway.guardrail.action'], 'reject');
      assert.equal(check.attributes['gateway.guardrail.phase'], 'input');
      assert.equal(server.attributes['http.response.status_code'], 400);
      assert.equal(named('chat primary-model').length, 0, 'no upstream call');
    });

    it('15.3: the Chronicles entry records the trace id and the request id', async () => {
      const res = await chat(chatBody(), { traceparent: CLIENT_TRACEPARENT, 'x-request-id': 'client-req-42' }).expect(200);
      assert.equal(res.headers['x-request-id'], 'client-req-42');
      const entry = await eventually(async () => {
        const list = await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
        assert.ok(list.body.data[0], 'the entry was written');
        return list.body.data[0] as { trace_id?: string; request_id?: string };
      });
      assert.equal(entry.trace_id, CLIENT_TRACE_ID);
      assert.equal(entry.request_id, 'client-req-42');
    });
  });

  it('15.3: prompts and answers are recorded on the request span only with recordContent, without the credentials', async () => {
    const f = await createTrafficFixture({ tracing: { recordContent: true } });
    try {
      const body = chatBody({ messages: [{ role: 'user', content: `tell me a story, my key is ${f.developerKey}` }] });
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(body).expect(200);
      const server = await eventually(() => one('POST /v1/chat/completions'));
      const input = String(server.attributes['gen_ai.input.messages']);
      assert.ok(input.includes('tell me a story'));
      assert.ok(!input.includes(f.developerKey), 'the developer key is scrubbed');
      assert.ok(String(server.attributes['gen_ai.output.messages']).includes('Hello from the fake provider.'));
    } finally {
      await f.close();
    }
  });

  it('15.3: recorded prompts and answers hold no stored provider key or admin key, as Chronicles hold none', async () => {
    const f = await createTrafficFixture({ tracing: { recordContent: true } });
    try {
      // A developer pastes the gateway's configuration, with its keys, into a prompt; the model repeats one.
      const pasted = `provider key: sk-stored-provider-key-0001, admin key: ${TEST_KEYS.superAdmin}`;
      f.fake.script({ text: `You pasted ${TEST_KEYS.superAdmin}.` });
      await request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey }).send(chatBody({ messages: [{ role: 'user', content: pasted }] })).expect(200);
      const server = await eventually(() => one('POST /v1/chat/completions'));
      const recorded = `${String(server.attributes['gen_ai.input.messages'])} ${String(server.attributes['gen_ai.output.messages'])}`;
      assert.match(recorded, /provider key: \[REDACTED\], admin key: \[REDACTED\]/);
      for (const secret of ['sk-stored-provider-key-0001', TEST_KEYS.superAdmin]) assert.ok(!recorded.includes(secret), recorded);
    } finally {
      await f.close();
    }
  });

  describe('MCP tool calls', () => {
    let f: McpFixture;
    beforeEach(async () => {
      f = await createMcpFixture();
    });
    afterEach(() => f.close());

    it('15.3: an MCP tool call gets an execute_tool child span, and the MCP server receives the traceparent', async () => {
      const client = await f.connect({ authorization: `Bearer ${f.developerKey}`, traceparent: CLIENT_TRACEPARENT });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      const tool = await eventually(() => one('execute_tool add'));
      assert.equal(tool.attributes['gen_ai.tool.name'], 'add');
      assert.equal(tool.attributes['gateway.mcp.registry'], 'tools');
      const server = await eventually(() => {
        const found = named('POST /v1/mcp/:name').find((span) => span.spanContext().spanId === parentOf(tool));
        assert.ok(found, 'the tool span is a child of an MCP request span');
        return found;
      });
      assert.equal(server.spanContext().traceId, CLIENT_TRACE_ID);
      const sent = f.mcp.traceparents.filter((value): value is string => value !== undefined);
      assert.ok(sent.length > 0, 'the MCP server received a traceparent');
      assert.ok(sent.every((value) => value.startsWith(`00-${CLIENT_TRACE_ID}-`)));
      assert.ok(sent.includes(`00-${CLIENT_TRACE_ID}-${server.spanContext().spanId}-01`));
    });

    it('a client\'s baggage never reaches the MCP server: only the allow-listed headers and the trace context do', async () => {
      const client = await f.connect({ authorization: `Bearer ${f.developerKey}`, traceparent: CLIENT_TRACEPARENT, baggage: 'session=internal-0123' });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      assert.ok(f.mcp.traceparents.some((value) => value?.startsWith(`00-${CLIENT_TRACE_ID}-`)), 'the trace context went on');
      assert.deepEqual(f.mcp.baggages.filter((value) => value !== undefined), []);
    });
  });
});
