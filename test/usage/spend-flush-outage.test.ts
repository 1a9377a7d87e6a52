// Budget spend that cannot be written while storage is down is kept whole, one sum per budget, until a write succeeds.
import assert from 'node:assert/strict';
import { memoryStorage } from '../../src/index.js';
import type { StorageAdapter } from '../../src/storage/storage-adapter.js';
import { Storage } from '../../src/storage/storage-facade.js';
import { periodOf } from '../../src/usage/budget-periods.js';
import { CounterStore } from '../../src/usage/counter-store.js';
import { StoredSpendCounters, type BudgetScope } from '../../src/usage/spend-counters.js';

/** A memory adapter whose writes fail while `down` is set, as a storage outage would make them. */
function outageStorage(): StorageAdapter & { down: boolean } {
  const inner = memoryStorage();
  const adapter = {
    ...inner,
    down: false,
    async set(key: string, value: Parameters<StorageAdapter['set']>[1]) {
      if (adapter.down) throw Object.assign(new Error('storage is down'), { code: 'ECONNREFUSED' });
      return inner.set(key, value);
    },
  };
  return adapter;
}

describe('budget spend during a storage outage', () => {
  it('loses none of a long outage\'s spend: 150,000 requests are all persisted once storage is back', async () => {
    const adapter = outageStorage();
    const now = new Date('2026-11-25T12:00:00Z');
    const counters = new StoredSpendCounters(new CounterStore(new Storage(adapter)), () => now);
    const app: BudgetScope = { owner: 'application', id: 'app', incarnation: '2026-11-01T00:00:00.000Z', period: 'day', ...periodOf('day', now) };
    const key: BudgetScope = { owner: 'key', id: 'key-1', period: 'month', ...periodOf('month', now) };
    adapter.down = true;
    for (let request = 1; request <= 150_000; request++) {
      await counters.add([key, app], 1);
      // The flush timer keeps trying (once a second in a gateway: here every 10,000 requests) and fails.
      if (request % 10_000 === 0) await assert.rejects(counters.flush(), /storage is down/);
    }
    assert.deepEqual(await counters.spent([key, app]), [150_000, 150_000], 'this process counts every request meanwhile');
    adapter.down = false;
    await counters.flush();
    assert.equal(await counters.persisted(app), 150_000, 'every request of the outage reached storage');
    assert.equal(await counters.persisted(key), 150_000);
    await counters.flush();
    assert.equal(await counters.persisted(app), 150_000, 'and only once');
  });
});
