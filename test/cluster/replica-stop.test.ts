// SIGTERM of one example-server replica while its keep-alive connections carry model requests: every request it answered is in Chronicles and the usage totals, once.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { requirePostgres } from '../helpers/postgres-test.js';
import { requireRedis } from '../helpers/redis-test.js';
import { adminOk, allChronicles, startCluster, within, type Cluster, type Replica } from './cluster.js';

/** One answer read through a keep-alive agent: status (0 when the connection failed, with its error code), request id and `Connection` header. */
interface AgentAnswer {
  status: number;
  id?: string;
  connection?: string;
  error?: string;
}

/** A chat completion on route `chat` sent through `agent` (which keeps its connections open between requests). */
function chatThrough(agent: Agent, replica: Replica, key: string): Promise<AgentAnswer> {
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
  const url = new URL(`${replica.base}/v1/chat/completions`);
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'x-gateway-apikey': key, 'x-gateway-route': 'chat', 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, id: res.headers['x-gateway-request-id'] as string | undefined, connection: res.headers.connection }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, error: error.code }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, error: error.code }));
    req.end(body);
  });
}

describe('SIGTERM of a replica under load on kept-alive connections', function () {
  this.timeout(60_000);
  requirePostgres();
  requireRedis();
  let cluster: Cluster;
  let fake: FakeProvider;
  let release: () => void = () => undefined;

  before(async function () {
    this.timeout(150_000);
    fake = await startFakeProvider();
    cluster = await startCluster(2);
  });
  after(async function () {
    this.timeout(30_000);
    release();
    await cluster?.close();
    await fake?.close();
  });

  it('the answers in flight are logged and counted before the replica exits 0; nothing it answered is missing or counted twice', async () => {
    const [a, b] = cluster.replicas as [Replica, Replica];
    await adminOk(a, 'POST', '/providers', { name: 'fake', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['gpt-4o-mini'] }, api_keys: [{ api_key: 'sk-stop-provider-key-0001' }] });
    await adminOk(a, 'POST', '/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await adminOk(a, 'POST', '/applications', { name: 'stopping' });
    const key = ((await adminOk(a, 'POST', '/applications/stopping/keys', {})) as { key: string }).key;

    // A load balancer's pool: two kept-alive connections to B, each carrying one request the provider holds, and two
    // more requests queued for those connections.
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      assert.equal((await chatThrough(agent, b, key)).status, 200); // B has read the route and key
      fake.reset();
      fake.script({ hold: new Promise<void>((resolve) => (release = resolve)) });
      const answers = Array.from({ length: 4 }, () => chatThrough(agent, b, key));
      await within(10_000, async () => fake.requests.length === 2, 'two requests held by the provider');
      const exited = once(b.child, 'exit');
      b.child.kill('SIGTERM');
      await within(10_000, async () => b.output().includes('shutting down'), "B's shutdown line");
      release();
      const results = await Promise.all(answers);
      const [code] = await exited;
      assert.equal(code, 0, b.output());

      // The answers in flight tell the pool to drop their connections, so the queued requests open new ones, find the
      // port closed, and were never sent (a refused connection is safe to retry on another replica).
      assert.deepEqual(
        results.map((result) => [result.status, result.connection ?? result.error]),
        [[200, 'close'], [200, 'close'], [0, 'ECONNREFUSED'], [0, 'ECONNREFUSED']],
      );
      const answered = results.slice(0, 2);

      // Read through A: every answer of B, with nothing else and nothing twice (the warm-up request included).
      const entries = await allChronicles(a, 'stopping');
      assert.deepEqual(
        answered.map((result) => result.id).filter((id) => !entries.some((entry) => entry.id === id)),
        [],
        `every request B answered is in Chronicles (${entries.length} entries, ${answered.length} answered)`,
      );
      assert.equal(entries.length, answered.length + 1, 'one entry per answered request');
      const usage = (await adminOk(a, 'GET', '/usage')) as { data: Array<{ application: string; requests: number }> };
      assert.deepEqual(usage.data.filter((row) => row.application === 'stopping').map((row) => row.requests), [answered.length + 1], 'the usage totals count each answered request once');
    } finally {
      agent.destroy();
    }
  });
});
