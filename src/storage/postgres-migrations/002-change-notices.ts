// Migration 2: every change to a value is announced on the `gateway_changes` channel, so each replica drops its cached copy.
import type { Migration } from './migration.js';

/**
 * A row trigger on `gateway_values` sends `<schema>:<key>` with `pg_notify` after every insert, update and delete.
 * NOTIFY is delivered when the writing transaction commits, so a replica never hears of a change it cannot read yet.
 */
export const changeNotices: Migration = {
  version: 2,
  name: 'change-notices',
  sql: `
    CREATE FUNCTION gateway_values_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('gateway_changes', TG_TABLE_SCHEMA || ':' || COALESCE(NEW.key, OLD.key));
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER gateway_values_changed AFTER INSERT OR UPDATE OR DELETE ON gateway_values
      FOR EACH ROW EXECUTE FUNCTION gateway_values_notify();
  `,
};
