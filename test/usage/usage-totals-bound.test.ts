// Usage totals past their bound of pending rows: new rows are folded into their application and key, never dropped.
import assert from 'node:assert/strict';
import { Storage } from '../../src/storage/storage-facade.js';
import { memoryStorage } from '../../src/storage/memory-storage.js';
import { CounterStore } from '../../src/usage/counter-store.js';
import { OTHER_ROUTE_OR_MODEL, UsageTotals } from '../../src/usage/usage-totals.js';

describe('usage totals: the bound on rows waiting for a flush', () => {
  const DAY = '2026-11-28';
  const usage = { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, total_tokens: 15 };

  it('counts every request once the bound is reached, under route and model (other) of its application and key', async () => {
    const totals = new UsageTotals(new CounterStore(new Storage(memoryStorage())), 2);
    for (let index = 0; index < 5; index++) totals.record(DAY, 'app', '2026-11-01T00:00:00.000Z', 'key-1', 'chat', `model-${index}`, usage, 0.25);
    totals.record(DAY, 'app', '2026-11-01T00:00:00.000Z', 'key-1', 'chat', 'model-0', usage, 0.25);
    await totals.flush();
    const [byApplication] = await totals.query('application', DAY, DAY);
    assert.equal(byApplication?.requests, 6);
    assert.equal(byApplication?.total_tokens, 90);
    assert.equal(byApplication?.cost_usd, 1.5);
    const byModel = Object.fromEntries((await totals.query('model', DAY, DAY)).map((row) => [row.model, row.requests]));
    assert.deepEqual(byModel, { 'model-0': 2, 'model-1': 1, [OTHER_ROUTE_OR_MODEL]: 3 });
    const [byKey] = await totals.query('key', DAY, DAY);
    assert.equal(byKey?.requests, 6, 'the key keeps its whole count');
  });
});
