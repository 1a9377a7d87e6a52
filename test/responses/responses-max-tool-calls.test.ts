// /v1/responses max_tool_calls: the tool loop runs at most that many MCP calls, and ignores the model's further calls.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

type ChatBody = { messages: Array<{ role: string; content: unknown; tool_call_id?: string }>; tools?: Array<{ function: { name: string } }> };

/** Whether a round's chat request offers the MCP tool `tools__add`. */
const offersAdd = (body: ChatBody) => (body.tools ?? []).some((tool) => tool.function.name === 'tools__add');

describe('/v1/responses max_tool_calls', () => {
  let f: McpFixture;
  let fake: FakeProvider;
  let upstream: RawLoopbackServer | undefined;
  let client: OpenAI;
  const addProvider = (name: string, apiBase: string) =>
    request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin)
      .send({ name, type: 'openai', config: { api_base: apiBase, models: [`${name}-model`] }, api_keys: [{ api_key: 'sk-provider-key-000001' }] }).expect(201);
  beforeEach(async () => {
    f = await createMcpFixture();
    fake = await startFakeProvider();
    await addProvider('llm', `${fake.url}/v1`);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${f.base}/v1`, maxRetries: 0 });
  });
  afterEach(async () => {
    upstream?.close();
    upstream = undefined;
    await f.close();
    await fake.close();
  });
  const mcpTool = { type: 'mcp' as const, server_label: 'tools', server_url: '', headers: {}, require_approval: 'never' as const };
  const tools = () => [{ ...mcpTool, server_url: f.requestUrl, headers: { Authorization: `Bearer ${f.developerKey}` } }];

  it('runs that many calls, then offers no MCP tool, so a model that would call on and on answers', async () => {
    // A model that calls the tool whenever it is offered one, and answers otherwise.
    fake.script((received) => (offersAdd(received.body as ChatBody) ? { toolCall: { name: 'tools__add', arguments: { a: 2, b: 3 } } } : { text: 'Done with one call.' }));
    const response = await client.responses.create({ model: 'llm-model', input: 'Add, many times.', tools: tools(), ...{ max_tool_calls: 1 } });
    assert.equal(response.status, 'completed');
    assert.deepEqual(response.output.map((item) => item.type), ['mcp_list_tools', 'mcp_call', 'message']);
    assert.equal(response.output_text, 'Done with one call.');
    assert.equal(f.mcp.calls.length, 1);
    assert.equal((response as unknown as { max_tool_calls: unknown }).max_tool_calls, 1, 'the answer echoes the limit');
    assert.equal(fake.requests.length, 2);
    assert.ok(!offersAdd(fake.requests[1]!.body as ChatBody), 'the second round offers no MCP tool');
  });

  it('of several calls in one round, runs those within the limit and tells the model the rest were not run', async () => {
    const rounds: ChatBody[] = [];
    upstream = await listenJsonUpstream((res, body) => {
      rounds.push(body as unknown as ChatBody);
      const message = rounds.length === 1
        ? { role: 'assistant', content: null, tool_calls: [1, 2, 3].map((n) => ({ id: `call_${n}`, type: 'function', function: { name: 'tools__add', arguments: JSON.stringify({ a: n, b: n }) } })) }
        : { role: 'assistant', content: 'Two sums.' };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message, finish_reason: rounds.length === 1 ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
    await addProvider('scripted', `${upstream.url}/v1`);
    const response = await client.responses.create({ model: 'scripted-model', input: 'Add three pairs.', tools: tools(), ...{ max_tool_calls: 2 } });
    const calls = response.output.filter((item) => item.type === 'mcp_call') as Array<{ arguments: string; output: string }>;
    assert.deepEqual(calls.map((call) => call.output), ['2', '4']);
    assert.deepEqual(f.mcp.calls.map((call) => call.arguments), [{ a: 1, b: 1 }, { a: 2, b: 2 }]);
    assert.equal(response.output_text, 'Two sums.');
    const answers = rounds[1]!.messages.filter((message) => message.role === 'tool');
    assert.deepEqual(answers.map((message) => message.tool_call_id), ['call_1', 'call_2', 'call_3'], 'every call of the model has an answer');
    assert.match(String(answers[2]!.content), /not run.*max_tool_calls/);
    assert.ok(!offersAdd(rounds[1]!), 'no MCP tool is offered once the limit is reached');
  });

  it('a limit below 1, or not an integer, is a 400 naming max_tool_calls before any call', async () => {
    for (const value of [0, 1.5, '2']) {
      const res = await request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send({ model: 'llm-model', input: 'Hi', tools: tools(), max_tool_calls: value });
      assert.equal(res.status, 400, JSON.stringify(value));
      assert.equal(res.body.error.param, 'max_tool_calls');
    }
    assert.equal(fake.requests.length, 0);
  });
});
