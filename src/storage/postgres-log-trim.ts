// Log trims on PostgreSQL: by count (keep the newest N) or by position (drop a record and all before it), as bounded range deletes on the primary key.
import type { Query } from './postgres-sql.js';
import type { StorageAdapter } from './storage-adapter.js';

/** Rows deleted per statement when a log is trimmed, so a large trim never holds one long lock. */
const TRIM_BATCH = 10_000n;

/**
 * The `trimLog` and `trimLogBefore` of the PostgreSQL adapter on `logs` and `records` (quoted table names). Positions
 * are dense per log, so the records to drop are `first ..= cut`: deleted oldest first, {@link TRIM_BATCH} at a time.
 * `trimLog` computes `cut` from the log's `last_seq` when it runs; `trimLogBefore` is given it, so records another
 * replica appends meanwhile are never counted in the cut. The adapter runs both in its per-log queue.
 */
export function postgresLogTrims(query: Query, logs: string, records: string): Required<Pick<StorageAdapter, 'trimLog' | 'trimLogBefore'>> {
  const deleteThrough = async (log: string, cutSql: string, value: number): Promise<void> => {
    const { rows } = await query<{ id: string; cut: string; first: string | null }>(
      `SELECT l.id, ${cutSql} AS cut, (SELECT min(seq) FROM ${records} WHERE log_id = l.id) AS first FROM ${logs} l WHERE l.name = $1`,
      [log, value],
    );
    const found = rows[0];
    if (found === undefined || found.first === null) return;
    const cut = BigInt(found.cut);
    for (let low = BigInt(found.first); low <= cut; low += TRIM_BATCH) {
      const high = low + TRIM_BATCH - 1n < cut ? low + TRIM_BATCH - 1n : cut;
      await query(`DELETE FROM ${records} WHERE log_id = $1 AND seq BETWEEN $2 AND $3`, [found.id, String(low), String(high)]);
    }
  };
  return {
    trimLog: (log, keep) => deleteThrough(log, 'l.last_seq - $2::bigint', Math.max(0, keep)),
    trimLogBefore: (log, position) => deleteThrough(log, '$2::bigint', Math.max(0, Math.floor(position))),
  };
}
