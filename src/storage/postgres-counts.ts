// Count sets on PostgreSQL: one UPSERT adds to every item at once (count + n, GREATEST of last seen), so replicas never lose a count.
import { guardCte } from './postgres-guard.js';
import { postgresJsonText, type Query } from './postgres-sql.js';
import type { CountChange, CountRow, StorageAdapter, WriteGuard } from './storage-adapter.js';

/**
 * The `addCounts`, `readCounts` and `deleteCounts` of the PostgreSQL adapter on `<schema>.gateway_counts`. Items are
 * upserted in item order, so two replicas updating the same items take their row locks in the same order and cannot
 * deadlock. The items beyond `maxItems` (least recently seen) are deleted only after an upsert inserted a new item.
 */
export function postgresCounts(query: Query, schema: string, valuesTable: string): Required<Pick<StorageAdapter, 'addCounts' | 'readCounts' | 'deleteCounts'>> {
  const COUNTS = `${schema}.gateway_counts`;
  return {
    async addCounts(set: string, changes: CountChange[], maxItems: number, guard?: WriteGuard) {
      const merged = new Map<string, CountChange>();
      for (const change of changes) {
        const known = merged.get(change.item);
        merged.set(change.item, known ? { item: change.item, add: known.add + change.add, seen: known.seen > change.seen ? known.seen : change.seen } : { ...change });
      }
      if (merged.size === 0) return;
      const upsert = `INSERT INTO ${COUNTS} AS c (set_name, item, count, seen)
         SELECT $1, u.item, u.add, u.seen FROM json_to_recordset($2::json) AS u(item text, add bigint, seen text)${guard ? ', guard' : ''} ORDER BY u.item COLLATE "C"
         ON CONFLICT (set_name, item) DO UPDATE SET count = c.count + EXCLUDED.count, seen = GREATEST(c.seen, EXCLUDED.seen)
         RETURNING (xmax = 0) AS inserted`;
      const values = [set, postgresJsonText(JSON.stringify([...merged.values()]))];
      const guarded = guard ? guardCte(valuesTable, guard, 3) : undefined;
      const { rows } = guarded ? await query<{ inserted: boolean }>(`WITH ${guarded.sql} ${upsert}`, [...values, ...guarded.values]) : await query<{ inserted: boolean }>(upsert, values);
      if (!rows.some((row) => row.inserted)) return;
      await query(
        `DELETE FROM ${COUNTS} WHERE set_name = $1 AND item IN (SELECT item FROM ${COUNTS} WHERE set_name = $1 ORDER BY seen DESC, item OFFSET $2)`,
        [set, Math.max(0, maxItems)],
      );
    },
    async readCounts(set: string): Promise<CountRow[]> {
      const { rows } = await query<{ item: string; count: string; seen: string }>(`SELECT item, count, seen FROM ${COUNTS} WHERE set_name = $1 ORDER BY seen DESC, item`, [set]);
      return rows.map((row) => ({ item: row.item, count: Number(row.count), seen: row.seen }));
    },
    async deleteCounts(set: string) {
      return ((await query(`DELETE FROM ${COUNTS} WHERE set_name = $1`, [set])).rowCount ?? 0) > 0;
    },
  };
}
