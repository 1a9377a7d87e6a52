// The registry token never leaks from an echoing tool server (issue 11.2), and reading the Tools tab never writes (issue 11.4).
import assert from 'node:assert/strict';
import request from 'supertest';
import type { GatewayLogger } from '../../src/index.js';
import { POISONED_DESCRIPTION } from '../helpers/fake-mcp-server.js';
import { createMcpFixture, REGISTRY_TOKEN, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';

/** A logger that keeps every line it is given. */
function capturingLogger(): GatewayLogger & { lines: unknown[] } {
  const lines: unknown[] = [];
  const keep = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, ...fields });
  return { lines, info: keep, warn: keep, error: keep };
}

/** The forms of the token a user would look for: as is, upper-cased, and base64 (alone and inside `Bearer <token>`). */
const TOKEN_FORMS = [REGISTRY_TOKEN, REGISTRY_TOKEN.toUpperCase(), Buffer.from(REGISTRY_TOKEN).toString('base64').slice(0, 24), Buffer.from(`Bearer ${REGISTRY_TOKEN}`).toString('base64')];
const leaks = (text: string): string[] => TOKEN_FORMS.filter((form) => text.includes(form));

const ECHOES: Record<string, (authorization: string | undefined) => string> = {
  plain: (authorization) => `invalid token ${authorization}`,
  'upper-cased': (authorization) => `INVALID TOKEN ${String(authorization).toUpperCase()}`,
  base64: (authorization) => `invalid token ${Buffer.from(String(authorization)).toString('base64')}`,
};

describe('MCP registry token scrubbing', () => {
  let f: McpFixture;
  let logger: ReturnType<typeof capturingLogger>;
  beforeEach(async () => {
    logger = capturingLogger();
    f = await createMcpFixture({ logger });
  });
  afterEach(() => f.close());

  for (const [form, echo] of Object.entries(ECHOES)) {
    it(`11.2: a tool server echoing the token ${form} in a 401 shows it to neither the client, the viewer nor the logger`, async () => {
      f.mcp.setUnauthorizedBody(echo);
      f.mcp.setToken('another-token-the-gateway-does-not-have');
      const relayed = await request(f.app)
        .post('/v1/mcp/tools')
        .set('authorization', `Bearer ${f.developerKey}`)
        .set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      assert.equal(relayed.status, 401);
      const tab = await request(f.app).get('/v1/admin/mcp/registries/tools/tools').set('x-api-key', TEST_KEYS.viewer);
      assert.equal(tab.status, 502);
      const logged = JSON.stringify(logger.lines);
      for (const text of [relayed.text, tab.text, logged]) assert.match(text, /invalid token/i, 'the echo itself is kept, only the token goes');
      assert.deepEqual({ client: leaks(relayed.text), viewer: leaks(tab.text), logger: leaks(logged) }, { client: [], viewer: [], logger: [] });
    });
  }

  it('11.2: a token echoed in a 200 tool result reaches neither the client nor Chronicles', async () => {
    const client = await f.connect();
    for (const text of [`the token is ${REGISTRY_TOKEN}`, `THE TOKEN IS ${REGISTRY_TOKEN.toUpperCase()}`, `encoded: ${Buffer.from(`Bearer ${REGISTRY_TOKEN}`).toString('base64')}`]) {
      f.mcp.setLookupResult(text);
      const result = await client.callTool({ name: 'lookup', arguments: { query: 'token' } });
      assert.deepEqual(leaks(JSON.stringify(result)), [], JSON.stringify(result));
    }
    const entries = await request(f.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.equal(entries.body.data.length, 3);
    assert.deepEqual(leaks(entries.text), [], entries.text);
  });
});

describe('MCP tool pins', () => {
  let f: McpFixture;
  beforeEach(async () => {
    f = await createMcpFixture({ poisoned: true });
  });
  afterEach(() => f.close());

  const snapshot = async () => JSON.stringify(await f.gateway.storage.list(''));
  const viewerTools = async () =>
    (await request(f.app).get('/v1/admin/mcp/registries/tools/tools').set('x-api-key', TEST_KEYS.viewer).expect(200)).body as Array<{ name: string; enabled: boolean; changed: boolean; disabled_reason: string | null; pinned_fingerprint: string | null }>;

  it('11.4: a viewer listing tools, and a client listing them through the proxy, leave storage unchanged', async () => {
    const before = await snapshot();
    const keys = (await f.gateway.storage.list('')).length;
    await viewerTools();
    await viewerTools();
    const client = await f.connect();
    await client.listTools();
    assert.equal((await f.gateway.storage.list('')).length, keys, 'no key was added');
    assert.equal(await snapshot(), before, 'no value was rewritten');
  });

  it('11.4: tools are pinned at registration, so a rug pull is still caught by a read, and an admin re-enables it', async () => {
    const pinned = await viewerTools();
    assert.ok(pinned.every((tool) => typeof tool.pinned_fingerprint === 'string'), 'registration pinned every tool');
    f.mcp.setDescription('add', `${POISONED_DESCRIPTION}\nAlso adds.`);
    const before = await snapshot();
    const add = (await viewerTools()).find((tool) => tool.name === 'add')!;
    assert.deepEqual([add.enabled, add.changed, add.disabled_reason], [false, true, 'rug_pull']);
    const client = await f.connect();
    assert.ok(!(await client.listTools()).tools.some((tool) => tool.name === 'add'), 'the changed tool is hidden');
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), /changed since it was approved/);
    assert.equal(await snapshot(), before, 'detecting the rug pull wrote nothing');
    await request(f.app).put('/v1/admin/mcp/registries/tools/tools/add').set('x-api-key', TEST_KEYS.admin).send({ enabled: true }).expect(200);
    assert.deepEqual(((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content as Array<{ text: string }>)[0]?.text, '3');
  });

  it('11.4: a tool the server starts listing after registration is pinned by the next admin write', async () => {
    await request(f.app).delete('/v1/admin/mcp/registries/tools').set('x-api-key', TEST_KEYS.superAdmin).expect(200);
    // Registered while the tool server refuses the token: nothing can be pinned yet.
    f.mcp.setToken('not-yet-0123456789');
    await request(f.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'tools', url: f.mcp.url, authorization_token: REGISTRY_TOKEN }).expect(201);
    f.mcp.setToken(REGISTRY_TOKEN);
    const unpinned = await viewerTools();
    assert.ok(unpinned.every((tool) => tool.pinned_fingerprint === null));
    assert.equal(unpinned.find((tool) => tool.name === 'echo')?.enabled, true, 'a first-seen tool is enabled');
    await request(f.app).put('/v1/admin/mcp/registries/tools/tools/echo').set('x-api-key', TEST_KEYS.admin).send({ enabled: false }).expect(200);
    const after = await viewerTools();
    assert.ok(after.every((tool) => typeof tool.pinned_fingerprint === 'string'), 'the admin write pinned every listed tool');
  });
});
