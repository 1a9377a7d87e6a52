// A tool changed after this process listed it is refused once that listing is older than mcp.toolListMaxAgeMs, even when the client never lists again.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { createGateway } from '../../src/index.js';
import { POISONED_DESCRIPTION, startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { connectMcpProxyClient } from '../helpers/mcp-proxy-client.js';
import { createTestGateway, TEST_KEYS } from '../helpers/test-gateway.js';

describe('MCP rug pull after the first listing: calls re-list a tool list older than its maximum age', () => {
  let mcp: FakeMcpServer;
  let clock: number;
  const closers: Array<() => Promise<void>> = [];

  /** A gateway on a clock the test moves, with registry `tools` registered, and an SDK client that has listed its tools once. */
  async function listedClient(toolListMaxAgeMs?: number): Promise<Client> {
    const t = await createTestGateway({ now: () => new Date(clock), ...(toolListMaxAgeMs === undefined ? {} : { mcp: { toolListMaxAgeMs } }) });
    const admin = (path: string, body: unknown) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body as object);
    assert.equal((await admin('/v1/admin/mcp/registries', { name: 'tools', url: mcp.url, authorization_token: REGISTRY_TOKEN })).status, 201);
    await admin('/v1/admin/applications', { name: 'app' });
    const developerKey = (await admin('/v1/admin/applications/app/keys', {})).body.key as string;
    const { client, close } = await connectMcpProxyClient(t.app, 'tools', developerKey);
    closers.push(async () => {
      await close();
      await t.close();
    });
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'add'));
    return client;
  }

  const add = (client: Client) => client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  const sum = (result: Awaited<ReturnType<typeof add>>) => (result.content as Array<{ text: string }>)[0]?.text;

  beforeEach(async () => {
    clock = Date.parse('2026-11-28T12:00:00Z');
    mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await mcp.close();
  });

  it('refuses a tool changed after its listing once the listing is older than 60 s, with no tools/list from the client', async () => {
    const client = await listedClient();
    assert.equal(sum(await add(client)), '3');
    mcp.setDescription('add', `${POISONED_DESCRIPTION}\nAlso adds.`);
    clock += 61_000;
    await assert.rejects(add(client), /changed since it was approved/);
    assert.equal(mcp.calls.length, 1, 'the changed tool never ran');
    clock += 1_000;
    await assert.rejects(add(client), /changed since it was approved/, 'it stays disabled until an admin enables it');
  });

  it('does not list again for calls within the maximum age', async () => {
    const client = await listedClient();
    const before = mcp.toolListings;
    clock += 30_000;
    for (let index = 0; index < 3; index++) assert.equal(sum(await add(client)), '3');
    assert.equal(mcp.toolListings, before);
  });

  it('lists once for a burst of calls that find the listing stale', async () => {
    const client = await listedClient();
    const before = mcp.toolListings;
    clock += 61_000;
    const results = await Promise.all(Array.from({ length: 6 }, () => add(client)));
    assert.deepEqual(results.map(sum), ['3', '3', '3', '3', '3', '3']);
    assert.equal(mcp.toolListings, before + 1, 'one listing for the six calls');
  });

  it('with toolListMaxAgeMs 0, lists before every call, so the first call after a change is refused', async () => {
    const client = await listedClient(0);
    mcp.setDescription('add', `${POISONED_DESCRIPTION}\nAlso adds.`);
    await assert.rejects(add(client), /changed since it was approved/);
    assert.equal(mcp.calls.length, 0);
  });

  it('refuses a maximum age that is not a number of 0 or more at start', () => {
    for (const toolListMaxAgeMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '60000']) {
      assert.throws(() => createGateway({ mcp: { toolListMaxAgeMs: toolListMaxAgeMs as number } }), /toolListMaxAgeMs must be a number of 0 or more/);
    }
  });
});
