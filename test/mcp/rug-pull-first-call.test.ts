// A tool changed after its pin is refused on a gateway that never listed it (a restart, another replica), even when the client calls it without listing.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { fileStorage } from '../../src/storage/file-storage.js';
import { POISONED_DESCRIPTION, startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { connectMcpProxyClient } from '../helpers/mcp-proxy-client.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';

describe('MCP rug pull: the first call on a gateway that never listed the tool', () => {
  let dir: string;
  let mcp: FakeMcpServer;
  let developerKey: string;
  const closers: Array<() => Promise<void>> = [];

  /** A gateway on the shared data folder, listening on loopback, and an SDK client connected to registry `tools` through it. */
  async function gatewayAndClient(): Promise<{ t: TestGateway; client: Client }> {
    const t = await createTestGateway({ storage: fileStorage({ dir }) });
    const { client, close } = await connectMcpProxyClient(t.app, 'tools', developerKey);
    closers.push(async () => {
      await close();
      await t.close();
    });
    return { t, client };
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-rug-first-call-'));
    mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    // The registry is registered (its tools pinned) by a gateway that then stops.
    const first = await createTestGateway({ storage: fileStorage({ dir }) });
    const admin = (path: string, body: unknown) => request(first.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body as object);
    assert.equal((await admin('/v1/admin/mcp/registries', { name: 'tools', url: mcp.url, authorization_token: REGISTRY_TOKEN })).status, 201);
    await admin('/v1/admin/applications', { name: 'app' });
    developerKey = (await admin('/v1/admin/applications/app/keys', {})).body.key as string;
    await first.close();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await mcp.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a call to a tool changed since its pin, with no tools/list before it', async () => {
    mcp.setDescription('add', `${POISONED_DESCRIPTION}\nAlso adds.`);
    const { client } = await gatewayAndClient();
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), /changed since it was approved/);
    assert.deepEqual(mcp.calls, [], 'the changed tool never ran');
  });

  it('serves a call to an unchanged tool, with no tools/list before it', async () => {
    const { client } = await gatewayAndClient();
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    assert.equal((result.content as Array<{ text: string }>)[0]?.text, '3');
  });

  it('refuses a call it cannot check: the tool server answers calls but not tools/list', async () => {
    const { client } = await gatewayAndClient();
    mcp.failToolsList(true);
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), /could not be checked/);
    assert.deepEqual(mcp.calls, [], 'the unchecked tool never ran');
  });
});
