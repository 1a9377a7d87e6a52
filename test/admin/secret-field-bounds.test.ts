// Provider keys and registry tokens are checked at write time: control characters, characters no header can carry and over-long values are a 400 naming the field, never echoing the value, and nothing is stored.
import assert from 'node:assert/strict';
import request from 'supertest';
import { MAX_SECRET_LENGTH } from '../../src/validation/header-safe-text.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** Secrets that would be stored and then break every call: each with a marker, so an answer echoing it is caught. */
const BAD_SECRETS: Array<[string, string]> = [
  ['NUL', 'sk-marker-a\u0000b'],
  ['CR LF', 'sk-marker-a\r\nX-Injected: 1'],
  ['LF', 'sk-marker-a\nb'],
  ['tab', 'sk-marker-a\tb'],
  ['DEL', 'sk-marker-a\u007fb'],
  ['a C1 control', 'sk-marker-a\u0085b'],
  ['a character beyond U+00FF', 'sk-marker-a\u20acb'],
  ['an emoji', 'sk-marker-a\u{1f511}b'],
  ['one character too many', `sk-marker-${'k'.repeat(MAX_SECRET_LENGTH - 9)}`],
  ['1 MB', `sk-marker-${'k'.repeat(1024 * 1024 - 64 * 1024)}`],
];

describe('secret fields are bounded and header-safe', function () {
  this.timeout(60_000);
  let f: TrafficFixture;
  let mcp: FakeMcpServer;
  const admin = () => ({
    post: (path: string, body: object, headers: Record<string, string> = {}) => request(f.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).set(headers).send(body),
    put: (path: string, body: object, headers: Record<string, string> = {}) => request(f.app).put(path).set('x-api-key', TEST_KEYS.superAdmin).set(headers).send(body),
    get: (path: string, headers: Record<string, string> = {}) => request(f.app).get(path).set('x-api-key', TEST_KEYS.superAdmin).set(headers),
  });
  const ns = { 'x-gateway-namespace': 'default' };

  before(async () => {
    // Encrypted at rest, so a stored token's sealed form is longer than the clear one the schema bounds.
    f = await createTrafficFixture({ secret: 'secret-field-bounds-test-secret' });
    mcp = await startFakeMcpServer({ token: 'tok-registry-0123456789' });
  });
  after(async () => {
    await f.close();
    await mcp.close();
  });

  /** A refusal: 400 invalid_value in the error shape, naming `param`, without the secret or its marker. */
  function assertRefused(res: request.Response, param: string, label: string): void {
    assert.equal(res.status, 400, `${label}: ${res.text.slice(0, 200)}`);
    assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message', 'param', 'type'], label);
    assert.equal(res.body.error.code, 'invalid_value', label);
    assert.equal(res.body.error.param, param, label);
    assert.ok(!res.text.includes('marker'), `${label}: the answer echoes the value`);
    assert.ok(res.text.length < 1000, `${label}: a short answer`);
  }

  it("refuses a provider's inline api_key with control characters, characters beyond U+00FF or over the length limit, and stores no provider", async () => {
    for (const [label, secret] of BAD_SECRETS) {
      const res = await admin().post('/v1/admin/providers', { name: 'bad-inline', type: 'openai', config: { models: ['m-bad'] }, api_keys: [{ api_key: secret }] });
      assertRefused(res, 'api_keys[0].api_key', label);
      await admin().get('/v1/admin/providers/bad-inline').expect(404);
    }
    const update = await admin().put('/v1/admin/providers/fake', { api_keys: [{ api_key_secret_name: 'main', api_key: 'sk-marker-\r\nX' }] });
    assertRefused(update, 'api_keys[0].api_key', 'PUT /providers/fake');
  });

  it('refuses the same through the provider-keys API on create and update; the stored key keeps serving', async () => {
    for (const [label, secret] of BAD_SECRETS) {
      assertRefused(await admin().post('/v1/admin/providers/fake/keys/extra', { api_key: secret }, ns), 'api_key', `POST ${label}`);
      assertRefused(await admin().put('/v1/admin/providers/fake/keys/main', { api_key: secret }, ns), 'api_key', `PUT ${label}`);
      assertRefused(await admin().post('/v1/admin/providers/fake/keys/extra', { api_key: 'sk-fine-0123456789', api_key_secret_key: secret }, ns), 'api_key_secret_key', `api_key_secret_key ${label}`);
    }
    await admin().get('/v1/admin/providers/fake/keys/extra', ns).expect(404);
    const res = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody()).expect(200);
    assert.ok(res.body.choices);
    assert.equal(f.fake.requests.at(-1)?.headers.authorization, 'Bearer sk-stored-provider-key-0001');
  });

  it('refuses a header_key or query_param_key over 256 characters (a 1 MB header name would make every call fail)', async () => {
    for (const field of ['header_key', 'query_param_key']) {
      for (const name of ['x'.repeat(257), 'x'.repeat(1024 * 1024 - 64 * 1024)]) {
        const res = await admin().post('/v1/admin/providers/fake/keys/extra', { api_key: 'sk-fine-0123456789', [field]: name }, ns);
        assertRefused(res, field, `${field} of ${name.length}`);
      }
    }
    await admin().post('/v1/admin/providers/fake/keys/named', { api_key: 'sk-fine-0123456789', header_key: 'x'.repeat(256) }, ns).expect(201);
  });

  it(`accepts a key of exactly ${MAX_SECRET_LENGTH} characters, with spaces and Latin-1, and sends it as given`, async () => {
    const long = `sk-long-${'k'.repeat(MAX_SECRET_LENGTH - 8)}`;
    await admin().post('/v1/admin/providers', { name: 'long-key', type: 'openai', config: { api_base: `${f.fake.url}/v1`, models: ['m-long'] }, api_keys: [{ api_key: long, header_key: 'x-long-key' }] }).expect(201);
    await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'm-long' })).expect(200);
    assert.equal(f.fake.requests.at(-1)?.headers['x-long-key'], long);
    await admin().post('/v1/admin/providers/long-key/keys/latin', { api_key: 'Basic caf\u00e9 0123456789' }, ns).expect(201);
  });

  it("refuses a registry's authorization_token likewise on create and update, and keeps a long stored token through updates", async () => {
    for (const [label, secret] of BAD_SECRETS) {
      assertRefused(await admin().post('/v1/admin/mcp/registries', { name: 'bad-token', url: mcp.url, authorization_token: secret }), 'authorization_token', `POST ${label}`);
      await admin().get('/v1/admin/mcp/registries/bad-token').expect(404);
    }
    await admin().post('/v1/admin/mcp/registries', { name: 'tools', url: mcp.url, authorization_token: 'tok-registry-0123456789' }).expect(201);
    for (const [label, secret] of BAD_SECRETS) {
      assertRefused(await admin().put('/v1/admin/mcp/registries/tools', { authorization_token: secret }), 'authorization_token', `PUT ${label}`);
    }
    const tools = await admin().get('/v1/admin/mcp/registries/tools/tools').expect(200);
    assert.equal(tools.body.length, 3, 'the stored token still reaches the tool server');

    // A token at the limit is stored sealed (longer than the limit); an update leaving it out keeps it.
    const long = `tok-${'t'.repeat(MAX_SECRET_LENGTH - 4)}`;
    await admin().post('/v1/admin/mcp/registries', { name: 'long-token', url: 'http://127.0.0.1:9/mcp', authorization_token: long }).expect(201);
    await admin().put('/v1/admin/mcp/registries/long-token', { description: 'changed' }).expect(200);
    const shown = await admin().get('/v1/admin/mcp/registries/long-token').expect(200);
    assert.equal(shown.body.description, 'changed');
    assert.equal(shown.body.authorization_token, `tok...${'t'.repeat(4)}`);
    await admin().put('/v1/admin/mcp/registries/long-token', { authorization_token: shown.body.authorization_token }).expect(200);
  });
});
