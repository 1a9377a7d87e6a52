// Registering, updating an MCP registry or toggling one of its tools is all or nothing: a storage failure at any of its writes leaves no registry, pin or change behind.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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

  it('11.7: a registry delete removes its tool states and policies before the record, and those of a registry that is gone are removed at start', async () => {
    const { t, storage } = await gatewayOn();
    await admin(t, 'post', '/mcp/registries').send({ ...registry, url: plain.url }).expect(201);
    storage.arm(1);
    await admin(t, 'delete', '/mcp/registries/tools').expect(500);
    await admin(t, 'get', '/mcp/registries/tools').expect(200); // the record goes last: still there to delete again
    await admin(t, 'delete', '/mcp/registries/tools').expect(200);
    assert.deepEqual(await keys(t, 'mcp-tools/'), []);
    // What a crash during a registration can leave: pins (and policies) of a registry never stored.
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
