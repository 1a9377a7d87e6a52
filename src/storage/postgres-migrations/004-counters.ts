// Migration 4: counters added to atomically by every replica (usage totals, budget spend), one row per bucket, item and field.
import type { Migration } from './migration.js';

/**
 * `gateway_counters` holds numbers that replicas add to with one upsert (`value = value + EXCLUDED.value`), so no
 * increment is lost between replicas. Buckets sort byte-wise, so a range of days is one index range scan.
 */
export const counters: Migration = {
  version: 4,
  name: 'counters',
  sql: `
    CREATE TABLE gateway_counters (
      bucket text COLLATE "C" NOT NULL,
      item text COLLATE "C" NOT NULL,
      field text COLLATE "C" NOT NULL,
      value double precision NOT NULL,
      PRIMARY KEY (bucket, item, field)
    );
  `,
};
