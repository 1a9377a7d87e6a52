// Hostile JSON nesting is refused 400 json_too_deep before any parse or walk, on model, Responses, Messages, admin, guardrail and MCP endpoints.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** About 10 KB: 5,000 nested objects inside a valid chat body. */
const hostile = (levels = 5000): string =>
  JSON.stringify(chatBody({ metadata: '__NEST__' })).replace('"__NEST__"', `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

/** A body nested exactly `levels` deep in total (the chat body itself is 3 levels: object, messages array, message). */
const nestedTo = (levels: number): string => hostile(levels - 1);

describe('JSON nesting limit', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
  });
  after(() => f.close());

  const post = (path: string, headers: Record<string, string>, text: string) =>
    request(f.app).post(path).set({ 'content-type': 'application/json', ...headers }).send(text);

  const assertTooDeep = (res: request.Response): void => {
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'json_too_deep');
    assert.equal(res.body.error.type, 'invalid_request_error');
  };

  it('11.3: a model endpoint answers 400 json_too_deep to 5,000 nested objects, and calls no provider', async () => {
    for (const path of ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/responses']) {
      assertTooDeep(await post(path, { 'x-gateway-apikey': f.developerKey }, hostile()));
    }
    assert.equal(f.fake.requests.length, 0);
  });

  it('11.3: the admin API answers 400 json_too_deep and stores nothing', async () => {
    const route = JSON.stringify({ name: 'deep', models: [{ name: 'm', provider: 'fake' }], config: { team: '__NEST__' } }).replace(
      '"__NEST__"',
      `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
    );
    assertTooDeep(await post('/v1/admin/routes', { 'x-api-key': TEST_KEYS.superAdmin }, route));
    await request(f.app).get('/v1/admin/routes/deep').set('x-api-key', TEST_KEYS.superAdmin).expect(404);
  });

  it('11.3: the guardrail endpoint answers 400 json_too_deep', async () => {
    const body = `{"input":{"text":"hi"},"config":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    assertTooDeep(await post('/v1/guardrail/security_filters/apply', { 'x-gateway-apikey': f.developerKey }, body));
  });

  it('11.3: nesting up to 64 levels is accepted; 65 is refused', async () => {
    await post('/v1/chat/completions', { 'x-gateway-apikey': f.developerKey }, nestedTo(64)).expect(200);
    assertTooDeep(await post('/v1/chat/completions', { 'x-gateway-apikey': f.developerKey }, nestedTo(65)));
  });

  it('brackets inside strings do not count', async () => {
    const text = '{'.repeat(1000) + '['.repeat(1000);
    await post('/v1/chat/completions', { 'x-gateway-apikey': f.developerKey }, JSON.stringify(chatBody({ messages: [{ role: 'user', content: text }] }))).expect(200);
  });
});

describe('JSON nesting limit, configured', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture({ maxJsonDepth: 8 });
  });
  after(() => f.close());

  it('11.3: createGateway({ maxJsonDepth }) sets the limit', async () => {
    const res = await request(f.app).post('/v1/chat/completions').set({ 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey }).send(nestedTo(9));
    assert.equal(res.body.error?.code, 'json_too_deep');
    await request(f.app).post('/v1/chat/completions').set({ 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey }).send(nestedTo(8)).expect(200);
  });
});

describe('createGateway({ maxJsonDepth })', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture({ maxJsonDepth: 8 });
    // A tool server nobody listens on: the registry is stored, and a request that passes the depth check fails upstream.
    await f.create('/v1/admin/mcp/registries', { name: 'tools', url: 'http://127.0.0.1:9/mcp' });
  });
  after(() => f.close());

  /** A JSON object nested exactly `levels` deep. */
  const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('holds on every endpoint that takes a JSON body, the MCP proxy included', async () => {
    const endpoints: Array<[string, Record<string, string>]> = [
      ['/v1/chat/completions', { 'x-gateway-apikey': f.developerKey }],
      ['/v1/responses', { 'x-gateway-apikey': f.developerKey }],
      ['/v1/messages', { 'x-api-key': f.developerKey }],
      ['/v1/guardrail/security_filters/apply', { 'x-gateway-apikey': f.developerKey }],
      ['/v1/admin/routes', { 'x-api-key': TEST_KEYS.superAdmin }],
      ['/v1/mcp/tools', { authorization: `Bearer ${f.developerKey}` }],
    ];
    for (const [path, headers] of endpoints) {
      const send = (text: string) => request(f.app).post(path).set({ 'content-type': 'application/json', ...headers }).send(text);
      const refused = await send(nested(9));
      assert.equal(refused.status, 400, `${path}: ${refused.text}`);
      assert.equal(refused.body.error?.code, 'json_too_deep', `${path}: ${refused.text}`);
      assert.match(refused.text, /deeper than 8 levels/, path);
      const within = await send(nested(8));
      assert.notEqual(within.body.error?.code, 'json_too_deep', `${path} refused a body within the limit: ${within.text}`);
    }
    assert.equal(f.fake.requests.length, 0);
  });
});
