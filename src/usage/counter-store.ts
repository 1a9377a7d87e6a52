// Counters that only grow: atomic upserts where the storage adapter has them (PostgreSQL), read-modify-write of one value per bucket elsewhere.
import type { CounterValue } from '../storage/storage-adapter.js';
import type { Storage } from '../storage/storage-facade.js';

type BucketValue = Record<string, Record<string, number>>;

const bucketKey = (bucket: string): string => `counters/${bucket}`;

/** The part of `a` and `b` up to and including their last common `/`, for a prefix listing. */
function commonDirectory(a: string, b: string): string {
  let index = 0;
  while (index < a.length && a[index] === b[index]) index++;
  return a.slice(0, a.lastIndexOf('/', index - 1) + 1);
}

/**
 * Counters in (bucket, item, field) slots. On an adapter with `addCounters` (PostgreSQL), every increment is one
 * atomic upsert, so replicas sharing the database never lose one. On the others (memory, file), each bucket is one
 * stored value under `counters/<bucket>`, updated under the facade's key lock: one process owns those.
 */
export class CounterStore {
  constructor(private readonly storage: Storage) {}

  /** Adds the amounts. Buckets are storage keys (`/`-separated names). */
  async add(increments: CounterValue[]): Promise<void> {
    if (increments.length === 0) return;
    const adapter = this.storage.adapter;
    if (adapter.addCounters) return adapter.addCounters(increments);
    const byBucket = new Map<string, CounterValue[]>();
    for (const increment of increments) {
      const list = byBucket.get(increment.bucket);
      if (list) list.push(increment);
      else byBucket.set(increment.bucket, [increment]);
    }
    for (const [bucket, list] of byBucket) {
      await this.storage.update<BucketValue>(bucketKey(bucket), (current) => {
        const next: BucketValue = current ? structuredClone(current) : {};
        for (const { item, field, amount } of list) {
          const fields = Object.hasOwn(next, item) ? next[item]! : (next[item] = {});
          fields[field] = (Object.hasOwn(fields, field) ? fields[field]! : 0) + amount;
        }
        return next;
      });
    }
  }

  /** Removes every counter of `bucket`. */
  async delete(bucket: string): Promise<void> {
    const adapter = this.storage.adapter;
    if (adapter.addCounters) await adapter.deleteCounters?.(bucket);
    else await this.storage.delete(bucketKey(bucket));
  }

  /** Every counter whose bucket is between `from` and `to` (inclusive, byte order). */
  async read(from: string, to: string): Promise<CounterValue[]> {
    const adapter = this.storage.adapter;
    if (adapter.readCounters) return adapter.readCounters(from, to);
    const values: CounterValue[] = [];
    for (const { key, value } of await this.storage.list<BucketValue>(bucketKey(commonDirectory(from, to)))) {
      const bucket = key.slice('counters/'.length);
      if (bucket < from || bucket > to) continue;
      for (const [item, fields] of Object.entries(value)) {
        for (const [field, amount] of Object.entries(fields)) values.push({ bucket, item, field, amount });
      }
    }
    return values;
  }
}
