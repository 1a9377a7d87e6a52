// POST /v1/responses checks tool_choice, text and reasoning as OpenAI's Responses API types them: a wrong one is a 400 naming it, before any model call.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';

const mcpWith = (headers: Record<string, string>) => ({ type: 'mcp', server_label: 'tools', server_url: 'https://tools.example.com/mcp', headers });
const FUNCTION_TOOL = { type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false };

/** Wrong values of the three fields, each with the `param` the 400 must name. */
const WRONG: Array<[string, Record<string, unknown>, string]> = [
  ['tool_choice as an unknown mode', { tool_choice: 'sometimes' }, 'tool_choice'],
  ['tool_choice as a number', { tool_choice: 1 }, 'tool_choice'],
  ['tool_choice as an array', { tool_choice: ['auto'] }, 'tool_choice'],
  ['tool_choice without a type', { tool_choice: { name: 'lookup' } }, 'tool_choice.type'],
  ['tool_choice of an unknown kind', { tool_choice: { type: 'teleport' } }, 'tool_choice.type'],
  ['tool_choice function without a name', { tool_choice: { type: 'function' } }, 'tool_choice.name'],
  ['tool_choice function with a numeric name', { tool_choice: { type: 'function', name: 7 } }, 'tool_choice.name'],
  ['tool_choice naming a function the request lacks', { tool_choice: { type: 'function', name: 'other' }, tools: [FUNCTION_TOOL] }, 'tool_choice.name'],
  ['tool_choice naming a hosted tool the gateway does not run', { tool_choice: { type: 'file_search' } }, 'tool_choice.type'],
  ['tool_choice allowed_tools with a bad mode', { tool_choice: { type: 'allowed_tools', mode: 'always', tools: [] } }, 'tool_choice.mode'],
  ['text as a string', { text: 'json' }, 'text'],
  ['text as null', { text: null }, 'text'],
  ['text.format as a string', { text: { format: 'json_object' } }, 'text.format'],
  ['text.format of an unknown type', { text: { format: { type: 'yaml' } } }, 'text.format.type'],
  ['text.format json_schema without a name', { text: { format: { type: 'json_schema', schema: { type: 'object' } } } }, 'text.format.name'],
  ['text.format json_schema without a schema', { text: { format: { type: 'json_schema', name: 'answer' } } }, 'text.format.schema'],
  ['text.format json_schema with a string schema', { text: { format: { type: 'json_schema', name: 'answer', schema: '{}' } } }, 'text.format.schema'],
  ['text.verbosity of an unknown level', { text: { verbosity: 'loud' } }, 'text.verbosity'],
  ['reasoning as a string', { reasoning: 'high' }, 'reasoning'],
  ['reasoning as an array', { reasoning: [] }, 'reasoning'],
  ['reasoning.effort of an unknown level', { reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
  ['reasoning.effort as a number', { reasoning: { effort: 3 } }, 'reasoning.effort'],
  ['reasoning.summary as a boolean', { reasoning: { summary: true } }, 'reasoning.summary'],
  // An MCP tool's headers for its server: no connection or host headers, only header-safe values, a bounded count.
  ['an mcp tool header naming another virtual host', { tools: [mcpWith({ Host: 'admin.internal' })] }, 'tools[0].headers.Host'],
  ['an mcp tool header framing the body', { tools: [mcpWith({ 'transfer-encoding': 'chunked' })] }, 'tools[0].headers.transfer-encoding'],
  ['an mcp tool header with CR LF in its value', { tools: [mcpWith({ 'X-Trace': 'a\r\nX-Injected: 1' })] }, 'tools[0].headers.X-Trace'],
  ['an mcp tool header whose name is not a token', { tools: [mcpWith({ 'Bad Name': 'v' })] }, 'tools[0].headers'],
  ['an mcp tool with 65 headers', { tools: [mcpWith(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`x-h${i}`, 'v'])))] }, 'tools[0].headers'],
];

describe('POST /v1/responses: tool_choice, text and reasoning are checked', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let client: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    server = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0 });
  });
  after(async () => {
    server.close();
    await f.close();
  });
  beforeEach(() => f.fake.reset());

  it('a wrong value is a BadRequestError for the official client, with param naming the field', async () => {
    for (const [name, fields, param] of WRONG) {
      const body = { model: 'gpt-4o-mini', input: 'Hi', ...fields } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
      await assert.rejects(client.responses.create(body), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, `${name}: ${String(error)}`);
        assert.equal(error.code, 'invalid_value', name);
        assert.equal(error.param, param, `${name}: ${error.message}`);
        return true;
      });
    }
    assert.equal(f.fake.requests.length, 0, 'the provider was called');
  });

  it('the 400 is in the one error shape, nothing is counted or kept, and the request log entry (under /v1/responses) names the field', async () => {
    const res = await request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey)
      .send({ model: 'gpt-4o-mini', input: 'Hi', reasoning: { effort: 'extreme' }, stream: true }).expect(400);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.body, {
      error: {
        message: "The field 'reasoning.effort' must be one of: none, minimal, low, medium, high, xhigh, max, null.",
        type: 'invalid_request_error',
        code: 'invalid_value',
        param: 'reasoning.effort',
      },
    });
    assert.equal(f.fake.requests.length, 0);
    const usage = await request(f.app).get('/v1/admin/usage').set('x-api-key', TEST_KEYS.admin).expect(200);
    assert.deepEqual(usage.body.data.filter((row: { requests: number }) => row.requests > 0), [], 'a refused body was counted');
    const entry = (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
    assert.equal(entry.endpoint, '/v1/responses');
    assert.equal(entry.status, 400);
    assert.equal(entry.error.code, 'invalid_value');
    assert.match(entry.error.message, /'reasoning\.effort'/);
  });

  it('values OpenAI defines are accepted', async () => {
    const valid: Array<Record<string, unknown>> = [
      { tool_choice: 'none' },
      { tool_choice: 'auto' },
      { tool_choice: 'required', tools: [FUNCTION_TOOL] },
      { tool_choice: { type: 'function', name: 'lookup' }, tools: [FUNCTION_TOOL] },
      { tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'lookup' }] }, tools: [FUNCTION_TOOL] },
      { text: {} },
      { text: { format: { type: 'text' }, verbosity: 'low' } },
      { text: { format: { type: 'json_object' }, verbosity: null } },
      { text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } } },
      { reasoning: null },
      { reasoning: { effort: 'minimal', summary: 'auto' } },
      { reasoning: { effort: 'high', summary: 'detailed' } },
      { reasoning: { effort: null, summary: null } },
    ];
    for (const fields of valid) {
      const body = { model: 'gpt-4o-mini', input: 'Hi', ...fields } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
      const response = await client.responses.create(body);
      assert.equal(response.status, 'completed', JSON.stringify(fields));
    }
    assert.equal(f.fake.requests.length, valid.length);
  });
});
