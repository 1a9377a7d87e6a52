// Miss coalescing's bounds (the wait, followers per key, keys in flight), its off switch, and its scope with Redis: one process.
import assert from 'node:assert/strict';
import { coalescing, read, until } from '../helpers/coalescing-fixture.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';
import { createGateway, memoryStorage, type GatewayOptions } from '../../src/index.js';

describe('response cache: coalescing bounds', function () {
  this.timeout(60_000);

  it('a follower waits at most waitMs, then goes upstream itself', async () => {
    const c = await coalescing({ cache: { coalescing: { waitMs: 1 } } });
    try {
      const release = c.holdNext('Slow', { text: 'Slow leader.' });
      const leader = c.ask('Slow');
      await until(() => assert.equal(c.f.fake.requests.length, 1));
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
      await until(() => assert.equal(c.f.fake.requests.length, 1));
      const followerA = c.ask('A');
      await c.followersIn(1, 1);
      const overflow = await read(c.ask('A'));
      assert.equal(overflow.body.choices[0]!.message.content, 'Fresh.', 'a second follower went upstream');
      const releaseB = c.holdNext('B', { text: 'B held.' });
      const leaderB = c.ask('B');
      await until(() => assert.equal(c.f.fake.requests.length, 3));
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

  it('a coalescing bound that is not a positive integer stops createGateway with config_invalid naming it', () => {
    for (const [name, value] of [['waitMs', 0], ['maxKeys', -1], ['maxFollowersPerKey', 1.5], ['waitMs', Number.NaN]] as const) {
      assert.throws(() => createGateway({ storage: memoryStorage(), cache: { coalescing: { [name]: value } } }), { code: 'config_invalid', message: new RegExp(`cache\\.coalescing\\.${name} must be a positive integer`) });
    }
  });

  it('coalescing: false turns it off', async () => {
    const c = await coalescing({ cache: { coalescing: false } });
    try {
      assert.equal(c.f.gateway.cacheCoalescer, undefined);
      const release = c.holdNext('Off', { text: 'Held.' });
      const leader = c.ask('Off');
      await until(() => assert.equal(c.f.fake.requests.length, 1));
      assert.equal((await read(c.ask('Off'))).body.choices[0]!.message.content, 'Fresh.');
      release();
      await leader;
    } finally {
      await c.close();
    }
  });
});

describe('response cache in Redis: coalescing is per process', function () {
  this.timeout(60_000);
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
      await until(() => assert.deepEqual([a.f.fake.requests.length, b.f.fake.requests.length], [1, 1]));
      const followersA = [1, 2].map(() => a.ask('Shared'));
      const followerB = b.ask('Shared');
      await a.followersIn(2, 1);
      await b.followersIn(1, 1);
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
