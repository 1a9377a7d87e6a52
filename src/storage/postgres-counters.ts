// Numeric counters on PostgreSQL (`addCounters`): one upsert adds every increment of a call atomically, so replicas never lose one.
import type { PostgresTables, Query } from './postgres-sql.js';
import type { CounterValue, StorageAdapter } from './storage-adapter.js';

/**
 * The `addCounters`, `readCounters` and `deleteCounters` of the PostgreSQL adapter on `gateway_counters`. Increments
 * of one counter are merged, and the rows upserted in key order, so concurrent upserts of several replicas cannot
 * deadlock. The adapter checks that it is open before it calls them.
 */
export function postgresCounters(query: Query, tables: PostgresTables): Required<Pick<StorageAdapter, 'addCounters' | 'readCounters' | 'deleteCounters'>> {
  const COUNTERS = tables.counters;
  return {
    async addCounters(increments) {
      if (increments.length === 0) return;
      // One row per counter, in key order, so concurrent upserts of several replicas cannot deadlock.
      const merged = new Map<string, CounterValue>();
      for (const increment of increments) {
        const id = JSON.stringify([increment.bucket, increment.item, increment.field]);
        const known = merged.get(id);
        if (known) known.amount += increment.amount;
        else merged.set(id, { ...increment });
      }
      const rows = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
      await query(
        `INSERT INTO ${COUNTERS} AS c (bucket, item, field, value)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[])
         ON CONFLICT (bucket, item, field) DO UPDATE SET value = c.value + EXCLUDED.value`,
        [rows.map((r) => r.bucket), rows.map((r) => r.item), rows.map((r) => r.field), rows.map((r) => r.amount)],
      );
    },
    async readCounters(from, to) {
      const { rows } = await query<{ bucket: string; item: string; field: string; value: number }>(
        `SELECT bucket, item, field, value FROM ${COUNTERS} WHERE bucket >= $1 AND bucket <= $2`,
        [from, to],
      );
      return rows.map((row) => ({ bucket: row.bucket, item: row.item, field: row.field, amount: Number(row.value) }));
    },
    async deleteCounters(bucket) {
      await query(`DELETE FROM ${COUNTERS} WHERE bucket = $1`, [bucket]);
    },
  };
}
