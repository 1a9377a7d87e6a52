// A replica closed while a model request or an MCP tool call is in flight answers it, and its Chronicles entry, usage totals and budget spend reach the shared storage; later requests are refused, not served unlogged.
import assert from 'node:assert/strict';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { eventually } from '../helpers/eventually.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { connectMcpProxyClient, type McpProxyClient } from '../helpers/mcp-proxy-client.js';
import { sharedReplicaOptions } from '../helpers/shared-replica-options.js';
import { createTestGateway, type TestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, oneDollarPerAnswer } from '../usage/usage-helpers.js';

describe('gateway.close() with work in flight (replicas on PostgreSQL and Redis)', function () {
  this.timeout(30_000);
  let a: TrafficFixture | undefined;
  let toolReplica: TestGateway | undefined;
  let replicaB: TestGateway;
  let mcp: FakeMcpServer | undefined;
  let proxyClient: McpProxyClient | undefined;
  let release: () => void = () => undefined;
  // Before the schema and key prefix are removed (the after hook of sharedReplicaOptions, declared below).
  after(async () => {
    await replicaB?.close();
    await mcp?.close();
  });
  afterEach(async () => {
    release();
    await proxyClient?.close();
    await a?.close();
    await toolReplica?.close();
    [proxyClient, a, toolReplica] = [undefined, undefined, undefined];
  });
  const { options } = sharedReplicaOptions({ secret: 'close-in-flight-secret-0123456789' });
  before(async () => {
    replicaB = await createTestGateway(options());
  });
  /** Replica B's view of the fixture's admin API (same keys), to read what A wrote. */
  const throughB = (f: TrafficFixture): TrafficFixture => ({ ...f, ...replicaB }) as TrafficFixture;

  it('the model answer in flight when close() is called is logged, counted and spent; a request after the last flush is 503 not_ready', async () => {
    a = await createTrafficFixture(options());
    await oneDollarPerAnswer(a);
    await a.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(a, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 100, period: 'day' } }).expect(200);
    const b = throughB(a);

    a.fake.script({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const answer = chat(a).then((res) => res);
    await eventually(() => assert.equal(a!.fake.requests.length, 1, 'the request reached the provider'), 10_000);
    const closing = a.gateway.close();
    release();
    const res = await answer;
    assert.equal(res.status, 200);
    const id = res.headers['x-gateway-request-id'] as string;
    await closing;

    // Read through the other replica: the closed one wrote everything before it stopped.
    const entry = await admin(b, 'get', `/v1/admin/applications/app/chronicles/${id}`);
    assert.equal(entry.status, 200, 'the entry of the answer in flight is in Chronicles');
    assert.equal(entry.body.status, 200);
    const usage = (await admin(b, 'get', '/v1/admin/usage').expect(200)).body.data as Array<{ application: string; requests: number; cost_usd: number }>;
    assert.deepEqual(
      usage.filter((row) => row.application === 'app').map((row) => [row.requests, row.cost_usd]),
      [[1, 1]],
      'the request is in the usage totals',
    );
    const budgets = (await admin(b, 'get', '/v1/admin/budgets').expect(200)).body.data as Array<{ application: string; spent_usd: number }>;
    assert.equal(budgets.find((budget) => budget.application === 'app')?.spent_usd, 1, 'its spend is in the shared budget');

    // The closed gateway serves nothing it could no longer log or count.
    const late = await chat(a);
    assert.equal(late.status, 503);
    assert.equal(late.body.error.code, 'not_ready');
    assert.match(late.body.error.message, /stopping/);
    assert.equal(a.fake.requests.length, 1, 'no provider call after close');
  });

  it('the MCP tool call in flight when close() is called is answered and logged', async () => {
    mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    toolReplica = await createTestGateway(options());
    const onA = { app: toolReplica.app } as TrafficFixture;
    await admin(onA, 'post', '/v1/admin/applications').send({ name: 'agent' }).expect(201);
    await admin(onA, 'post', '/v1/admin/mcp/registries').send({ name: 'tools', url: mcp.url, authorization_token: REGISTRY_TOKEN }).expect(201);
    const key = ((await admin(onA, 'post', '/v1/admin/applications/agent/keys').send({}).expect(201)).body as { key: string }).key;
    proxyClient = await connectMcpProxyClient(toolReplica.app, 'tools', key);

    const held = mcp.holdToolCalls();
    release = held.release;
    const called = proxyClient.client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    await held.reached;
    const closing = toolReplica.gateway.close();
    held.release();
    assert.deepEqual((await called).content, [{ type: 'text', text: '42' }]);
    await closing;

    const entries = (await admin({ app: replicaB.app } as TrafficFixture, 'get', '/v1/admin/applications/agent/chronicles').expect(200)).body.data as Array<{ kind: string; status: number; tool_invocations: Array<{ tool: string }> }>;
    assert.deepEqual(
      entries.filter((entry) => entry.kind === 'tool').map((entry) => [entry.status, entry.tool_invocations[0]?.tool]),
      [[200, 'add']],
      'the tool call is in Chronicles',
    );
  });
});

describe('gateway.close() while requests keep coming', function () {
  this.timeout(30_000);
  let fixture: TrafficFixture | undefined;
  let release: () => void = () => undefined;
  afterEach(async () => {
    release();
    await fixture?.close();
    fixture = undefined;
  });

  it('a request that arrives while close() waits for one in flight is refused at once, so a steady stream of requests cannot hold close() open', async () => {
    const a = (fixture = await createTrafficFixture());
    await a.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    a.fake.script({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const answer = chat(a).then((res) => res);
    await eventually(() => assert.equal(a.fake.requests.length, 1, 'the request reached the provider'), 10_000);
    const closing = a.gateway.close();

    const during = await chat(a);
    assert.equal(during.status, 503, 'refused while close() waits');
    assert.equal(during.body.error.code, 'not_ready');
    assert.equal(a.fake.requests.length, 1, 'no provider call for it');

    release();
    assert.equal((await answer).status, 200, 'the request in flight is answered');
    await closing;
  });
});
