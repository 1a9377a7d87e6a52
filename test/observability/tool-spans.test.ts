// Spans of MCP tool calls on both paths (the registry proxy and the /v1/responses tool loop), checked with the SDK's in-memory exporter.
import assert from 'node:assert/strict';
import { SpanKind } from '@opentelemetry/api';
import OpenAI from 'openai';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { recordSpans } from '../helpers/span-recorder.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { startFakeProvider, type FakeProvider, type FakeRequest } from '../helpers/fake-provider.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

const CLIENT_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_TRACEPARENT = `00-${CLIENT_TRACE_ID}-b7ad6b7169203331-01`;

/** A chat model that asks for `<label>__add(2, 3)` until it sees a tool result, then answers with it. */
function addingModel(fake: FakeProvider, label: string): void {
  fake.script((received: FakeRequest) => {
    const messages = (received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `The sum is ${String(last.content).replace(/[^0-9]/g, '')}.` };
    return { toolCall: { name: `${label}__add`, arguments: { a: 2, b: 3 } } };
  });
}

describe('observability: MCP tool call spans', () => {
  const { named, one, parentOf, spans } = recordSpans();
  const spansNamed = (): string[] => spans().map((span) => span.name);

  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** An MCP fixture (registry `tools`) and a fake model provider `llm`, with an openai client on the gateway. */
  async function setUp(options: Parameters<typeof createMcpFixture>[0] = {}): Promise<{ f: McpFixture; fake: FakeProvider; client: OpenAI }> {
    const f = await createMcpFixture(options);
    const fake = await startFakeProvider();
    cleanups.push(() => f.close(), () => fake.close());
    await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['tool-model'] } }).expect(201);
    const client = new OpenAI({ apiKey: 'unused', baseURL: `${f.base}/v1`, defaultHeaders: { 'X-Gateway-Apikey': f.developerKey, traceparent: CLIENT_TRACEPARENT }, maxRetries: 0 });
    return { f, fake, client };
  }

  it('15.3: a /v1/responses tool call through a registry is an execute_tool span under the request span, and the tool server receives the trace', async () => {
    const { f, fake, client } = await setUp();
    addingModel(fake, 'tools');
    const response = await client.responses.create({ model: 'tool-model', input: 'What is 2 + 3?', tools: [{ type: 'mcp', server_label: 'tools', server_url: f.requestUrl, require_approval: 'never' }] });
    assert.equal(response.output_text, 'The sum is 5.');
    const server = await eventually(() => one('POST /v1/responses'));
    assert.equal(server.spanContext().traceId, CLIENT_TRACE_ID);
    const tool = one('execute_tool add');
    assert.equal(tool.kind, SpanKind.INTERNAL);
    assert.equal(parentOf(tool), server.spanContext().spanId, 'a child of the Responses request');
    assert.equal(tool.spanContext().traceId, CLIENT_TRACE_ID);
    assert.equal(tool.attributes['gen_ai.operation.name'], 'execute_tool');
    assert.equal(tool.attributes['gen_ai.tool.name'], 'add');
    assert.equal(tool.attributes['gateway.mcp.registry'], 'tools');
    assert.equal(tool.attributes['gateway.mcp.outcome'], 'ok');
    assert.equal(tool.attributes['gen_ai.tool.call.arguments'], undefined, 'no arguments unless content recording is on');
    assert.equal(tool.attributes['gen_ai.tool.call.result'], undefined, 'no result unless content recording is on');
    // The model calls of the loop are CLIENT children of the same request.
    const attempts = named('chat tool-model');
    assert.equal(attempts.length, 2);
    for (const attempt of attempts) assert.equal(parentOf(attempt), server.spanContext().spanId);
    // The tool server saw the request's trace context.
    const sent = f.mcp.traceparents.filter((value): value is string => value !== undefined);
    assert.ok(sent.length > 0, 'the tool server received a traceparent');
    assert.ok(sent.every((value) => value === `00-${CLIENT_TRACE_ID}-${server.spanContext().spanId}-01`), sent.join(', '));
  });

  it('15.3: with recordContent, a tool span carries the arguments and the result, without the credentials', async () => {
    const { f, fake, client } = await setUp({ tracing: { recordContent: true } });
    fake.script((received: FakeRequest) => {
      const last = ((received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []).at(-1);
      if (last?.role === 'tool') return { text: 'done' };
      return { toolCall: { name: 'tools__echo', arguments: { text: `my key is ${f.developerKey}` } } };
    });
    await client.responses.create({ model: 'tool-model', input: 'Echo.', tools: [{ type: 'mcp', server_label: 'tools', server_url: f.requestUrl, require_approval: 'never' }] });
    const tool = await eventually(() => one('execute_tool echo'));
    const args = String(tool.attributes['gen_ai.tool.call.arguments']);
    const result = String(tool.attributes['gen_ai.tool.call.result']);
    assert.ok(args.includes('my key is'), args);
    assert.ok(result.includes('my key is'), result);
    assert.ok(!args.includes(f.developerKey) && !result.includes(f.developerKey), 'the developer key is scrubbed');
  });

  it('with recordContent, a stored provider key or admin key a tool call carries is scrubbed from its span, on both paths', async () => {
    const { f, fake, client } = await setUp({ tracing: { recordContent: true } });
    // Not key-shaped: only the set of stored and configured secrets can catch them.
    const providerKey = 'stored-provider-secret-0123456789';
    await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'other', type: 'openai', config: { models: ['other-model'] }, api_keys: [{ api_key: providerKey }] }).expect(201);
    fake.script((received: FakeRequest) => {
      const last = ((received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []).at(-1);
      if (last?.role === 'tool') return { text: 'done' };
      return { toolCall: { name: 'tools__echo', arguments: { text: `keys ${providerKey} ${TEST_KEYS.admin}` } } };
    });
    await client.responses.create({ model: 'tool-model', input: 'Echo.', tools: [{ type: 'mcp', server_label: 'tools', server_url: f.requestUrl, require_approval: 'never' }] });
    const mcp = await f.connect();
    await mcp.callTool({ name: 'echo', arguments: { text: `keys ${providerKey} ${TEST_KEYS.admin}` } });
    const tools = await eventually(() => {
      const found = named('execute_tool echo');
      assert.equal(found.length, 2, 'one span per path');
      return found;
    });
    for (const tool of tools) {
      const text = `${String(tool.attributes['gen_ai.tool.call.arguments'])} ${String(tool.attributes['gen_ai.tool.call.result'])}`;
      assert.match(text, /keys \[REDACTED\] \[REDACTED\]/);
      assert.ok(!text.includes(providerKey) && !text.includes(TEST_KEYS.admin), text);
    }
  });

  it('15.3: a tool call to an external MCP server is a span too, named by its server label (no registry)', async () => {
    const external: FakeMcpServer = await startFakeMcpServer();
    cleanups.push(() => external.close());
    const { fake, client } = await setUp({ responses: { allowExternalMcpUrls: [new URL(external.url).origin] } });
    addingModel(fake, 'ext');
    const response = await client.responses.create({ model: 'tool-model', input: 'What is 2 + 3?', tools: [{ type: 'mcp', server_label: 'ext', server_url: external.url, require_approval: 'never' }] });
    assert.equal(response.output_text, 'The sum is 5.');
    const server = await eventually(() => one('POST /v1/responses'));
    const tool = one('execute_tool add');
    assert.equal(parentOf(tool), server.spanContext().spanId);
    assert.equal(tool.attributes['gateway.mcp.server_label'], 'ext');
    assert.equal(tool.attributes['gateway.mcp.registry'], undefined);
    assert.equal(tool.attributes['gateway.mcp.outcome'], 'ok');
    assert.equal(tool.attributes['gen_ai.tool.call.arguments'], undefined);
  });

  it('an external MCP server\'s tool name and the request\'s server label are cut to 128 bytes on the span', async () => {
    const longName = `t${'x'.repeat(4999)}`;
    const longLabel = `ext${'y'.repeat(997)}`;
    const external: FakeMcpServer = await startFakeMcpServer({ extraTool: longName });
    cleanups.push(() => external.close());
    const { fake, client } = await setUp({ responses: { allowExternalMcpUrls: [new URL(external.url).origin] } });
    fake.script((received: FakeRequest) => {
      const body = received.body as { messages?: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string; description?: string } }> };
      if (body.messages?.at(-1)?.role === 'tool') return { text: 'done' };
      // The gateway gave the long tool a short function name of its own: call that one.
      const named = body.tools?.find((tool) => tool.function.description?.includes('the extra tool'));
      return { toolCall: { name: named!.function.name, arguments: { a: 2, b: 3 } } };
    });
    await client.responses.create({ model: 'tool-model', input: 'Add.', tools: [{ type: 'mcp', server_label: longLabel, server_url: external.url, require_approval: 'never' }] });
    await eventually(() => one('POST /v1/responses'));
    const tools = named(`execute_tool ${longName.slice(0, 128)}`);
    assert.equal(tools.length, 1, `spans: ${spansNamed().map((name) => name.slice(0, 40)).join(', ')}`);
    assert.equal(tools[0]!.attributes['gen_ai.tool.name'], longName.slice(0, 128));
    assert.equal(tools[0]!.attributes['gateway.mcp.server_label'], longLabel.slice(0, 128));
    assert.equal(tools[0]!.attributes['gateway.mcp.outcome'], 'ok');
  });

  it('15.3: through the MCP proxy, a refused call is a span with outcome blocked and an error type', async () => {
    const { f } = await setUp();
    const client = await f.connect({ authorization: `Bearer ${f.developerKey}`, traceparent: CLIENT_TRACEPARENT });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    const result = await client.callTool({ name: 'no-such-tool', arguments: {} }).catch((error: Error) => error);
    assert.ok(result instanceof Error, 'the unknown tool is refused');
    const ok = await eventually(() => one('execute_tool add'));
    assert.equal(ok.attributes['gateway.mcp.outcome'], 'ok');
    assert.equal(ok.attributes['gen_ai.tool.call.arguments'], undefined);
    const blocked = await eventually(() => one('execute_tool other'));
    assert.equal(blocked.attributes['gateway.mcp.outcome'], 'blocked');
    assert.equal(blocked.attributes['error.type'], 'tool_blocked');
    assert.equal(blocked.spanContext().traceId, CLIENT_TRACE_ID);
  });
});
