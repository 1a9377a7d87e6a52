// The shared per-minute windows keep their sum beside them: a check costs the entries that leave the window, not all it holds.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { RedisCallerLimits } from '../../src/usage/caller-limits.js';
import { deleteKeys, requireRedis, TEST_REDIS_URL, testKeyPrefix } from '../helpers/redis-test.js';

describe('shared per-minute windows of keys and applications (Redis)', function () {
  requireRedis();
  this.timeout(20_000);
  let client: Redis;
  let prefix: string;
  before(() => {
    client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
  });
  beforeEach(() => {
    prefix = testKeyPrefix();
  });
  afterEach(() => deleteKeys(prefix));
  after(() => client.disconnect());

  const redisNow = async (): Promise<number> => {
    const [seconds, micros] = await client.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };

  it('keeps the window sum beside the window through takes, additions, releases and entries leaving it', async () => {
    const limits = new RedisCallerLimits(client, { keyPrefix: prefix });
    const window = `${prefix}limit:key:k1:tokens`;
    const sum = `${window}:sum`;
    // A window as an older version wrote it (no sum): one entry older than the minute, two in it.
    const now = await redisNow();
    await client.zadd(window, now - 120_000, 'old:1:5', now - 1000, 'old:2:7', now, 'old:3:10');
    await client.pexpire(window, 60_000);

    let state = await limits.take('key:k1:tokens', 100, 60_000, 0);
    assert.equal(state.remaining, 83, 'summed once from the window: 7 + 10');
    assert.equal(await client.get(sum), '17', 'the sum is kept beside the window');
    assert.equal(await client.zcard(window), 2, 'the entry older than the window left it');
    assert.ok((await client.pttl(sum)) > 0, 'the sum expires with its window');

    await limits.add('key:k1:tokens', 60_000, 20);
    assert.equal(await client.get(sum), '37');
    state = await limits.take('key:k1:tokens', 100, 60_000, 3);
    assert.equal(state.remaining, 60);
    assert.equal(await client.get(sum), '40');
    await state.release!();
    assert.equal(await client.get(sum), '37', 'a released entry leaves the sum too');
    await state.release!();
    assert.equal(await client.get(sum), '37', 'releasing twice takes nothing more');

    // An entry that has left the minute since it was summed is taken off the sum when the window is next read.
    await client.zadd(window, now - 90_000, 'old:4:8');
    await client.incrby(sum, 8);
    state = await limits.take('key:k1:tokens', 100, 60_000, 0);
    assert.equal(state.remaining, 63);
    assert.equal(await client.get(sum), '37');

    const refused = await limits.take('key:k1:tokens', 30, 60_000, 1);
    assert.equal(refused.admitted, false);
    assert.ok(refused.resetMs > 0 && refused.resetMs <= 60_000, `reset in ${refused.resetMs} ms`);
    assert.equal(await client.get(sum), '37', 'a refused take logs nothing');
  });

  it('starts from zero when the window itself is gone, whatever sum was left', async () => {
    const limits = new RedisCallerLimits(client, { keyPrefix: prefix });
    const window = `${prefix}limit:application:a:requests`;
    await client.set(`${window}:sum`, '500', 'PX', 60_000);
    const state = await limits.take('application:a:requests', 10, 60_000, 1);
    assert.equal(state.admitted, true);
    assert.equal(state.remaining, 9);
    assert.equal(await client.get(`${window}:sum`), '1');
  });
});
