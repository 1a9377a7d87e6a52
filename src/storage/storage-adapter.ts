// The storage adapter contract: a small key-value store plus append-only logs, implemented by memory and file adapters.

/** Any value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One entry returned by {@link StorageAdapter.list}. */
export interface StorageEntry<T = JsonValue> {
  key: string;
  value: T;
}

/** One record of a log with its position, as {@link StorageAdapter.readLogBackward} answers it. */
export interface LogRecord<T = JsonValue> {
  /**
   * Where the record sits in its log: positions grow from older to newer records. A position stays valid
   * while the log is only appended to; after `trimLog` or `rewriteLog` it may be refused or name another record
   * (callers that keep positions across requests check an id in the record). In SQL, a row id.
   */
  position: number;
  value: T;
}

/** One page of a log read newest first. */
export interface LogPage<T = JsonValue> {
  /** Newest first. */
  records: Array<LogRecord<T>>;
  /** The position to pass as `from` for the next (older) page; absent once the oldest record was read. */
  next?: number;
}

/** Options of {@link StorageAdapter.readLogMatching}. */
export interface LogMatchOptions {
  /** Start at this position (inclusive; default the newest record). */
  from?: number;
  limit: number;
  /** Top-level fields of a record (a JSON object) and the values they must equal (same JSON type and value). Field names are identifiers. */
  match: Record<string, string | number | boolean>;
  /** Only among the newest `window` records of the log (count retention). Default: all. */
  window?: number;
}

/** One change of {@link StorageAdapter.addCounts}: add `add` to the item's count, and keep the greater of its `seen` and this one. */
export interface CountChange {
  item: string;
  add: number;
  /** A time (ISO 8601, compared as text) or any text whose order means recency. */
  seen: string;
}

/** One counted item, as {@link StorageAdapter.readCounts} answers it. */
export interface CountRow {
  item: string;
  count: number;
  seen: string;
}

/**
 * The condition of a guarded write ({@link StorageAdapter.appendGuarded}, {@link StorageAdapter.addCounts}): the value
 * at `key` exists and each top-level field in `equals` has that text (`null`: the field is absent). In SQL the
 * condition's row is locked (`FOR SHARE`) until the write commits, so a concurrent change of that value either waits
 * for the write or makes it write nothing.
 */
export interface WriteGuard {
  key: string;
  equals: Record<string, string | null>;
}

/** Whether `value` meets `guard` (the same test as the SQL one, for adapters that check guards in the facade). */
export function meetsGuard(value: unknown, guard: WriteGuard): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  return Object.entries(guard.equals).every(([field, text]) => {
    const actual = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (text === null) return actual === undefined || actual === null;
    return actual !== undefined && actual !== null && (typeof actual === 'object' ? JSON.stringify(actual) : String(actual)) === text;
  });
}

/** One write of {@link StorageAdapter.batch}: set a key to a value, or delete it. */
export type StorageWrite = { op: 'set'; key: string; value: JsonValue } | { op: 'delete'; key: string };

/** One number of {@link StorageAdapter.addCounters}: `amount` added to (or, when read, the value of) `field` of `item` in `bucket`. */
export interface CounterValue {
  bucket: string;
  item: string;
  field: string;
  amount: number;
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
  /**
   * Optional: applies `writes` in order, all or none (one transaction in SQL). Adapters without it get the
   * facade's fallback, which applies them one by one in the given order (callers order them so that a crash
   * half-way leaves no record that grants access).
   */
  batch?(writes: StorageWrite[]): Promise<void>;
  /**
   * Optional: runs `work` while holding the lock of `key`, shared by every process using the same store (PostgreSQL:
   * an advisory lock), so the facade's `locked()` and `update()` hold across replicas: two admin writes of one record
   * through two replicas run one after the other. Adapters that no other process shares leave it out: the facade's
   * in-process lock is enough.
   */
  withKeyLock?<T>(key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Optional: calls `listener` with a key whenever another process (a replica on the same database) changed it, so
   * cached copies can be dropped; with `undefined` when changes may have been missed (after the notice channel
   * reconnected). Adapters that no other process shares leave it out.
   */
  watch?(listener: (key: string | undefined) => void): void;
  /**
   * Optional, with `readCounts` and `deleteCounts`: adds to the counts of the named set `set`, atomically across
   * processes (in SQL one UPSERT: `count + add`, `GREATEST(seen, …)`), so replicas counting at once lose nothing;
   * then keeps only the `maxItems` most recently seen items. Adapters that no other process shares leave it out:
   * callers then read-modify-write one value under the facade's lock. With `guard`, nothing is added unless the
   * guard holds (see {@link WriteGuard}).
   */
  addCounts?(set: string, changes: CountChange[], maxItems: number, guard?: WriteGuard): Promise<void>;
  /** The items of a count set (most recently seen first); empty when unknown. */
  readCounts?(set: string): Promise<CountRow[]>;
  /** Removes a count set; resolves `true` if it had items. */
  deleteCounts?(set: string): Promise<boolean>;
  /**
   * Optional: adds each amount to its counter atomically (processes sharing the adapter never lose an increment).
   * Without it, callers keep counters in values with read-modify-write (one process only). SQL: one upsert.
   */
  addCounters?(increments: CounterValue[]): Promise<void>;
  /** Optional, with `addCounters`: every counter whose bucket is between `from` and `to` (inclusive, byte order). */
  readCounters?(from: string, to: string): Promise<CounterValue[]>;
  /** Optional, with `addCounters`: removes every counter of `bucket` (a deleted application's budget spend). */
  deleteCounters?(bucket: string): Promise<void>;
  /** Every entry whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<StorageEntry[]>;
  /** Appends records to the log named `log`. Resolves once they are durable. */
  append(log: string, records: JsonValue[]): Promise<void>;
  /**
   * Optional: {@link append} only if `guard` holds, checked atomically with the write; resolves whether it wrote.
   * Adapters that no other process shares leave it out: the facade checks the guard, then appends.
   */
  appendGuarded?(log: string, records: JsonValue[], guard: WriteGuard): Promise<boolean>;
  /**
   * Optional: {@link append} for records that are already serialized, one JSON text per record as `JSON.stringify`
   * gives it (so no raw line break). A caller that holds the text (the Chronicles recorder scrubs it) then saves
   * serializing every record again. `guard` is given only to adapters with {@link appendGuarded}, and has its meaning
   * there; resolves whether it wrote. Without it, the facade parses the texts and calls {@link append}.
   */
  appendJson?(log: string, texts: string[], guard?: WriteGuard): Promise<boolean>;
  /** Every record of `log`, oldest first; an unknown log is empty. */
  readLog(log: string): Promise<JsonValue[]>;
  /**
   * Up to `limit` records of `log`, newest first, starting at the record at position `from` (inclusive; default:
   * the newest record). Memory and work depend on `limit`, not on the log's size. Resolves `undefined` when `from`
   * is not the position of a record (for example after the log was trimmed). In SQL:
   * `... WHERE log = $1 AND id <= $2 ORDER BY id DESC LIMIT $3`.
   */
  readLogBackward(log: string, options: { from?: number; limit: number }): Promise<LogPage | undefined>;
  /**
   * Optional: like {@link readLogBackward}, but answers only the records whose top-level fields equal `match`, among
   * the newest `window` records. Where the adapter indexes the fields (PostgreSQL: `id`, `route`, `model`, `status`),
   * the work depends on `limit`, not on the log. Resolves `undefined` when `from` is not the position of a record
   * (matching or not). `next` continues the same query; a page may hold fewer than `limit` records while `next` is set.
   * Without it, callers filter pages of `readLogBackward`.
   */
  readLogMatching?(log: string, options: LogMatchOptions): Promise<LogPage | undefined>;
  /** Replaces the whole log atomically, for retention. */
  rewriteLog(log: string, records: JsonValue[]): Promise<void>;
  /** Keeps only the newest `keep` records of the log, atomically and without parsing them (count-based retention). */
  trimLog(log: string, keep: number): Promise<void>;
  /**
   * Optional: drops the record at `position` (a position {@link readLogBackward} gave) and every older one. Adapters
   * that other processes share offer it: a count of records to keep, taken before the trim, would also cut the records
   * another process appended in between. Without it, callers trim by count with {@link trimLog}.
   */
  trimLogBefore?(log: string, position: number): Promise<void>;
  /** Removes the log `log` entirely (and, in the file adapter, directories it leaves empty). Resolves `true` if it existed. */
  deleteLog(log: string): Promise<boolean>;
  /** Names of the logs whose name starts with `prefix`. */
  listLogs(prefix: string): Promise<string[]>;
  /** Finishes pending writes and releases resources. Later calls fail with `storage_closed`. */
  close(): Promise<void>;
}
