// /v1/responses hands tool_choice, text and reasoning to the model: the chat bodies of the tool loop's rounds carry them, and the answer echoes them.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { startFakeProvider, type FakeProvider, type FakeRequest } from '../helpers/fake-provider.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

type ChatBody = { tools?: Array<{ function: { name: string } }>; tool_choice?: unknown; response_format?: unknown; verbosity?: unknown; reasoning_effort?: unknown; reasoning?: unknown };

describe('/v1/responses: tool_choice, text and reasoning reach the model', () => {
  let f: McpFixture;
  let fake: FakeProvider;
  let client: OpenAI;
  beforeEach(async () => {
    f = await createMcpFixture();
    fake = await startFakeProvider();
    await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin)
      .send({ name: 'llm', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['tool-model'] }, api_keys: [{ api_key: 'sk-provider-key-000001' }] }).expect(201);
    // Calls tools__add once, then answers with its result.
    fake.script((received: FakeRequest) => {
      const last = ((received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []).at(-1);
      return last?.role === 'tool' ? { text: `The sum is ${String(last.content)}.` } : { toolCall: { name: 'tools__add', arguments: { a: 2, b: 3 } } };
    });
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${f.base}/v1`, maxRetries: 0 });
  });
  afterEach(async () => {
    await f.close();
    await fake.close();
  });

  const mcpTool = (extra: Record<string, unknown> = {}) => ({ type: 'mcp' as const, server_label: 'tools', require_approval: 'never' as const, ...extra });
  const lookup = { type: 'function' as const, name: 'lookup_order', parameters: { type: 'object', properties: {} }, strict: false };
  const bodies = (): ChatBody[] => fake.requests.map((received) => received.body as ChatBody);
  const offered = (body: ChatBody | undefined) => (body?.tools ?? []).map((tool) => tool.function.name).sort();
  const create = (fields: Record<string, unknown>) =>
    client.responses.create({ model: 'tool-model', input: 'What is 2 + 3?', ...fields } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);

  it('required forces a tool call in the first round only, and the answer echoes the choice', async () => {
    const response = await create({ tools: [mcpTool()], tool_choice: 'required' });
    assert.equal(response.output_text, 'The sum is 5.');
    const [first, second] = bodies();
    assert.equal(first?.tool_choice, 'required');
    assert.equal(second?.tool_choice, undefined, 'the round after the tool result answers freely');
    assert.deepEqual(offered(second), ['tools__add', 'tools__echo', 'tools__lookup']);
    assert.equal(response.tool_choice, 'required');
  });

  it('none holds in every round', async () => {
    await create({ tools: [mcpTool()], tool_choice: 'none' });
    assert.deepEqual(bodies().map((body) => body.tool_choice), ['none', 'none']);
  });

  it('an mcp choice with a name forces that tool under its chat name', async () => {
    const response = await create({ tools: [mcpTool(), lookup], tool_choice: { type: 'mcp', server_label: 'tools', name: 'add' } });
    assert.deepEqual(bodies()[0]?.tool_choice, { type: 'function', function: { name: 'tools__add' } });
    assert.deepEqual(response.tool_choice, { type: 'mcp', server_label: 'tools', name: 'add' });
  });

  it("an mcp choice without a name offers only that server's tools, required, in the first round", async () => {
    await create({ tools: [mcpTool(), lookup], tool_choice: { type: 'mcp', server_label: 'tools' } });
    const [first, second] = bodies();
    assert.equal(first?.tool_choice, 'required');
    assert.deepEqual(offered(first), ['tools__add', 'tools__echo', 'tools__lookup']);
    assert.deepEqual(offered(second), ['lookup_order', 'tools__add', 'tools__echo', 'tools__lookup']);
  });

  it('a function choice forces that function', async () => {
    fake.script(() => ({ toolCall: { name: 'lookup_order', arguments: {} } }));
    const response = await create({ tools: [mcpTool(), lookup], tool_choice: { type: 'function', name: 'lookup_order' } });
    assert.deepEqual(bodies()[0]?.tool_choice, { type: 'function', function: { name: 'lookup_order' } });
    assert.equal(response.output.at(-1)?.type, 'function_call');
  });

  it('allowed_tools offers only the listed tools in every round', async () => {
    await create({ tools: [mcpTool(), lookup], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'mcp', server_label: 'tools', name: 'add' }] } });
    const [first, second] = bodies();
    assert.deepEqual(offered(first), ['tools__add']);
    assert.equal(first?.tool_choice, 'auto');
    assert.deepEqual(offered(second), ['tools__add']);
  });

  it('a choice naming a tool the server does not offer is a 400 naming tool_choice.name, before any model call', async () => {
    await assert.rejects(create({ tools: [mcpTool({ allowed_tools: ['echo'] })], tool_choice: { type: 'mcp', server_label: 'tools', name: 'add' } }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'tool_choice.name');
      assert.match(error.message, /the tool add of the MCP server tools/);
      return true;
    });
    assert.equal(fake.requests.length, 0);
  });

  it('text.format, text.verbosity and reasoning.effort become response_format, verbosity and reasoning_effort', async () => {
    fake.script(() => ({ text: '{"sum":5}' }));
    const schema = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false };
    const response = await create({
      text: { format: { type: 'json_schema', name: 'sum_answer', schema, strict: true }, verbosity: 'low' },
      reasoning: { effort: 'high', summary: 'auto' },
    });
    const [body] = bodies();
    assert.deepEqual(body?.response_format, { type: 'json_schema', json_schema: { name: 'sum_answer', schema, strict: true } });
    assert.equal(body?.verbosity, 'low');
    assert.equal(body?.reasoning_effort, 'high');
    assert.equal(body?.reasoning, undefined, 'the summary has no chat counterpart');
    assert.deepEqual(JSON.parse(response.output_text), { sum: 5 });
    assert.deepEqual(response.text, { format: { type: 'json_schema', name: 'sum_answer', schema, strict: true }, verbosity: 'low' });
    assert.deepEqual(response.reasoning, { effort: 'high', summary: 'auto' });

    fake.script(() => ({ text: '{}' }));
    await create({ text: { format: { type: 'json_object' } } });
    assert.deepEqual(bodies()[1]?.response_format, { type: 'json_object' });
  });

  it('a provider that cannot give a JSON format is a 400 naming text.format, the field the client sent; a schema it can give is sent', async () => {
    await request(f.app).post('/v1/admin/providers').set('x-api-key', TEST_KEYS.superAdmin)
      .send({ name: 'claude', type: 'anthropic', config: { api_base: fake.url, models: ['claude-model'] }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] }).expect(201);
    const body = { model: 'claude-model', input: 'What is 2 + 3?', text: { format: { type: 'json_object' } } };
    await assert.rejects(client.responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'text.format');
      assert.match(error.message, /^400 text\.format: the anthropic provider does not support a text\.format of type json_object/);
      return true;
    });
    assert.equal(fake.requests.length, 0);
    // Anthropic's structured outputs take a JSON schema.
    const schema = { type: 'object', properties: { sum: { type: 'number' } } };
    fake.script(() => ({ text: '{"sum":5}' }));
    await client.responses.create({ model: 'claude-model', input: 'What is 2 + 3?', text: { format: { type: 'json_schema', name: 'sum_answer', schema } } });
    assert.deepEqual((fake.requests[0]!.body as Record<string, unknown>).output_config, { format: { type: 'json_schema', schema } });
  });

  it('without the three fields the chat body has none of them, and the answer shows the defaults', async () => {
    fake.script(() => ({ text: 'Hello.' }));
    const response = await create({});
    const [body] = bodies();
    for (const field of ['tool_choice', 'response_format', 'verbosity', 'reasoning_effort', 'tools'] as const) assert.equal(body?.[field], undefined, field);
    assert.equal(response.tool_choice, 'auto');
    assert.deepEqual(response.text, { format: { type: 'text' } });
    assert.equal(response.reasoning, null);
  });
});
