// Key-value pairs on PostgreSQL: reads, upserts and deletes of `gateway_values`, applied in call order per key, and batches in one transaction.
import { keyedWriteQueue } from './keyed-write-queue.js';
import type { Transaction } from './postgres-pool.js';
import { postgresJsonText, prefixPattern, type Query } from './postgres-sql.js';
import type { JsonValue, StorageAdapter, StorageEntry, StorageWrite } from './storage-adapter.js';

/** The value methods of the PostgreSQL adapter, and `idle()`: resolves once no write is queued or running. */
export type PostgresValues = Pick<StorageAdapter, 'get' | 'set' | 'delete' | 'list'> & Required<Pick<StorageAdapter, 'batch'>> & { idle(): Promise<void> };

/**
 * The `get`, `set`, `delete`, `batch` and `list` of the PostgreSQL adapter on `values` (a quoted table name). The
 * adapter checks that it is open and that keys are valid before it calls them; a value is serialized at the call.
 */
export function postgresValues(query: Query, transaction: Transaction, values: string): PostgresValues {
  const queue = keyedWriteQueue();
  const upsertSql = `INSERT INTO ${values} (key, value) VALUES ($1, $2::json) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`;
  const deleteSql = `DELETE FROM ${values} WHERE key = $1`;

  /** Runs a write after earlier writes to the same keys, in call order (keys taken in sorted order, so batches cannot deadlock). */
  const inKeyOrder = <T>(keys: string[], task: () => Promise<T>): Promise<T> => {
    const sorted = [...new Set(keys)].sort();
    const take = (index: number): Promise<T> => (index === sorted.length ? task() : queue.run(sorted[index]!, () => take(index + 1)));
    return take(0);
  };

  return {
    async get(key) {
      const { rows } = await query<{ value: JsonValue }>(`SELECT value FROM ${values} WHERE key = $1`, [key]);
      return rows[0]?.value;
    },
    async set(key, value) {
      const text = postgresJsonText(JSON.stringify(value));
      return queue.run(key, async () => {
        await query(upsertSql, [key, text]);
      });
    },
    async delete(key) {
      return queue.run(key, async () => ((await query(deleteSql, [key])).rowCount ?? 0) > 0);
    },
    async batch(writes: StorageWrite[]) {
      const texts = writes.map((write) => (write.op === 'set' ? postgresJsonText(JSON.stringify(write.value)) : undefined));
      return inKeyOrder(
        writes.map((write) => write.key),
        () =>
          transaction(async (client) => {
            for (const [index, write] of writes.entries()) {
              if (write.op === 'delete') await client.query(deleteSql, [write.key]);
              else await client.query(upsertSql, [write.key, texts[index]]);
            }
          }),
      );
    },
    async list(prefix) {
      const { rows } = await query<StorageEntry>(`SELECT key, value FROM ${values} WHERE key LIKE $1 ESCAPE '\\' ORDER BY key`, [prefixPattern(prefix)]);
      return rows;
    },
    idle: () => queue.idle(),
  };
}
