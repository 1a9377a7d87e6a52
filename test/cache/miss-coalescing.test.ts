// Concurrent misses of one cache key: one goes upstream, the others wait for its stored answer (or go themselves when it is not stored).
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { eventually } from '../helpers/eventually.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { FakeRequest } from '../helpers/fake-provider.js';
import type { GatewayOptions, MissCoalescer } from '../../src/index.js';

/** A cached chat route without retries, so an upstream failure is the answer. */
const CACHED_ROUTE = { name: 'cached', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { settings: { retries: 0 }, cache: { ttl_seconds: 60 } } };

/** A gateway with the cached route on a loopback server, and a fake upstream that can hold an answer until released. */
interface Coalescing {
  f: TrafficFixture;
  server: LoopbackServer;
  /** The next upstream request asking `content` is held until the returned function is called, then answered `answer`. */
  holdNext(content: string, answer?: { text?: string; fail?: { status: number } }): () => void;
  /** POSTs a chat request for `content` to the cached route over real HTTP. */
  ask(content: string, options?: { stream?: boolean; headers?: Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  coalescer(): MissCoalescer;
  close(): Promise<void>;
}

const contentOf = (request: FakeRequest): unknown => (request.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages?.[0]?.content;

async function coalescing(options: GatewayOptions = {}, fixture?: TrafficFixture): Promise<Coalescing> {
  const f = fixture ?? (await createTrafficFixture(options));
  await f.create('/v1/admin/routes', CACHED_ROUTE);
  const server = await listenOnLoopback(f.app);
  const held = new Map<string, { hold: Promise<void>; text?: string; fail?: { status: number } }>();
  const releases: Array<() => void> = [];
  // Held answers are one-shot; any other request is answered at once with "Fresh." (so a second upstream call shows).
  f.fake.script((req) => {
    const content = String(contentOf(req));
    const answer = held.get(content);
    held.delete(content);
    return answer ?? { text: 'Fresh.' };
  });
  return {
    f,
    server,
    holdNext(content, answer = { text: 'From the leader.' }) {
      let release!: () => void;
      held.set(content, { hold: new Promise<void>((resolve) => (release = resolve)), ...answer });
      releases.push(release);
      return release;
    },
    ask: (content, { stream = false, headers = {}, signal } = {}) =>
      fetch(`${server.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached', ...headers },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], stream }),
        signal,
      }),
    coalescer: () => {
      assert.ok(f.gateway.cacheCoalescer, 'the gateway has a miss coalescer');
      return f.gateway.cacheCoalescer;
    },
    async close() {
      for (const release of releases) release();
      server.server.closeAllConnections();
      server.close();
      await f.close();
    },
  };
}

/** An answer's status, cache header and JSON body. */
async function read(answer: Response | Promise<Response>): Promise<{ status: number; cache: string | null; body: { choices: Array<{ message: { content: string } }> } }> {
  const response = await answer;
  return { status: response.status, cache: response.headers.get('x-gateway-cache'), body: (await response.json()) as never };
}

/** The text of an SSE answer, its deltas joined; asserts it ends with [DONE]. */
async function streamedText(response: Response): Promise<string> {
  const payloads = (await response.text()).split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
  assert.equal(payloads.at(-1), '[DONE]');
  return payloads.slice(0, -1).map((payload) => (JSON.parse(payload) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content ?? '').join('');
}

async function chronicles(f: TrafficFixture, count: number): Promise<Array<Record<string, unknown>>> {
  return eventually(async () => {
    const list = await request(f.app).get(`/v1/admin/applications/app/chronicles?limit=${count}`).set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.equal(list.body.data.length, count);
    return list.body.data as Array<Record<string, unknown>>;
  });
}

describe('response cache: concurrent misses are coalesced', function () {
  this.timeout(20_000);
  let c: Coalescing;
  beforeEach(async () => {
    c = await coalescing();
  });
  afterEach(() => c.close());

  it('N identical requests on a cold key: the upstream sees one, all get its answer, the N-1 followers are hits in the header and Chronicles', async () => {
    const release = c.holdNext('Hi', { text: 'From the leader.' });
    const leader = c.ask('Hi');
    await eventually(() => assert.equal(c.f.fake.requests.length, 1));
    const followers = [1, 2, 3, 4].map(() => c.ask('Hi'));
    await eventually(() => assert.equal(c.coalescer().waiting, 4));
    release();
    const [first, ...rest] = await Promise.all([leader, ...followers].map(read));
    assert.equal(c.f.fake.requests.length, 1);
    assert.equal(first!.cache, 'miss');
    assert.equal(first!.body.choices[0]!.message.content, 'From the leader.');
    for (const answer of rest) {
      assert.equal(answer.status, 200);
      assert.equal(answer.cache, 'hit');
      assert.deepEqual(answer.body, first!.body);
    }
    const entries = await chronicles(c.f, 5);
    assert.deepEqual(entries.map((entry) => entry.cache).sort(), ['hit', 'hit', 'hit', 'hit', 'miss']);
    for (const hit of entries.filter((entry) => entry.cache === 'hit')) {
      assert.deepEqual(hit.attempts, []);
      assert.equal(hit.output, 'From the leader.');
      assert.equal((hit.cost as { usd: number }).usd, 0, 'a follower answered from the cache is metered as a hit: it costs nothing');
    }
    assert.equal(c.coalescer().keys, 0);
    assert.equal(c.coalescer().waiting, 0);
  });

  it('streamed followers of a JSON leader get a valid SSE replay (official openai client and raw SSE); a JSON follower of a streamed leader gets JSON', async () => {
    const client = new OpenAI({ apiKey: c.f.developerKey, baseURL: `${c.server.base}/v1`, defaultHeaders: { 'x-gateway-route': 'cached' }, maxRetries: 0 });
    const release = c.holdNext('Stream me', { text: 'One answer for all.' });
    const leader = c.ask('Stream me');
    await eventually(() => assert.equal(c.f.fake.requests.length, 1));
    const sdk = client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream me' }], stream: true, stream_options: { include_usage: true } }).withResponse();
    const raw = c.ask('Stream me', { stream: true });
    await eventually(() => assert.equal(c.coalescer().waiting, 2));
    release();
    const json = await read(leader);
    assert.equal(json.cache, 'miss');
    const { data, response } = await sdk;
    assert.equal(response.headers.get('x-gateway-cache'), 'hit');
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of data) chunks.push(chunk);
    assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'One answer for all.');
    assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1)?.usage, (json.body as unknown as { usage: unknown }).usage);
    const rawAnswer = await raw;
    assert.equal(rawAnswer.headers.get('x-gateway-cache'), 'hit');
    assert.match(rawAnswer.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(await streamedText(rawAnswer), 'One answer for all.');
    assert.equal(c.f.fake.requests.length, 1);

    // The other way round: a streamed leader, a JSON follower.
    const again = c.holdNext('Streamed first', { text: 'Streamed, then JSON.' });
    const streamedLeader = c.ask('Streamed first', { stream: true });
    await eventually(() => assert.equal(c.f.fake.requests.length, 2));
    const jsonFollower = c.ask('Streamed first');
    await eventually(() => assert.equal(c.coalescer().waiting, 1));
    again();
    assert.equal(await streamedText(await streamedLeader), 'Streamed, then JSON.');
    const follower = await read(jsonFollower);
    assert.equal(follower.cache, 'hit');
    assert.equal(follower.body.choices[0]!.message.content, 'Streamed, then JSON.');
    assert.equal(c.f.fake.requests.length, 2);
  });

  it('a leader answered 500 by the upstream: its followers are not failed, they go upstream and succeed', async () => {
    const release = c.holdNext('Fails', { fail: { status: 500 } });
    const leader = c.ask('Fails');
    await eventually(() => assert.equal(c.f.fake.requests.length, 1));
    const followers = [1, 2, 3].map(() => c.ask('Fails'));
    await eventually(() => assert.equal(c.coalescer().waiting, 3));
    release();
    assert.equal((await leader).status, 500);
    for (const answer of await Promise.all(followers.map(read))) {
      assert.equal(answer.status, 200);
      assert.equal(answer.cache, 'miss');
      assert.equal(answer.body.choices[0]!.message.content, 'Fresh.');
    }
    assert.equal(c.f.fake.requests.length, 4);
    assert.equal(c.coalescer().waiting, 0);
    await eventually(() => assert.equal(c.coalescer().keys, 0));
    assert.equal((await read(c.ask('Fails'))).cache, 'hit', 'a follower\'s answer was stored');
  });

  it('a leader whose client leaves before its answer: its followers go upstream', async () => {
    const release = c.holdNext('Left', { text: 'Never seen.' });
    const abort = new AbortController();
    const leader = c.ask('Left', { signal: abort.signal }).catch((error: Error) => error);
    await eventually(() => assert.equal(c.f.fake.requests.length, 1));
    const follower = c.ask('Left');
    await eventually(() => assert.equal(c.coalescer().waiting, 1));
    abort.abort();
    assert.ok((await leader) instanceof Error);
    const answer = await read(follower);
    assert.equal(answer.cache, 'miss');
    assert.equal(answer.body.choices[0]!.message.content, 'Fresh.');
    assert.equal(c.f.fake.requests.length, 2);
    release();
  });

  it('Cache-Control: no-store neither follows a leader nor leads followers', async () => {
    const release = c.holdNext('Shared', { text: 'From the leader.' });
    const leader = c.ask('Shared');
    await eventually(() => assert.equal(c.f.fake.requests.length, 1));
    const follower = c.ask('Shared');
    await eventually(() => assert.equal(c.coalescer().waiting, 1));
    // While the leader is held, a no-store request goes upstream at once.
    const bypass = await read(c.ask('Shared', { headers: { 'cache-control': 'no-store' } }));
    assert.equal(bypass.cache, 'bypass');
    assert.equal(bypass.body.choices[0]!.message.content, 'Fresh.');
    assert.equal(c.f.fake.requests.length, 2);
    assert.equal(c.coalescer().waiting, 1);
    release();
    assert.equal((await read(leader)).body.choices[0]!.message.content, 'From the leader.');
    assert.equal((await read(follower)).cache, 'hit');

    // A no-store request in flight: an identical request does not wait for it.
    const releaseNoStore = c.holdNext('Private', { text: 'Held, not stored.' });
    const noStore = c.ask('Private', { headers: { 'cache-control': 'no-store' } });
    await eventually(() => assert.equal(c.f.fake.requests.length, 3));
    assert.equal(c.coalescer().keys, 0, 'a no-store request takes no lead');
    const after = await read(c.ask('Private'));
    assert.equal(after.cache, 'miss');
    assert.equal(after.body.choices[0]!.message.content, 'Fresh.');
    releaseNoStore();
    assert.equal((await read(noStore)).body.choices[0]!.message.content, 'Held, not stored.');
    assert.equal((await read(c.ask('Private'))).body.choices[0]!.message.content, 'Fresh.', 'the no-store answer was not stored');
  });

  it('a follower whose client aborts stops waiting, goes nowhere, and leaves no pending state; the next request behaves normally', async () => {
    const release = c.holdNext('Patience', { text: 'Worth the wait.' });
    const leader = c.ask('Patience');
    await eventually(() => assert.equal(c.f.fake.requests.length, 1));
    const abort = new AbortController();
    const gone = c.ask('Patience', { signal: abort.signal }).catch((error: Error) => error);
    await eventually(() => assert.equal(c.coalescer().waiting, 1));
    abort.abort();
    assert.ok((await gone) instanceof Error);
    await eventually(() => assert.equal(c.coalescer().waiting, 0));
    assert.equal(c.coalescer().keys, 1, 'the leader is still in flight');
    assert.equal(c.f.fake.requests.length, 1, 'the follower that left went nowhere');
    release();
    assert.equal((await read(leader)).cache, 'miss');
    await eventually(() => assert.equal(c.coalescer().keys, 0));
    const next = await read(c.ask('Patience'));
    assert.equal(next.cache, 'hit');
    assert.equal(next.body.choices[0]!.message.content, 'Worth the wait.');
    assert.equal(c.f.fake.requests.length, 1);
    const entries = await chronicles(c.f, 3);
    assert.deepEqual(entries.map((entry) => `${entry.status} ${entry.cache}`).sort(), ['200 hit', '200 miss', '499 miss']);
  });
});

describe('response cache: coalescing bounds', function () {
  this.timeout(20_000);

  it('a follower waits at most waitMs, then goes upstream itself', async () => {
    const c = await coalescing({ cache: { coalescing: { waitMs: 1 } } });
    try {
      const release = c.holdNext('Slow', { text: 'Slow leader.' });
      const leader = c.ask('Slow');
      await eventually(() => assert.equal(c.f.fake.requests.length, 1));
      const follower = await read(c.ask('Slow'));
      assert.equal(follower.cache, 'miss');
      assert.equal(follower.body.choices[0]!.message.content, 'Fresh.');
      assert.equal(c.coalescer().waiting, 0);
      assert.equal(c.coalescer().keys, 1, 'the leader is still in flight');
      release();
      assert.equal((await read(leader)).body.choices[0]!.message.content, 'Slow leader.');
    } finally {
      await c.close();
    }
  });

  it('past maxFollowersPerKey and maxKeys, requests go upstream as without coalescing', async () => {
    const c = await coalescing({ cache: { coalescing: { maxKeys: 1, maxFollowersPerKey: 1 } } });
    try {
      const releaseA = c.holdNext('A', { text: 'A from the leader.' });
      const leaderA = c.ask('A');
      await eventually(() => assert.equal(c.f.fake.requests.length, 1));
      const followerA = c.ask('A');
      await eventually(() => assert.equal(c.coalescer().waiting, 1));
      const overflow = await read(c.ask('A'));
      assert.equal(overflow.body.choices[0]!.message.content, 'Fresh.', 'a second follower went upstream');
      const releaseB = c.holdNext('B', { text: 'B held.' });
      const leaderB = c.ask('B');
      await eventually(() => assert.equal(c.f.fake.requests.length, 3));
      assert.equal(c.coalescer().keys, 1, 'B took no lead: maxKeys is 1');
      assert.equal((await read(c.ask('B'))).body.choices[0]!.message.content, 'Fresh.', 'so B\'s twin did not wait');
      releaseA();
      releaseB();
      assert.equal((await read(followerA)).cache, 'hit');
      assert.equal((await read(leaderA)).cache, 'miss');
      assert.equal((await read(leaderB)).body.choices[0]!.message.content, 'B held.');
    } finally {
      await c.close();
    }
  });

  it('coalescing: false turns it off', async () => {
    const c = await coalescing({ cache: { coalescing: false } });
    try {
      assert.equal(c.f.gateway.cacheCoalescer, undefined);
      const release = c.holdNext('Off', { text: 'Held.' });
      const leader = c.ask('Off');
      await eventually(() => assert.equal(c.f.fake.requests.length, 1));
      assert.equal((await read(c.ask('Off'))).body.choices[0]!.message.content, 'Fresh.');
      release();
      await leader;
    } finally {
      await c.close();
    }
  });
});

describe('response cache in Redis: coalescing is per process', function () {
  this.timeout(30_000);
  requireRedis();

  it('two replicas on one Redis each send one request; their followers are answered from Redis', async () => {
    const prefix = testKeyPrefix();
    // One clock: both replicas' `app` records get one created_at, so they are one application incarnation.
    const at = new Date();
    const options: GatewayOptions = { redis: { url: TEST_REDIS_URL, keyPrefix: prefix }, now: () => at };
    const a = await coalescing(options);
    const b = await coalescing(options);
    try {
      const releaseA = a.holdNext('Shared', { text: 'From replica a.' });
      const releaseB = b.holdNext('Shared', { text: 'From replica b.' });
      const leaderA = a.ask('Shared');
      const leaderB = b.ask('Shared');
      await eventually(() => assert.deepEqual([a.f.fake.requests.length, b.f.fake.requests.length], [1, 1]));
      const followersA = [1, 2].map(() => a.ask('Shared'));
      const followerB = b.ask('Shared');
      await eventually(() => assert.deepEqual([a.coalescer().waiting, b.coalescer().waiting], [2, 1]));
      releaseA();
      assert.equal((await read(leaderA)).cache, 'miss');
      for (const answer of await Promise.all(followersA.map(read))) {
        assert.equal(answer.cache, 'hit');
        assert.equal(answer.body.choices[0]!.message.content, 'From replica a.');
      }
      releaseB();
      assert.equal((await read(leaderB)).cache, 'miss');
      const fromB = await read(followerB);
      assert.equal(fromB.cache, 'hit');
      assert.equal(fromB.body.choices[0]!.message.content, 'From replica b.');
      assert.deepEqual([a.f.fake.requests.length, b.f.fake.requests.length], [1, 1]);
    } finally {
      await a.close();
      await b.close();
      await deleteKeys(prefix);
    }
  });
});
