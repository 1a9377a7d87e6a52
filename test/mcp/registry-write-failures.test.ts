// Registering, updating, deleting an MCP registry or toggling one of its tools is all or nothing: a storage failure at any of its writes leaves no registry, pin or change behind, and never a live registry without its pins.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { fileStorage } from '../../src/storage/file-storage.js';
import { memoryStorage } from '../../src/storage/memory-storage.js';
import { failingStorage } from '../helpers/failing-storage.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('MCP registries: writes cut short at every step', () => {
  let plain: FakeMcpServer;
  let poisoned: FakeMcpServer;
  let dir: string;
  before(async () => {
    plain = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    poisoned = await startFakeMcpServer({ token: REGISTRY_TOKEN, poisoned: true }); // one more tool: `secret_add`
  });
  after(async () => {
    await plain.close();
    await poisoned.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-registry-writes-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const admin = (t: TestGateway, method: 'get' | 'post' | 'put' | 'delete', url: string) => request(t.app)[method](`/v1/admin${url}`).set('x-api-key', TEST_KEYS.superAdmin);
  const keys = async (t: TestGateway, prefix: string): Promise<string[]> => (await t.gateway.storage.list(prefix)).map((entry) => entry.key).sort();
  const registry = { name: 'tools', url: '', description: 'first', authorization_token: REGISTRY_TOKEN };

  /** Lists the tools of registry `tools` and calls `tool` through the gateway with the SDK client, as an agent would. */
  async function callThrough(t: TestGateway, tool: string): Promise<unknown> {
    await admin(t, 'post', '/applications').send({ name: 'app' }).expect(201);
    const key = (await admin(t, 'post', '/applications/app/keys').send({}).expect(201)).body.key as string;
    const server = t.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    try {
      const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/mcp/tools`);
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      await client.listTools();
      return await client.callTool({ name: tool, arguments: { a: 1, b: 2 } });
    } finally {
      await client.close().catch(() => undefined);
      server.closeAllConnections();
      server.close();
    }
  }

  /** A gateway on a fresh directory whose storage fails the chosen write. */
  async function gatewayOn(): Promise<{ t: TestGateway; storage: ReturnType<typeof failingStorage> }> {
    await rm(dir, { recursive: true, force: true });
    const storage = failingStorage(fileStorage({ dir }));
    return { t: await createTestGateway({ storage }), storage };
  }

  it('11.7: a registry create failing at any write (a tool pin or the record) answers an error and leaves no registry and no pin; a retry succeeds', async function () {
    this.timeout(60_000);
    const counting = await gatewayOn();
    counting.storage.arm(1000);
    await admin(counting.t, 'post', '/mcp/registries').send({ ...registry, url: plain.url }).expect(201);
    const total = counting.storage.writes();
    assert.equal(total, 4, 'three tool pins and the record');
    await counting.t.close();
    for (let failAt = 1; failAt <= total; failAt++) {
      const { t, storage } = await gatewayOn();
      try {
        storage.arm(failAt);
        const failed = await admin(t, 'post', '/mcp/registries').send({ ...registry, url: plain.url });
        assert.equal(failed.status, 500, `failing write ${failAt}: ${failed.text}`);
        await admin(t, 'get', '/mcp/registries/tools').expect(404);
        assert.deepEqual(await keys(t, 'mcp-registries/'), [], `failing write ${failAt}`);
        assert.deepEqual(await keys(t, 'mcp-tools/'), [], `failing write ${failAt}: no pin of a registry that was not stored`);
        await admin(t, 'post', '/mcp/registries').send({ ...registry, url: plain.url }).expect(201);
        assert.equal((await keys(t, 'mcp-tools/tools/')).length, 3);
      } finally {
        await t.close();
      }
    }
  });

  it('11.7: a registry update failing at any write (a new tool pin or the record) answers an error and leaves the registry and its pins as they were; a retry succeeds', async function () {
    this.timeout(60_000);
    let total = 0;
    for (let failAt = 0; failAt <= total; failAt++) {
      const { t, storage } = await gatewayOn();
      try {
        await admin(t, 'post', '/mcp/registries').send({ ...registry, url: plain.url }).expect(201);
        const before = { record: await t.gateway.storage.get('mcp-registries/tools'), pins: await keys(t, 'mcp-tools/') };
        assert.equal(before.pins.length, 3);
        const update = () => admin(t, 'put', '/mcp/registries/tools').send({ url: poisoned.url, description: 'second' });
        if (failAt === 0) {
          // No failure: counts the writes of the update.
          storage.arm(1000);
          await update().expect(200);
          total = storage.writes();
          assert.ok(total >= 2, `the new tool pin and the record: ${total} writes`);
          continue;
        }
        storage.arm(failAt);
        const failed = await update();
        assert.equal(failed.status, 500, `failing write ${failAt}: ${failed.text}`);
        assert.deepEqual(await t.gateway.storage.get('mcp-registries/tools'), before.record, `failing write ${failAt}`);
        assert.deepEqual(await keys(t, 'mcp-tools/'), before.pins, `failing write ${failAt}: no pin of the update is left`);
        assert.equal((await admin(t, 'get', '/mcp/registries/tools').expect(200)).body.description, 'first');
        await update().expect(200);
        assert.equal((await keys(t, 'mcp-tools/tools/')).length, 4);
      } finally {
        await t.close();
      }
    }
  });

  it('11.7: a registry delete failing at any write answers a 5xx and leaves the registry whole with every pin (a changed tool is still refused after a restart) or gone, inheriting nothing when re-created', async function () {
    this.timeout(120_000);
    const server = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    const original = 'Adds two numbers and returns the sum.';
    /** A registry with its three pins, `echo` switched off and its own policies. */
    const seeded = async () => {
      server.setDescription('add', original);
      const on = await gatewayOn();
      await admin(on.t, 'post', '/mcp/registries').send({ ...registry, url: server.url }).expect(201);
      await admin(on.t, 'put', '/mcp/registries/tools/tools/echo').send({ enabled: false }).expect(200);
      await admin(on.t, 'put', '/mcp/registries/tools/policies').send({ tool_injection: { enabled: true } }).expect(200);
      return on;
    };
    const owned = async (t: TestGateway) => [...(await keys(t, 'mcp-tools/')), ...(await keys(t, 'mcp-policies/'))];
    try {
      const counting = await seeded();
      counting.storage.arm(1000);
      await admin(counting.t, 'delete', '/mcp/registries/tools').expect(200);
      const total = counting.storage.writes();
      assert.equal(total, 5, 'the record, three tool states and the policies');
      assert.deepEqual(await owned(counting.t), []);
      await counting.t.close();
      for (let failAt = 1; failAt <= total; failAt++) {
        const { t, storage } = await seeded();
        let restarted: TestGateway | undefined;
        try {
          const before = await owned(t);
          assert.equal(before.length, 4);
          storage.arm(failAt);
          const failed = await admin(t, 'delete', '/mcp/registries/tools');
          assert.equal(failed.status, 500, `failing write ${failAt}: ${failed.text}`);
          const code = failAt === 1 ? 'mcp_registry_not_deleted' : 'mcp_registry_delete_incomplete';
          assert.deepEqual(Object.keys(failed.body.error).sort(), ['code', 'message', 'param', 'type']);
          assert.deepEqual([failed.body.error.code, failed.body.error.type], [code, 'api_error'], `failing write ${failAt}`);
          if (failAt === 1) {
            // The record's own write failed: nothing was removed, and the pins still guard the tools.
            await admin(t, 'get', '/mcp/registries/tools').expect(200);
            assert.deepEqual(await owned(t), before);
            await t.close();
            restarted = await createTestGateway({ storage: fileStorage({ dir }) });
            server.setDescription('add', 'Adds two numbers and returns their sum.');
            const tools = (await admin(restarted, 'get', '/mcp/registries/tools/tools').expect(200)).body as Array<{ name: string; enabled: boolean; changed: boolean; disabled_reason: string | null }>;
            const add = tools.find((tool) => tool.name === 'add')!;
            assert.deepEqual([add.enabled, add.changed, add.disabled_reason], [false, true, 'rug_pull']);
            await assert.rejects(callThrough(restarted, 'add'), /changed since it was approved/);
            continue;
          }
          // A write after the record's failed: the registry is gone, so nothing serves it without its pins.
          await admin(t, 'get', '/mcp/registries/tools').expect(404);
          assert.deepEqual((await admin(t, 'get', '/mcp/registries').expect(200)).body, []);
          assert.ok((await owned(t)).length > 0, `failing write ${failAt}: something is left to clean up`);
          // Re-created under its name before any restart, it starts clean: fresh pins, echo on, default policies.
          await admin(t, 'post', '/mcp/registries').send({ ...registry, url: server.url }).expect(201);
          assert.deepEqual(await keys(t, 'mcp-policies/'), [], `failing write ${failAt}: no policies inherited`);
          const states = await Promise.all((await keys(t, 'mcp-tools/')).map(async (key) => (await t.gateway.storage.get(key)) as { name: string; enabled: boolean }));
          assert.deepEqual(states.map((state) => [state.name, state.enabled]), [['add', true], ['echo', true], ['lookup', true]]);
        } finally {
          await (restarted ?? t).close();
        }
      }
    } finally {
      await server.close();
    }
  });

  it('11.7: tool states and policies of a registry that does not exist are removed at start', async () => {
    // What a crash during a registration or a delete can leave: pins (and policies) of a registry not stored.
    const { t } = await gatewayOn();
    await t.gateway.storage.set('mcp-tools/ghost/add', { name: 'add' });
    await t.gateway.storage.set('mcp-policies/ghost', {});
    await t.close();
    const restarted = await createTestGateway({ storage: fileStorage({ dir }) });
    try {
      assert.deepEqual(await keys(restarted, 'mcp-tools/'), []);
      assert.deepEqual(await keys(restarted, 'mcp-policies/'), []);
    } finally {
      await restarted.close();
    }
  });

  it('11.7: a tool toggle failing at any write (the pins of the tools not pinned yet or the tool\'s state) answers an error and leaves every tool state as it was; a retry succeeds', async function () {
    this.timeout(60_000);
    // A tool server that refuses the registry's token at registration: its tools are listed but not pinned yet.
    const server = await startFakeMcpServer({ token: 'another-token' });
    const toggle = (t: TestGateway) => admin(t, 'put', '/mcp/registries/tools/tools/add').send({ enabled: false });
    const states = async (t: TestGateway) => Promise.all((await keys(t, 'mcp-tools/')).map(async (key) => [key, await t.gateway.storage.get(key)]));
    try {
      let total = 0;
      for (let failAt = 0; failAt <= total; failAt++) {
        server.setToken('another-token');
        const { t, storage } = await gatewayOn();
        try {
          await admin(t, 'post', '/mcp/registries').send({ ...registry, url: server.url }).expect(201);
          server.setToken(REGISTRY_TOKEN);
          assert.deepEqual(await keys(t, 'mcp-tools/'), []);
          if (failAt === 0) {
            storage.arm(1000);
            await toggle(t).expect(200);
            total = storage.writes();
            assert.equal(total, 3, 'the state of add and the pins of echo and lookup');
            continue;
          }
          storage.arm(failAt);
          const failed = await toggle(t);
          assert.equal(failed.status, 500, `failing write ${failAt}: ${failed.text}`);
          assert.deepEqual(await states(t), [], `failing write ${failAt}: no tool state or pin is left`);
          await toggle(t).expect(200);
          assert.deepEqual(await keys(t, 'mcp-tools/tools/'), ['mcp-tools/tools/add', 'mcp-tools/tools/echo', 'mcp-tools/tools/lookup']);
          assert.equal(((await t.gateway.storage.get('mcp-tools/tools/add')) as { enabled: boolean }).enabled, false);
        } finally {
          await t.close();
        }
      }
    } finally {
      await server.close();
    }
  });

  it('11.7: registry policies stored while the registry is being deleted are not left for a registry re-created under that name', async () => {
    // The policies' write is held until the delete has answered (or had time to): a delete must wait for it.
    const inner = memoryStorage();
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = new Promise<void>((resolve) => (reached = resolve));
    const set: typeof inner.set = async (key, value) => {
      if (key === 'mcp-policies/tools') {
        reached();
        await held;
      }
      return inner.set(key, value);
    };
    const storage = { ...inner, set };
    const t = await createTestGateway({ storage });
    try {
      await admin(t, 'post', '/mcp/registries').send({ ...registry, url: plain.url }).expect(201);
      const put = admin(t, 'put', '/mcp/registries/tools/policies').send({}).then((answer) => answer);
      await writing;
      const removed = admin(t, 'delete', '/mcp/registries/tools').then((answer) => answer);
      await Promise.race([removed, new Promise((resolve) => setTimeout(resolve, 300))]);
      release();
      assert.equal((await put).status, 200);
      assert.equal((await removed).status, 200);
      assert.deepEqual(await keys(t, 'mcp-policies/'), [], 'no policies of a deleted registry');
    } finally {
      await t.close();
    }
  });
});
