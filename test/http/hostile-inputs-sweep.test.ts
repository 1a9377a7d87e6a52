// Hostile-input sweep of the newest endpoints over real HTTP: every answer is a 4xx (or a correct 2xx) in the endpoint's error shape, never a 5xx, and the gateway keeps answering.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { startFakeMediaProvider, type FakeMediaProvider } from '../helpers/fake-media-provider.js';

/** One hostile request. `body` is sent as it is; `allow2xx` marks inputs the endpoint may accept (never a 5xx). */
interface Probe {
  name: string;
  method: 'get' | 'post';
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  allow2xx?: boolean;
}
/** Which error body an endpoint answers: OpenAI's, Anthropic's (POST /v1/messages, per README), or JSON-RPC's as well (the MCP proxy relays the tool server's). */
type Shape = 'openai' | 'anthropic' | 'mcp';

const MB = 1024 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };
const json = (value: unknown): string => JSON.stringify(value);
const deepArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const deepObjects = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** Wrong JSON types and hostile strings, put in each field in turn. */
const WRONG: unknown[] = [null, [], [1, 'a'], 42, true, {}, { nested: { x: 1 } }, 'x'.repeat(MB), '\u0000\u001b', '\ud800', 'fake/\udc00x'];
/** Which wrong values a field may accept: none (strict), some, or any (a field the gateway passes on or ignores). */
type Accepts = 'none' | 'any' | ((value: unknown) => boolean);
const isString = (v: unknown): boolean => typeof v === 'string';
const isEmpty = (v: unknown): boolean => (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Probes replacing each field of `base` by every wrong value. */
function fieldProbes(path: string, base: Record<string, unknown>, fields: Record<string, Accepts>): Probe[] {
  return Object.entries(fields).flatMap(([field, accepts]) =>
    WRONG.map((value, i) => ({
      name: `${path} ${field} = wrong #${i}`,
      method: 'post' as const,
      path,
      headers: JSON_TYPE,
      body: json({ ...base, [field]: value }),
      allow2xx: accepts === 'any' || (typeof accepts === 'function' && accepts(value)),
    })),
  );
}

/** Probes of the body itself: shape, content type, nesting, duplicate keys, encodings. */
function bodyProbes(path: string, valid: Record<string, unknown>, headers: Record<string, string> = JSON_TYPE): Probe[] {
  const p = (name: string, body: string | Buffer | undefined, h: Record<string, string> = headers, allow2xx = false): Probe => ({ name: `${path} ${name}`, method: 'post', path, body, headers: h, allow2xx });
  return [
    p('no body', undefined, {}),
    ...['[]', 'null', '42', '"x"', '{"model":', deepArrays(10_000), deepObjects(10_000)].map((body) => p(`body ${body.slice(0, 12)}`, body)),
    p('duplicate keys, the last null', `{"model":"gpt-4o-mini","input":"x","model":null}`),
    p('missing content-type', json(valid), {}),
    p('text/plain', json(valid), { ...headers, 'content-type': 'text/plain' }),
    p('form', 'model=x', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }),
    p('multipart', '--b--', { ...headers, 'content-type': 'multipart/form-data; boundary=b' }),
    p('charset latin1', json(valid), { ...headers, 'content-type': 'application/json; charset=latin1' }),
    p('invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
    p('BOM', '\ufeff' + json(valid), headers, true),
    p('lone surrogate key', '{"\\ud800":1,' + json(valid).slice(1), headers, true),
    p('__proto__ key', '{"__proto__":{"polluted":true},' + json(valid).slice(1), headers, true),
  ];
}

/** Path parameters: encoded separators, dot segments, NUL, invalid UTF-8, prototype names, long ids. */
const PATH_PARAMS = ['%2F', '..', '%2e%2e%2F%2e%2e', '%00', 'a%00b', '%ED%A0%80', '%FF', '%', '%E2%80%AE', '__proto__', 'constructor', 'x'.repeat(8000)];

describe('Hostile-input sweep of the newest endpoints', function () {
  this.timeout(60_000);
  let f: TrafficFixture;
  let m: McpFixture;
  let media: FakeMediaProvider;

  before(async () => {
    [f, m, media] = await Promise.all([createTrafficFixture(), createMcpFixture(), startFakeMediaProvider(1024)]);
    await f.create('/v1/admin/providers', { name: 'media', type: 'openai', config: { api_base: `${media.url}/v1`, models: ['omni-moderation-latest', 'gpt-image-1', 'tts-1', 'whisper-1'] }, api_keys: [{ api_key: 'sk-media-0001' }] });
  });
  after(async () => {
    await f?.close();
    await m?.close();
    await media?.close();
  });

  /** Sends every probe; collects each answer that is a 5xx, an unexpected 2xx, or an error outside the shape. */
  async function sweep(probes: Probe[], auth: Record<string, string>, shape: Shape = 'openai', app = f.app): Promise<void> {
    const failures: string[] = [];
    for (const probe of probes) {
      let req = request(app)[probe.method](probe.path).set(auth).set(probe.headers ?? {});
      if (probe.body !== undefined) req = req.send(probe.body);
      const res = await req;
      const fine = (res.status >= 400 && res.status < 500) || (probe.allow2xx === true && res.status >= 200 && res.status < 300);
      if (!fine) failures.push(`${probe.name}: ${res.status} ${res.text.slice(0, 200)}`);
      else if (res.status >= 400 && !errorShaped(res.body, shape)) failures.push(`${probe.name}: ${res.status} outside the error shape: ${res.text.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
    await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody()).expect(200);
  }

  function errorShaped(body: unknown, shape: Shape): boolean {
    const b = body as { type?: unknown; jsonrpc?: unknown; error?: Record<string, unknown> } | undefined;
    const e = b?.error;
    if (shape === 'anthropic') return b?.type === 'error' && typeof e?.type === 'string' && typeof e?.message === 'string';
    if (shape === 'mcp' && b?.jsonrpc === '2.0' && typeof e?.code === 'number' && typeof e?.message === 'string') return true;
    return typeof e?.message === 'string' && typeof e?.type === 'string' && 'code' in e && 'param' in e;
  }

  const dev = (): Record<string, string> => ({ 'x-gateway-apikey': f.developerKey });

  it('POST /v1/messages', async () => {
    const path = '/v1/messages';
    const valid = { model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] };
    const item = (name: string, messages: unknown[], allow2xx = false) => WRONG.map((v, i) => ({ name: `${path} ${name} #${i}`, method: 'post' as const, path, headers: JSON_TYPE, body: json({ ...valid, messages: messages.map((m) => JSON.parse(JSON.stringify(m, (_k, x) => (x === '$' ? v : x)))) }), allow2xx: allow2xx && (isString(v) || allow2xx) }));
    await sweep([
      ...bodyProbes(path, valid),
      ...fieldProbes(path, valid, { model: 'none', max_tokens: (v) => v === 42, messages: 'none', stream: (v) => v === true, tool_choice: 'none', temperature: 'none', system: (v) => isString(v) || isEmpty(v), metadata: (v) => isEmpty(v) || (typeof v === 'object' && v !== null && !Array.isArray(v)), stop_sequences: isEmpty, tools: isEmpty }),
      ...fieldProbes(path, { ...valid, stream: true }, { messages: 'none', model: 'none' }),
      ...item('role', [{ role: '$', content: 'x' }]),
      ...item('content item', [{ role: 'user', content: ['$'] }]),
      ...item('text block', [{ role: 'user', content: [{ type: 'text', text: '$' }] }]).map((p, i) => ({ ...p, allow2xx: isString(WRONG[i]) })),
      ...item('tool_use and tool_result', [{ role: 'assistant', content: [{ type: 'tool_use', id: '$', name: '$', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: '$', content: '$' }] }]).map((p, i) => ({ ...p, allow2xx: isString(WRONG[i]) })),
      // Anthropic requires a tool_use block's input to be an object: anything else is refused, a string included.
      ...item('tool_use input', [{ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'n', input: '$' }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }]).map((p, i) => ({ ...p, allow2xx: isObject(WRONG[i]) })),
    ], dev(), 'anthropic');
  });

  it('POST /v1/responses and GET /v1/responses/:id', async () => {
    const path = '/v1/responses';
    const valid = { model: 'gpt-4o-mini', input: 'Hi' };
    await sweep([
      ...bodyProbes(path, valid),
      ...fieldProbes(path, valid, {
        model: 'none', input: (v) => isString(v) || isEmpty(v), instructions: isString, tools: isEmpty, stream: (v) => v === true, max_output_tokens: (v) => v === 42, previous_response_id: 'none',
        // store decides what is kept and metadata is echoed in the answer: both are checked.
        store: (v) => v === true, metadata: isEmpty,
        // As OpenAI types them: tool_choice a mode or an object naming a tool; text an object; reasoning an object or null.
        // Fields of text and reasoning OpenAI may add later (here `nested`) pass, as unknown top-level fields do.
        tool_choice: 'none', text: isObject, reasoning: (v) => v === null || isObject(v),
      }),
      ...WRONG.map((v, i) => ({ name: `${path} input item #${i}`, method: 'post' as const, path, headers: JSON_TYPE, body: json({ ...valid, input: [v] }) })),
      ...WRONG.map((v, i) => ({ name: `${path} mcp tool fields #${i}`, method: 'post' as const, path, headers: JSON_TYPE, body: json({ ...valid, tools: [{ type: 'mcp', server_label: v, server_url: v, headers: v, allowed_tools: v, require_approval: v }] }) })),
      ...PATH_PARAMS.map((id) => ({ name: `GET ${path}/${id.slice(0, 20)}`, method: 'get' as const, path: `${path}/${id}` })),
    ], dev());
  });

  it('POST /v1/moderations, /v1/images/generations and /v1/audio/speech', async () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, Accepts>]> = [
      ['/v1/moderations', { model: 'omni-moderation-latest', input: 'x' }, { model: 'none', input: (v) => isString(v) || Array.isArray(v) }],
      ['/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' }, { model: 'none', prompt: (v) => isString(v), n: 'any', stream: (v) => v === true }],
      ['/v1/audio/speech', { model: 'tts-1', input: 'x', voice: 'alloy' }, { model: 'none', input: isString, voice: 'any' }],
    ];
    await sweep(cases.flatMap(([path, valid, fields]) => [...bodyProbes(path, valid), ...fieldProbes(path, valid, fields)]), dev());
  });

  it('POST /v1/audio/transcriptions (multipart)', async () => {
    const path = '/v1/audio/transcriptions';
    const type = { 'content-type': 'multipart/form-data; boundary=XyZ' };
    const form = (name: string, parts: string[], allow2xx = false): Probe => ({ name, method: 'post', path, headers: type, allow2xx, body: parts.map((p) => `--XyZ\r\n${p}\r\n`).join('') + '--XyZ--\r\n' });
    const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
    const file = (name: string, filename = 'a.wav') => `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: audio/wav\r\n\r\nRIFF0000`;
    const model = field('model', 'whisper-1');
    await sweep([
      form('a valid upload', [model, file('file')], true),
      form('no file', [model]),
      form('two files', [model, file('file'), file('file')]),
      form('the file in another field', [model, file('other')]),
      form('a huge field name', [field('x'.repeat(100_000), 'v'), model, file('file')]),
      form('a huge field value', [field('prompt', 'x'.repeat(100_000)), model, file('file')]),
      form('a huge model', [field('model', 'x'.repeat(1000)), file('file')]),
      form('control characters in the model', [field('model', 'fake/\u0000'), file('file')]),
      form('control characters in the file name', [model, file('file', '\u0000..\\/x')], true),
      form('model as an array', [field('model[]', 'a'), field('model', 'b'), file('file')]),
      form('too many fields', Array.from({ length: 50 }, (_, i) => field(`f${i}`, 'v'))),
      form('no model', [file('file')]),
      { name: 'no boundary', method: 'post', path, headers: { 'content-type': 'multipart/form-data' }, body: 'x' },
      { name: 'truncated', method: 'post', path, headers: type, body: '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc' },
      { name: 'not multipart', method: 'post', path, headers: type, body: 'not multipart at all' },
      { name: 'JSON instead', method: 'post', path, headers: JSON_TYPE, body: '{"model":"whisper-1"}' },
      { name: 'no content-type', method: 'post', path, body: 'x' },
    ], dev());
  });

  it('GET /v1/models/:id', async () => {
    await sweep([...PATH_PARAMS, 'route:__proto__', 'fake%2F%ED%A0%80'].map((id) => ({ name: `GET /v1/models/${id.slice(0, 20)}`, method: 'get' as const, path: `/v1/models/${id}` })), dev());
  });

  it('POST /v1/guardrail/:processor/apply', async () => {
    const path = '/v1/guardrail/dlp_cloud/apply';
    const valid = { input: { text: 'hello' } };
    const probe = (name: string, body: unknown, allow2xx = false, at = path, headers: Record<string, string> = JSON_TYPE): Probe => ({ name, method: 'post', path: at, headers, body: json(body), allow2xx });
    await sweep([
      ...bodyProbes(path, valid).map((p) => (p.name.includes('duplicate') ? { ...p, allow2xx: false } : p)),
      ...fieldProbes(path, valid, { input: 'none', config: (v) => isEmpty(v) || (typeof v === 'object' && v !== null && !Array.isArray(v)) }),
      ...WRONG.map((v, i) => probe(`text #${i}`, { input: { text: v, filename: 'a' } }, isString(v))),
      ...WRONG.map((v, i) => probe(`filename #${i}`, { input: { text: 'x', filename: v } }, v === null || isString(v))),
      ...WRONG.map((v, i) => probe(`threshold #${i}`, { ...valid, config: { threshold: v } }, v === null || v === 42)),
      ...PATH_PARAMS.map((p) => probe(`processor ${p.slice(0, 20)}`, valid, false, `/v1/guardrail/${p}/apply`)),
      ...['__proto__', 'constructor', 'x'.repeat(8000), 'caf\u00e9'].map((a) => probe(`application ${a.slice(0, 10)}`, valid, false, path, { ...JSON_TYPE, 'x-gateway-application': a })),
    ], dev());
  });

  it('GET /v1/admin/usage query parameters', async () => {
    const queries = ['group_by=__proto__', 'group_by=constructor', 'group_by=model&group_by=day', 'from=not-a-date', 'from=2026-13-45', 'from=-271821-04-20', 'from=9999999999999999', 'to=0',
      'from=2026-11-30&to=2026-11-01', `from=${'1'.repeat(8000)}`, 'group_by=day&from=1970-01-01&to=9999-12-31', 'group_by=%00', 'from=%ED%A0%80', 'from=%FF'];
    // Unknown parameters and bracketed names are refused, never ignored.
    const unknown = ['group_by[]=model', 'group_by%5B%5D=model', 'from[$gt]=1', 'from[a]=1', '%00=%00', 'application=__proto__', '__proto__=x', '=x', `${'x'.repeat(8000)}=1`];
    await sweep([
      ...[...queries, ...unknown].map((q) => ({ name: `usage ?${q.slice(0, 40)}`, method: 'get' as const, path: `/v1/admin/usage?${q}` })),
      ...['', 'group_by=day', 'group_by=model&from=2026-11-01&to=2026-11-30'].map((q) => ({ name: `usage ?${q}`, method: 'get' as const, path: `/v1/admin/usage?${q}`, allow2xx: true })),
    ], { 'x-api-key': TEST_KEYS.admin });
  });

  it('POST /v1/mcp/:name (JSON-RPC)', async () => {
    const path = '/v1/mcp/tools';
    const headers = { ...JSON_TYPE, accept: 'application/json, text/event-stream' };
    // Without a session, the tool server answers most requests itself (400 in JSON-RPC's shape); the gateway answers the rest.
    const rpc = (name: string, body: unknown): Probe => ({ name: `mcp ${name}`, method: 'post', path, headers, body: typeof body === 'string' ? body : json(body), allow2xx: true });
    const call = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    await sweep([
      ...bodyProbes(path, { jsonrpc: '2.0', id: 1, method: 'ping' }, headers).map((p) => ({ ...p, allow2xx: true })),
      rpc('empty batch', []),
      rpc('batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]),
      rpc('1,000 calls in a batch', Array.from({ length: 1000 }, (_, i) => ({ ...call({ name: 'add', arguments: {} }), id: i }))),
      rpc('batch of non-objects', [1, null, 'x', []]),
      // The fake tool server reads at most 100 KB: a larger id gets its own 413 page, relayed as the tool server's answer.
      rpc('a 64 KB id', { jsonrpc: '2.0', id: 'x'.repeat(64 * 1024), method: 'ping' }),
      rpc('a 400-digit id', `{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"ping"}`),
      ...WRONG.filter((v) => !(isString(v) && (v as string).length === MB)).flatMap((v, i) => [
        rpc(`id #${i}`, { ...call({ name: 'add' }), id: v }),
        rpc(`method #${i}`, { jsonrpc: '2.0', id: 1, method: v }),
        rpc(`params #${i}`, call(v)),
        rpc(`tool name #${i}`, call({ name: v, arguments: v })),
        rpc(`jsonrpc #${i}`, { jsonrpc: v, id: 1, method: 'ping' }),
      ]),
      rpc('deep arguments', call({ name: 'add', arguments: JSON.parse(deepObjects(60)) })),
      rpc('a response from the client', { jsonrpc: '2.0', id: 1, result: {} }),
      rpc('a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }),
      ...PATH_PARAMS.map((n) => ({ name: `registry ${n.slice(0, 20)}`, method: 'post' as const, path: `/v1/mcp/${n}`, headers, body: json({ jsonrpc: '2.0', id: 1, method: 'ping' }) })),
      ...['x'.repeat(8000), 'caf\u00e9', '../../x', '__proto__'].map((s) => rpc(`session ${s.slice(0, 10)}`, { jsonrpc: '2.0', id: 1, method: 'ping' })).map((p, i) => ({ ...p, headers: { ...headers, 'mcp-session-id': ['x'.repeat(8000), 'caf\u00e9', '../../x', '__proto__'][i]! }, allow2xx: false })),
    ], { authorization: `Bearer ${m.developerKey}` }, 'mcp', m.app);
    const client = await m.connect();
    assert.ok((await client.listTools()).tools.length > 0, 'a client still works after the sweep');
  });
});
