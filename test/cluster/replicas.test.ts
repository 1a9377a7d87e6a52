// Issue 14, the test that proves it: three example-server processes on one PostgreSQL schema and one Redis share configuration, keys, rate limits, approvals and Chronicles, survive kill -9, and ride out Redis and PostgreSQL outages.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { REGISTRY_TOKEN } from '../helpers/mcp-fixture.js';
import { requirePostgres } from '../helpers/postgres-test.js';
import { rateBursts } from '../helpers/rate-bursts.js';
import { rateWindowEmpty, requireRedis } from '../helpers/redis-test.js';
import { admin, adminOk, allChronicles, chat, killReplica, startCluster, within, type ChatResult, type Cluster, type Replica } from './cluster.js';

/** Replica B keeps at most this many Chronicles entries while PostgreSQL is away. */
const B_MAX_PENDING = 100;

describe('14 cluster: three example-server processes on one PostgreSQL schema and one Redis', function () {
  this.timeout(60_000);
  requirePostgres();
  requireRedis();
  let cluster: Cluster;
  let fake: FakeProvider;
  let mcp: FakeMcpServer;
  let a: Replica;
  let b: Replica;
  let c: Replica;
  /** Creates an application through `on` and answers a developer key of it. */
  const application = async (on: Replica, name: string): Promise<string> => {
    await adminOk(on, 'POST', '/applications', { name });
    return ((await adminOk(on, 'POST', `/applications/${name}/keys`, {})) as { key: string }).key;
  };

  before(async function () {
    this.timeout(150_000);
    fake = await startFakeProvider();
    mcp = await startFakeMcpServer({ token: REGISTRY_TOKEN });
    cluster = await startCluster(3, (i): Record<string, string> => (i === 1 ? { GATEWAY_CHRONICLES_MAX_PENDING: String(B_MAX_PENDING) } : {}));
    [a, b, c] = cluster.replicas as [Replica, Replica, Replica];
    fake.script((received) => {
      if (received.model !== 'tool-model') return undefined;
      const messages = (received.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
      const last = messages.at(-1);
      return last?.role === 'tool' ? { text: `The sum is ${String(last.content).replace(/[^0-9]/g, '')}.` } : { toolCall: { name: 'tools__add', arguments: { a: 2, b: 3 } } };
    });
  });
  after(async function () {
    this.timeout(30_000);
    await cluster?.close();
    await fake?.close();
    await mcp?.close();
  });

  it('14.3: a provider, route and application created through replica A serve traffic on B and C', async () => {
    await adminOk(a, 'POST', '/providers', { name: 'fake', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['gpt-4o-mini', 'tool-model'] }, api_keys: [{ api_key: 'sk-cluster-provider-key-0001' }] });
    await adminOk(a, 'POST', '/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    const key = await application(a, 'shop');
    for (const replica of [b, c]) {
      const answer = await chat(replica, key, 'chat');
      assert.equal(answer.status, 200, `replica ${replica.name}`);
    }
  });

  it('14.3: a key revoked through A is refused by B within 1 s (measured), though B had it cached', async () => {
    const keys = (await adminOk(a, 'GET', '/applications/shop/keys')) as Array<{ id: string }>;
    const created = (await adminOk(a, 'POST', '/applications/shop/keys', { name: 'revoked-soon' })) as { key: string };
    assert.equal((await chat(b, created.key, 'chat')).status, 200); // B now holds the key in its cache
    const listed = (await adminOk(a, 'GET', '/applications/shop/keys')) as Array<{ id: string }>;
    const id = listed.find((entry) => !keys.some((known) => known.id === entry.id))!.id;
    await adminOk(a, 'DELETE', `/applications/shop/keys/${id}`);
    const ms = await within(1000, async () => (await chat(b, created.key, 'chat')).status === 401, 'a 401 on replica B');
    console.log(`      revocation through A refused by B after ${ms.toFixed(0)} ms`);
    assert.equal((await chat(c, created.key, 'chat')).status, 401);
  });

  it('14.3: rate_limit 10: concurrent bursts to all three replicas admit at most 10 per second in total', async () => {
    await adminOk(a, 'POST', '/routes', { name: 'limited', type: 'chat', config: { settings: { rate_limit: 10 } }, models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    const key = await application(a, 'burst');
    // Each replica reads the route once (from PostgreSQL) before the bursts.
    for (const replica of cluster.replicas) assert.ok([200, 429].includes((await chat(replica, key, 'limited')).status));
    // A Redis command that times out on a loaded machine admits unchecked, with a warning (the documented fail-open mode).
    const uncheckedWarnings = (): number => cluster.replicas.reduce((sum, replica) => sum + replica.output().split('admitted unchecked').length - 1, 0);
    const admitted = await rateBursts(
      3,
      10,
      () => rateWindowEmpty(cluster.keyPrefix, 'limited', 1000),
      async () => (await Promise.all(cluster.replicas.flatMap((replica) => Array.from({ length: 10 }, () => chat(replica, key, 'limited'))))).map((answer) => answer.status),
      uncheckedWarnings,
    );
    console.log(`      admitted per burst of 30 across three processes: ${admitted.join(', ')}`);
  });

  it('14.3: an approval requested through A is approved through B', async () => {
    await adminOk(a, 'POST', '/mcp/registries', { name: 'tools', url: mcp.url, description: 'Test tools', authorization_token: REGISTRY_TOKEN });
    const key = await application(a, 'agent');
    const client = (replica: Replica) => new OpenAI({ apiKey: 'unused', baseURL: `${replica.base}/v1`, defaultHeaders: { 'X-Gateway-Apikey': key }, maxRetries: 0 });
    const tool = (replica: Replica) => ({ type: 'mcp' as const, server_label: 'tools', server_url: `${replica.base}/v1/mcp/tools`, headers: { Authorization: `Bearer ${key}` }, require_approval: 'always' as const });
    const first = await client(a).responses.create({ model: 'tool-model', input: 'What is 2 + 3?', tools: [tool(a)] });
    assert.deepEqual(first.output.map((item) => item.type), ['mcp_list_tools', 'mcp_approval_request']);
    const approval = first.output[1] as { id: string };
    assert.equal(mcp.calls.length, 0);
    const second = await client(b).responses.create({
      model: 'tool-model',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: approval.id, approve: true }],
      tools: [tool(b)],
    });
    assert.equal((second.output.find((item) => item.type === 'mcp_call') as { output: string }).output, '5');
    assert.equal(second.output_text, 'The sum is 5.');
    assert.deepEqual(mcp.calls, [{ name: 'add', arguments: { a: 2, b: 3 } }]);
  });

  it('14.3: an MCP session opened through A continues through B (its id is bound with the shared GATEWAY_SECRET) and ends through C', async () => {
    const key = await application(a, 'session');
    const headers = (session?: string): Record<string, string> => ({
      authorization: `Bearer ${key}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      ...(session === undefined ? {} : { 'mcp-session-id': session }),
    });
    const initialized = await fetch(`${a.base}/v1/mcp/tools`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cluster', version: '1.0.0' } } }),
    });
    const session = initialized.headers.get('mcp-session-id')!;
    await initialized.text();
    assert.equal((await fetch(`${b.base}/v1/mcp/tools`, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status, 202);
    const called = await fetch(`${b.base}/v1/mcp/tools`, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 20, b: 22 } } }) });
    assert.equal(called.status, 200);
    assert.match(await called.text(), /"text":"42"/);
    assert.equal((await fetch(`${c.base}/v1/mcp/tools`, { method: 'DELETE', headers: headers(session) })).status, 200);
  });

  it('14.2: Chronicles written through A, B and C read in full from A or B: each replica\'s entries newest first, no duplicates, no gaps', async () => {
    const key = await application(a, 'logged');
    // Each replica gets its own sequence of requests, one after another, all three at once.
    const stream = async (replica: Replica): Promise<ChatResult[]> => {
      const answers: ChatResult[] = [];
      for (let i = 0; i < 12; i++) answers.push(await chat(replica, key, 'chat'));
      return answers;
    };
    const streams = await Promise.all([a, b, c].map(stream));
    const answers = streams.flat();
    assert.ok(answers.every((answer) => answer.status === 200 && answer.id));
    const sent = answers.map((answer) => answer.id!).sort();
    for (const reader of [a, b]) {
      let read: Awaited<ReturnType<typeof allChronicles>> = [];
      await within(5000, async () => (read = await allChronicles(reader, 'logged')).length >= sent.length, `all ${sent.length} entries through ${reader.name}`);
      assert.deepEqual(read.map((entry) => entry.id).sort(), sent, `read through ${reader.name}: every entry once, no other`);
      const order = read.map((entry) => entry.id);
      for (const [index, replica] of [a, b, c].entries()) {
        const own = new Set(streams[index]!.map((answer) => answer.id!));
        assert.deepEqual(order.filter((id) => own.has(id)), streams[index]!.map((answer) => answer.id!).reverse(), `${replica.name}'s entries newest first, read through ${reader.name}`);
      }
      // Replicas append in batches, so entries of different replicas interleave by write time, up to a flush interval apart.
      let skew = 0;
      let newest = -Infinity;
      for (const entry of [...read].reverse()) {
        const time = Date.parse(entry.timestamp);
        skew = Math.max(skew, newest - time);
        newest = Math.max(newest, time);
      }
      console.log(`      through ${reader.name}: ${read.length} entries; largest start-time inversion between replicas ${skew} ms`);
    }
  });

  it('14.5: kill -9 of replica C during a burst: A and B keep answering, every answered request is in Chronicles but C\'s last batch', async () => {
    const key = await application(a, 'crash');
    const answers: ChatResult[] = [];
    let killedAt = Infinity;
    const started = performance.now();
    const worker = async (replica: Replica): Promise<void> => {
      while (performance.now() - started < 2000) answers.push(await chat(replica, key, 'chat'));
    };
    const killer = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      killedAt = performance.now();
      await killReplica(c);
    })();
    await Promise.all([killer, ...[a, b, c].flatMap((replica) => [worker(replica), worker(replica), worker(replica)])]);
    const survivors = answers.filter((answer) => answer.replica !== 'C');
    assert.ok(survivors.every((answer) => answer.status === 200), `A and B: ${survivors.map((answer) => answer.status).join(',')}`);
    assert.ok(survivors.filter((answer) => answer.endedAt > killedAt).length > 0, 'A and B answered after the kill');
    const answered = answers.filter((answer) => answer.status === 200);
    const fromC = answered.filter((answer) => answer.replica === 'C');
    assert.ok(fromC.length > 0, 'C answered before it was killed');
    // A and B flush within 200 ms: wait until their entries are there, then compare.
    const ids = new Set<string>();
    await within(5000, async () => {
      ids.clear();
      for (const entry of await allChronicles(a, 'crash')) ids.add(entry.id);
      return survivors.every((answer) => ids.has(answer.id!));
    }, 'every entry of A and B');
    const missing = answered.filter((answer) => !ids.has(answer.id!));
    assert.ok(missing.every((answer) => answer.replica === 'C'), 'only the killed replica lost entries');
    // Batches are written in order, so what C lost is the tail of what it answered: every lost entry ended after every
    // kept one (give or take how late the client saw answers that ended together), and no more than one batch.
    const lastKept = Math.max(...fromC.filter((answer) => ids.has(answer.id!)).map((answer) => answer.endedAt));
    assert.ok(missing.every((answer) => answer.endedAt > lastKept - 200), 'C lost only its newest entries, no gap in the middle');
    assert.ok(missing.length <= 500, 'at most one batch (500 entries)');
    console.log(`      ${answered.length} answered (${fromC.length} by C), ${missing.length} of C's lost with its unflushed batch`);
  });

  it('14.5: Redis away: rate limits fail open with a warning, model traffic goes on; limits apply again once Redis is back', async () => {
    const key = await application(a, 'redis-outage');
    const burst = async (): Promise<number[]> =>
      (await Promise.all([a, b].flatMap((replica) => Array.from({ length: 10 }, () => chat(replica, key, 'limited'))))).map((answer) => answer.status);
    await cluster.redis.cut();
    try {
      const statuses = await burst();
      assert.deepEqual(statuses.filter((status) => status !== 200), [], 'every request admitted while Redis is away (fail open)');
      for (const replica of [a, b]) assert.match(replica.output(), /shared rate limits are unavailable.*admitted unchecked/);
    } finally {
      await cluster.redis.restore();
    }
    const ms = await within(10_000, async () => (await burst()).includes(429), 'a 429 after Redis came back');
    console.log(`      rate limits applied again ${ms.toFixed(0)} ms after Redis came back`);
    // A replica notices Redis is back with its next rate check, so keep sending until each has said so.
    for (const replica of [a, b]) {
      await within(5000, async () => {
        if (/shared rate limits work again/.test(replica.output())) return true;
        await chat(replica, key, 'limited');
        return false;
      }, `the recovery line of ${replica.name}`);
    }
  });

  it('14.5: PostgreSQL away: model traffic goes on from the cache, admin writes 503 storage_unavailable, Chronicles buffered to a bound then dropped with a warning; all recovers', async () => {
    // Each replica serves an application it created itself. A replica skips the change notices of its own writes, so
    // its warm-up request leaves the records cached for the outage; the notice of another replica's write reaches it
    // when it does (late on a loaded machine), and arriving after the warm-up it dropped the copy the outage needed.
    const keys = new Map([
      [a, await application(a, 'pg-outage-a')],
      [b, await application(b, 'pg-outage-b')],
    ]);
    const appOf = (replica: Replica): string => `pg-outage-${replica.name.toLowerCase()}`;
    for (const replica of [a, b]) assert.equal((await chat(replica, keys.get(replica)!, 'chat')).status, 200); // cached on each
    const entriesOf = async (): Promise<Set<string>> =>
      new Set((await Promise.all([a, b].map((replica) => allChronicles(a, appOf(replica))))).flat().map((entry) => entry.id));
    await within(5000, async () => (await entriesOf()).size === 2, 'the warm-up entries');
    await cluster.postgres.cut();
    const during: ChatResult[] = [];
    try {
      for (let round = 0; round < 14; round++) during.push(...(await Promise.all([a, b, b, b, b, b, b, b, b, b, b].map((replica) => chat(replica, keys.get(replica)!, 'chat')))));
      assert.deepEqual(during.filter((answer) => answer.status !== 200), [], 'model traffic from the cached configuration');
      const write = await admin(a, 'POST', '/applications', { name: 'not-now' });
      assert.equal(write.status, 503);
      assert.equal(write.body.error.code, 'storage_unavailable');
      assert.equal(write.body.error.type, 'api_error');
      assert.doesNotMatch(JSON.stringify(write.body), /127\.0\.0\.1|postgres:/, 'no address in the answer');
      await within(5000, async () => /request log entries were dropped/.test(b.output()), 'the drop warning of B');
      const warning = b.output().split('\n').find((line) => line.includes('request log entries were dropped'))!;
      assert.ok((JSON.parse(warning) as { total: number }).total >= 1);
    } finally {
      await cluster.postgres.restore();
    }
    const ms = await within(15_000, async () => (await admin(a, 'POST', '/applications', { name: 'after-outage' })).status === 201, 'an admin write after PostgreSQL came back');
    console.log(`      admin writes work again ${ms.toFixed(0)} ms after PostgreSQL came back`);
    const fromA = during.filter((answer) => answer.replica === 'A');
    const fromB = during.filter((answer) => answer.replica === 'B');
    let ids = new Set<string>();
    const keptFromB = (): number => fromB.filter((answer) => ids.has(answer.id!)).length;
    // Nobody sends or reads through B: its retry timer writes what it kept by itself.
    await within(10_000, async () => {
      ids = await entriesOf();
      return fromA.every((answer) => ids.has(answer.id!)) && keptFromB() > 0;
    }, 'the entries A and B kept through the outage');
    assert.equal(keptFromB(), B_MAX_PENDING, `B kept ${B_MAX_PENDING} of its ${fromB.length} entries and dropped the rest`);
    const afterOutage = await chat(b, keys.get(b)!, 'chat');
    assert.equal(afterOutage.status, 200);
    await within(5000, async () => (await entriesOf()).has(afterOutage.id!), "B's entry after the outage");
    assert.equal((await allChronicles(a, appOf(a))).length, 1 + fromA.length);
    assert.equal((await allChronicles(a, appOf(b))).length, 1 + B_MAX_PENDING + 1);
    console.log(`      during the outage: A buffered all ${fromA.length}, B kept ${B_MAX_PENDING} of ${fromB.length} and dropped the rest`);
  });
});
