// Concurrent misses of one cache key: one goes upstream, the others wait for its stored answer (or go themselves when it is not stored).
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { chronicles, coalescing, read, streamedText, until, type Coalescing } from '../helpers/coalescing-fixture.js';

describe('response cache: concurrent misses are coalesced', function () {
  this.timeout(60_000);
  let c: Coalescing;
  beforeEach(async () => {
    c = await coalescing();
  });
  afterEach(() => c.close());

  it('N identical requests on a cold key: the upstream sees one, all get its answer, the N-1 followers are hits in the header and Chronicles', async () => {
    const release = c.holdNext('Hi', { text: 'From the leader.' });
    const leader = c.ask('Hi');
    await until(() => assert.equal(c.f.fake.requests.length, 1));
    const followers = [1, 2, 3, 4].map(() => c.ask('Hi'));
    await c.followersIn(4, 1);
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
    await until(() => assert.equal(c.f.fake.requests.length, 1));
    const sdk = client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream me' }], stream: true, stream_options: { include_usage: true } }).withResponse();
    const raw = c.ask('Stream me', { stream: true });
    await c.followersIn(2, 1);
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
    await until(() => assert.equal(c.f.fake.requests.length, 2));
    const jsonFollower = c.ask('Streamed first');
    await c.followersIn(1, 2);
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
    await until(() => assert.equal(c.f.fake.requests.length, 1));
    const followers = [1, 2, 3].map(() => c.ask('Fails'));
    await c.followersIn(3, 1);
    release();
    assert.equal((await leader).status, 500);
    for (const answer of await Promise.all(followers.map(read))) {
      assert.equal(answer.status, 200);
      assert.equal(answer.cache, 'miss');
      assert.equal(answer.body.choices[0]!.message.content, 'Fresh.');
    }
    assert.equal(c.f.fake.requests.length, 4);
    assert.equal(c.coalescer().waiting, 0);
    await until(() => assert.equal(c.coalescer().keys, 0));
    assert.equal((await read(c.ask('Fails'))).cache, 'hit', 'a follower\'s answer was stored');
  });

  it('a leader whose client leaves before its answer: its followers go upstream', async () => {
    const release = c.holdNext('Left', { text: 'Never seen.' });
    const abort = new AbortController();
    const leader = c.ask('Left', { signal: abort.signal }).catch((error: Error) => error);
    await until(() => assert.equal(c.f.fake.requests.length, 1));
    const follower = c.ask('Left');
    await c.followersIn(1, 1);
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
    await until(() => assert.equal(c.f.fake.requests.length, 1));
    const follower = c.ask('Shared');
    await c.followersIn(1, 1);
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
    await until(() => assert.equal(c.f.fake.requests.length, 3));
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
    await until(() => assert.equal(c.f.fake.requests.length, 1));
    const abort = new AbortController();
    const gone = c.ask('Patience', { signal: abort.signal }).catch((error: Error) => error);
    await c.followersIn(1, 1);
    abort.abort();
    assert.ok((await gone) instanceof Error);
    await until(() => assert.equal(c.coalescer().waiting, 0));
    assert.equal(c.coalescer().keys, 1, 'the leader is still in flight');
    assert.equal(c.f.fake.requests.length, 1, 'the follower that left went nowhere');
    release();
    assert.equal((await read(leader)).cache, 'miss');
    await until(() => assert.equal(c.coalescer().keys, 0));
    const next = await read(c.ask('Patience'));
    assert.equal(next.cache, 'hit');
    assert.equal(next.body.choices[0]!.message.content, 'Worth the wait.');
    assert.equal(c.f.fake.requests.length, 1);
    const entries = await chronicles(c.f, 3);
    assert.deepEqual(entries.map((entry) => `${entry.status} ${entry.cache}`).sort(), ['200 hit', '200 miss', '499 miss']);
  });
});

