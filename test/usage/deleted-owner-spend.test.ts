// Nothing of a deleted application's or a revoked key's budget spend stays: persisted rows (memory, file, PostgreSQL) and shared Redis keys are purged.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { GatewayOptions } from '../../src/index.js';
import { fileStorage } from '../../src/storage/file-storage.js';
import { CounterStore } from '../../src/usage/counter-store.js';
import { windowsOf } from '../../src/usage/minute-limits.js';
import { sharedReplicaOptions } from '../helpers/shared-replica-options.js';
import { TEST_REDIS_URL } from '../helpers/redis-test.js';
import { createTestGateway } from '../helpers/test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, chat, metered, oneDollarPerAnswer } from './usage-helpers.js';

const BUDGET = { budget: { amount_usd: 100, period: 'day' } };

/** The spend buckets persisted in the gateway's storage. */
async function spendBuckets(f: Pick<TrafficFixture, 'gateway'>): Promise<string[]> {
  const values = await new CounterStore(f.gateway.services.storage).read('spend/', 'spend/\uffff');
  return [...new Set(values.map((value) => value.bucket))].sort();
}

/** Sets up application `app` and `app:x` (a name `app` is a prefix of), each with a budget and budgeted keys, and spends on each key. */
async function spendOnEveryOwner(f: TrafficFixture): Promise<{ revoked: string; kept: string; other: string }> {
  await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  await oneDollarPerAnswer(f);
  await admin(f, 'put', '/v1/admin/applications/app').send(BUDGET).expect(200);
  await f.create('/v1/admin/applications', { name: 'app:x', ...BUDGET });
  const key = async (application: string) => (await admin(f, 'post', `/v1/admin/applications/${application}/keys`).send(BUDGET).expect(201)).body as { key: string; id: string };
  const [revoked, kept, other] = [await key('app'), await key('app'), await key('app:x')];
  for (const owner of [revoked, kept, other]) await chat(f, {}, owner.key).expect(200);
  await metered(f, 3);
  await f.gateway.usage.flush();
  return { revoked: revoked.id, kept: kept.id, other: other.id };
}

/** The spend keys under `prefix` in Redis, without the prefix. */
async function redisSpendKeys(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}spend:*`, 'COUNT', 500);
    keys.push(...found.map((key) => key.slice(prefix.length)));
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}

/** Runs the purge scenario on `f`; `redisKeys` (with Redis) lists the shared spend keys. */
async function purgeScenario(f: TrafficFixture, redisKeys?: () => Promise<string[]>): Promise<void> {
  const ids = await spendOnEveryOwner(f);
  assert.deepEqual(await spendBuckets(f), ['spend/application/app', 'spend/application/app:x', `spend/key/${ids.kept}`, `spend/key/${ids.other}`, `spend/key/${ids.revoked}`].sort());
  if (redisKeys) assert.equal((await redisKeys()).length, 5, 'one shared key per budget');

  await admin(f, 'delete', `/v1/admin/applications/app/keys/${ids.revoked}`).expect(200);
  assert.ok(!(await spendBuckets(f)).includes(`spend/key/${ids.revoked}`), 'a revoked key keeps no spend');
  if (redisKeys) assert.ok(!(await redisKeys()).some((key) => key.includes(ids.revoked)), 'nor a shared spend key');

  await admin(f, 'delete', '/v1/admin/applications/app').expect(200);
  await f.gateway.usage.flush();
  assert.deepEqual(await spendBuckets(f), ['spend/application/app:x', `spend/key/${ids.other}`], 'only the other application keeps spend');
  if (redisKeys) {
    const left = await redisKeys();
    assert.equal(left.length, 2, `the deleted application's shared keys are gone, app:x's kept: ${left.join(', ')}`);
    assert.ok(left.every((key) => key.startsWith('spend:application:app:x:') || key.startsWith(`spend:key:${ids.other}:`)), left.join(', '));
  }
}

describe("budget spend of deleted applications and revoked developer keys", function () {
  this.timeout(30_000);

  it('memory storage: the spend of a revoked key, and of a deleted application and all its keys, is purged', async () => {
    const f = await createTrafficFixture();
    try {
      await purgeScenario(f);
    } finally {
      await f.close();
    }
  });

  it('file storage: the same, in the stored counters', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-spend-'));
    const f = await createTrafficFixture({ storage: fileStorage({ dir }) });
    try {
      await purgeScenario(f);
    } finally {
      await f.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('file storage: the keys the start-up repair removes (a revoke or an application delete cut short by a crash) lose their spend too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-spend-repair-'));
    const f = await createTrafficFixture({ storage: fileStorage({ dir }) });
    let first: TrafficFixture | undefined = f;
    let restarted: Awaited<ReturnType<typeof createTestGateway>> | undefined;
    try {
      const ids = await spendOnEveryOwner(f);
      const storage = f.gateway.services.storage;
      // A revoke cut short after its first write: the key's grant (index entry) is gone, its record is left.
      const record = await storage.get<{ hash: string }>(`application-keys/app/${ids.revoked}`);
      await storage.delete(`developer-keys/${record!.hash}`);
      // An application delete cut short: its record is gone, its keys are left.
      await storage.delete(f.gateway.services.applications.key('app:x'));
      first = undefined;
      await f.close();
      restarted = await createTestGateway({ storage: fileStorage({ dir }) });
      const buckets = await spendBuckets(restarted);
      assert.ok(!buckets.includes(`spend/key/${ids.revoked}`), `the half-revoked key keeps no spend: ${buckets.join(', ')}`);
      assert.ok(!buckets.includes(`spend/key/${ids.other}`), `a key of the half-deleted application keeps no spend: ${buckets.join(', ')}`);
      assert.ok(buckets.includes(`spend/key/${ids.kept}`) && buckets.includes('spend/application/app'), `the live key and application keep theirs: ${buckets.join(', ')}`);
    } finally {
      await first?.close();
      await restarted?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("matches one owner's per-minute windows exactly: deleting `app` leaves those of `app:x`", () => {
    const owns = windowsOf('application', 'app');
    assert.equal(owns('application:app:2030-01-01T00:00:00.000Z:requests'), true);
    assert.equal(owns('application:app:tokens'), true);
    assert.equal(owns('application:app:x:2030-01-01T00:00:00.000Z:requests'), false);
    assert.equal(owns('application:app:x:tokens'), false);
    assert.equal(windowsOf('key', 'k1')('key:k1:requests'), true);
  });

  describe('PostgreSQL and Redis', () => {
    const { options, prefix } = sharedReplicaOptions();
    it('the rows of gateway_counters and the shared Redis spend keys of the deleted owners are purged; another application keeps its own', async () => {
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 0 });
      const f = await createTrafficFixture(options() as GatewayOptions);
      try {
        await purgeScenario(f, () => redisSpendKeys(redis, prefix));
      } finally {
        await f.close();
        redis.disconnect();
      }
    });
  });
});
