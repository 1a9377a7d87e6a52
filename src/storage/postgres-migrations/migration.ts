// The shape of one versioned PostgreSQL schema migration.

/**
 * One migration: SQL run once, in a transaction, with `search_path` set to the adapter's schema (so table names
 * are unqualified). Versions are consecutive from 1 and never change once released; add a new file instead.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
