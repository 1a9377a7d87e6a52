// Admin writes on one MCP registry that run at the same time act on the registry as stored under its lock, never on what one of them read before.
import assert from 'node:assert/strict';
import request from 'supertest';
import type { StorageAdapter } from '../../src/storage/storage-adapter.js';
import { memoryStorage } from '../../src/storage/memory-storage.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { nextLockRequest } from '../helpers/lock-probe.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

const REGISTRY_KEY = 'mcp-registries/tools';

/** What the Tools tab shows of one tool. */
interface ToolRow {
  name: string;
  enabled: boolean;
  changed: boolean;
  disabled_reason: string | null;
  description: string | null;
}

describe('MCP registries: concurrent admin writes', () => {
  const servers: FakeMcpServer[] = [];
  let t: TestGateway | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const server of servers.splice(0)) await server.close();
  });

  const admin = (method: 'get' | 'post' | 'put', url: string) => request(t!.app)[method](`/v1/admin${url}`).set('x-api-key', TEST_KEYS.superAdmin);
  /** Starts a request now and keeps its answer (supertest sends only once awaited or `then`ed). */
  const started = (test: request.Test): Promise<request.Response> => test.then((answer) => answer);
  const server = async (): Promise<FakeMcpServer> => {
    const started = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    servers.push(started);
    return started;
  };

  it('11.7: a toggle arriving while an update moves the registry to another tool server pins the tool as the new server lists it', async () => {
    const before = await server();
    const after = await server();
    after.setDescription('add', 'Adds two integers.');
    t = await createTestGateway();
    await admin('post', '/mcp/registries').send({ name: 'tools', url: before.url, authorization_token: REGISTRY_TOKEN }).expect(201);

    // The update holds the registry's lock while the new server's tools/list is held.
    const held = after.holdToolsList();
    const update = started(admin('put', '/mcp/registries/tools').send({ url: after.url }));
    await held.reached;
    // The admin enables add meanwhile: the toggle reaches the registry's lock (the old code listed the old server first).
    const asked = nextLockRequest(t.gateway.storage, REGISTRY_KEY);
    const toggle = started(admin('put', '/mcp/registries/tools/tools/add').send({ enabled: true }));
    await asked;
    held.release();

    assert.equal((await update).status, 200);
    const toggled = await toggle;
    assert.equal(toggled.status, 200, toggled.text);
    assert.equal(toggled.body.tool.description, 'Adds two integers.', 'the toggle came after the update: it lists the new server');
    const tools = (await admin('get', '/mcp/registries/tools/tools').expect(200)).body as ToolRow[];
    const add = tools.find((tool) => tool.name === 'add')!;
    assert.deepEqual([add.enabled, add.changed, add.disabled_reason, add.description], [true, false, null, 'Adds two integers.'], 'enabled as the admin saw it, not a rug pull');
  });

  it('11.7: an update echoing the masked token while another update replaces the token is refused, and never puts the old token back', async () => {
    const tools = await server();
    const rotated = 'rotated-token-9876543210-zyxw';
    // Holds the record's write of the first update (inside the registry's lock) until released.
    const inner = memoryStorage();
    let hold: { reached(): void; released: Promise<void> } | undefined;
    const set: StorageAdapter['set'] = async (key, value) => {
      const current = hold;
      if (key === REGISTRY_KEY && current) {
        hold = undefined;
        current.reached();
        await current.released;
      }
      return inner.set(key, value);
    };
    t = await createTestGateway({ storage: { ...inner, set } });
    await admin('post', '/mcp/registries').send({ name: 'tools', url: tools.url, description: 'first', authorization_token: REGISTRY_TOKEN }).expect(201);
    const shown = (await admin('get', '/mcp/registries/tools').expect(200)).body as { authorization_token: string };

    let reached!: () => void;
    let release!: () => void;
    const writing = new Promise<void>((resolve) => (reached = resolve));
    hold = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
    const rotate = started(admin('put', '/mcp/registries/tools').send({ authorization_token: rotated }));
    await writing;
    // A second admin saves the form as they read it (the token masked) while the rotation is being written.
    const asked = nextLockRequest(t.gateway.storage, REGISTRY_KEY);
    const save = started(admin('put', '/mcp/registries/tools').send({ description: 'second', authorization_token: shown.authorization_token }));
    await asked;
    release();

    assert.equal((await rotate).status, 200);
    const saved = await save;
    assert.equal(saved.status, 400, saved.text);
    assert.deepEqual([saved.body.error.code, saved.body.error.param], ['invalid_value', 'authorization_token']);
    const stored = (await admin('get', '/mcp/registries/tools').expect(200)).body as { authorization_token: string; description: string };
    assert.deepEqual([stored.authorization_token, stored.description], ['rot...zyxw', 'first']);
    // The tool server now wants the new token, and the gateway has it.
    tools.setToken(rotated);
    await admin('get', '/mcp/registries/tools/tools').expect(200);
  });

  it('11.7: a masked token echoed back unchanged keeps the stored token; one of another shape is stored as given', async () => {
    const tools = await server();
    t = await createTestGateway();
    await admin('post', '/mcp/registries').send({ name: 'tools', url: tools.url, authorization_token: REGISTRY_TOKEN }).expect(201);
    const shown = (await admin('get', '/mcp/registries/tools').expect(200)).body.authorization_token as string;
    await admin('put', '/mcp/registries/tools').send({ description: 'second', authorization_token: shown }).expect(200);
    await admin('get', '/mcp/registries/tools/tools').expect(200);
    const refused = await admin('post', '/mcp/registries').send({ name: 'copy', url: tools.url, authorization_token: shown });
    assert.deepEqual([refused.status, refused.body.error?.param], [400, 'authorization_token'], 'a mask is never stored as a token');
    await admin('put', '/mcp/registries/tools').send({ authorization_token: 'another-token-0123456789' }).expect(200);
    assert.equal((await admin('get', '/mcp/registries/tools').expect(200)).body.authorization_token, 'ano...6789');
  });
});
