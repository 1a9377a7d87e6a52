// The storage adapter contract: a small key-value store plus append-only logs, implemented by memory and file adapters.

/** Any value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One entry returned by {@link StorageAdapter.list}. */
export interface StorageEntry<T = JsonValue> {
  key: string;
  value: T;
}

/**
 * A storage adapter. Keys are `/`-separated paths of non-empty segments (`providers/openai`);
 * a segment may not be `.` or `..`. Values are JSON. Logs are append-only sequences of JSON
 * records, read oldest first.
 *
 * Adapters stay thin: the {@link Storage} facade adds namespacing, cloning and
 * read-modify-write locking on top.
 */
export interface StorageAdapter {
  /** A short name for messages, for example `memory` or `file`. */
  readonly name: string;
  /** Loads or checks persisted state. Called once before first use; refuses corrupt data with a coded error. */
  init(): Promise<void>;
  /** The value at `key`, or `undefined`. */
  get(key: string): Promise<JsonValue | undefined>;
  /** Stores `value` at `key`, replacing any previous value. Resolves once it is durable. */
  set(key: string, value: JsonValue): Promise<void>;
  /** Removes `key`; resolves `true` if it existed. */
  delete(key: string): Promise<boolean>;
  /** Every entry whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<StorageEntry[]>;
  /** Appends records to the log named `log`. Resolves once they are durable. */
  append(log: string, records: JsonValue[]): Promise<void>;
  /** Every record of `log`, oldest first; an unknown log is empty. */
  readLog(log: string): Promise<JsonValue[]>;
  /** Replaces the whole log atomically, for retention. */
  rewriteLog(log: string, records: JsonValue[]): Promise<void>;
  /** Keeps only the newest `keep` records of the log, atomically and without parsing them (count-based retention). */
  trimLog(log: string, keep: number): Promise<void>;
  /** Names of the logs whose name starts with `prefix`. */
  listLogs(prefix: string): Promise<string[]>;
  /** Finishes pending writes and releases resources. Later calls fail with `storage_closed`. */
  close(): Promise<void>;
}
