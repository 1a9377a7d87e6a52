// Migration 3: count sets updated by one UPSERT (the Chronicles usage graphs), so replicas counting at once lose nothing.
import type { Migration } from './migration.js';

/**
 * `gateway_counts` holds one row per item of a count set: its count and when it was last seen (ISO text, compared
 * byte-wise). Usage graphs stored earlier as values (`chronicles-graph/<application>`, `{nodes}`) become rows of the
 * set of the same name, the item being the JSON text `[server, tool]`.
 */
export const counts: Migration = {
  version: 3,
  name: 'counts',
  sql: `
    CREATE TABLE gateway_counts (
      set_name text COLLATE "C" NOT NULL,
      item text COLLATE "C" NOT NULL,
      count bigint NOT NULL,
      seen text COLLATE "C" NOT NULL,
      PRIMARY KEY (set_name, item)
    );
    CREATE INDEX gateway_counts_seen ON gateway_counts (set_name, seen);
    INSERT INTO gateway_counts (set_name, item, count, seen)
      SELECT v.key, json_build_array(n->>'server', n->>'tool')::text, (n->>'requests')::bigint, coalesce(n->>'last_used', '')
      FROM gateway_values v, json_array_elements(v.value->'nodes') AS n
      WHERE v.key LIKE 'chronicles-graph/%' AND json_typeof(v.value->'nodes') = 'array'
      ON CONFLICT DO NOTHING;
    DELETE FROM gateway_values WHERE key LIKE 'chronicles-graph/%';
  `,
};
