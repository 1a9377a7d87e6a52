// Migration 1: the key-value table, the log names with their last position, and the log records (positions dense per log).
import type { Migration } from './migration.js';

/**
 * Values keep their JSON text as written (`json`, not `jsonb`); keys and log names sort byte-wise (`COLLATE "C"`).
 * A record's position is `seq`, dense per log (`gateway_logs.last_seq` is the newest), so "the newest N records"
 * is `seq > last_seq - N` with no count. The expression indexes serve the Chronicles lookups by id and the
 * `route`, `model` and `status` filters, newest first.
 */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
    CREATE TABLE gateway_values (
      key text COLLATE "C" PRIMARY KEY,
      value json NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE gateway_logs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text COLLATE "C" NOT NULL UNIQUE,
      last_seq bigint NOT NULL DEFAULT 0
    );
    CREATE TABLE gateway_log_records (
      log_id bigint NOT NULL REFERENCES gateway_logs (id) ON DELETE CASCADE,
      seq bigint NOT NULL,
      value json NOT NULL,
      PRIMARY KEY (log_id, seq)
    );
    CREATE INDEX gateway_log_records_id ON gateway_log_records (log_id, (value->>'id'));
    CREATE INDEX gateway_log_records_route ON gateway_log_records (log_id, (value->>'route'), seq);
    CREATE INDEX gateway_log_records_model ON gateway_log_records (log_id, (value->>'model'), seq);
    CREATE INDEX gateway_log_records_status ON gateway_log_records (log_id, (value->>'status'), seq);
  `,
};
