// Options of the PostgreSQL storage adapter: its connection (a URL or a pool of your own), schema, pool size and timeouts.
import type pg from 'pg';

/** Options of `postgresStorage`: a connection string or a pool of your own. */
export interface PostgresStorageOptions {
  /** `postgres://user@host:5432/db`; the adapter makes (and on `close()` ends) its own pool. */
  connectionString?: string;
  /** A `pg.Pool` you own: the adapter uses it and leaves it open on `close()`. */
  pool?: pg.Pool;
  /** The schema holding the gateway's tables; created if missing. Default `public`. */
  schema?: string;
  /** Connections of the adapter's own pool. Default 10. */
  maxConnections?: number;
  /** How long a query waits for a connection before it fails with `storage_unavailable`, in ms. Default 5000. */
  connectionTimeoutMillis?: number;
  /** How long a query may wait for its answer before it fails with `storage_unavailable` (a hung server), in ms. Default 10,000. */
  queryTimeoutMillis?: number;
  /**
   * How long an admin write waits for another replica's write of the same record (the shared key lock) before it fails
   * with `storage_busy` (503), in ms. Default 8000.
   */
  lockWaitMillis?: number;
  /**
   * How often the connection that listens for other replicas' changes is checked (`SELECT 1`, bounded by
   * `queryTimeoutMillis`), in ms: one dropped silently is replaced and every cached copy dropped. Default 5000.
   */
  listenCheckMillis?: number;
}
