// Migration 1: the key-value table, the log names and the log records (positions are row ids, indexed per log).
import type { Migration } from './migration.js';

/** Values keep their JSON text as written (`json`, not `jsonb`); keys and log names sort byte-wise (`COLLATE "C"`). */
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
      name text COLLATE "C" NOT NULL UNIQUE
    );
    CREATE TABLE gateway_log_records (
      log_id bigint NOT NULL REFERENCES gateway_logs (id) ON DELETE CASCADE,
      id bigint GENERATED ALWAYS AS IDENTITY,
      value json NOT NULL,
      PRIMARY KEY (log_id, id)
    );
  `,
};
