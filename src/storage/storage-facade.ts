// The storage facade over any adapter: typed access, per-key read-modify-write locking and log helpers.
import { LRUCache } from 'lru-cache';
import { meetsGuard, type CountChange, type CountRow, type JsonValue, type LogMatchOptions, type LogPage, type StorageAdapter, type StorageEntry, type StorageWrite, type WriteGuard } from './storage-adapter.js';
import { KeyedLock } from './keyed-lock.js';
import { isKeyInvalid } from './storage-key.js';

/** A read of a key that cannot exist (a path-like name from a request) finds nothing: the caller answers 404. */
function absentIfInvalid<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (isKeyInvalid(error)) return fallback;
    throw error;
  };
}


/**
 * What the gateway uses to reach its adapter. Adapters stay thin; this adds typing and
 * `update()`/`locked()` so concurrent read-modify-write in one process never loses an update.
 */
export class Storage {
  private readonly lock = new KeyedLock();
  private readonly cache = new LRUCache<string, { value: unknown }>({ max: 10_000 });
  /** Bumped on every write, so a read that raced a write is not cached. */
  private generation = 0;
  private readonly writeListeners: Array<(key: string | undefined) => void> = [];

  /**
   * Calls `listener` with the key after every write or delete made through this facade, or announced by the adapter
   * from another replica (for derived caches); with `undefined` when any key may have changed.
   */
  onWrite(listener: (key: string | undefined) => void): void {
    this.writeListeners.push(listener);
  }

  private written(key: string | undefined): void {
    this.generation++;
    if (key === undefined) this.cache.clear();
    else this.cache.delete(key);
    for (const listener of this.writeListeners) listener(key);
  }

  /** Bumped per key when another replica changed it, so a read of that key that raced the notice is not cached. */
  private readonly keyGenerations = new LRUCache<string, number>({ max: 10_000 });

  /** A change announced by the adapter: drops that key's cached copy (every copy when `key` is undefined). */
  private changedElsewhere(key: string | undefined): void {
    if (key === undefined) {
      this.written(undefined);
      return;
    }
    this.keyGenerations.set(key, (this.keyGenerations.get(key) ?? 0) + 1);
    this.cache.delete(key);
    for (const listener of this.writeListeners) listener(key);
  }

  constructor(readonly adapter: StorageAdapter) {
    // Changes made by other replicas drop the cached copies here too (PostgreSQL LISTEN/NOTIFY).
    adapter.watch?.((key) => this.changedElsewhere(key));
  }

  /**
   * Reads a key for the request path: the parsed value is cached until this facade writes the key.
   * The value is shared between callers and must not be mutated.
   */
  async getCached<T>(key: string): Promise<Readonly<T> | undefined> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit.value as T | undefined;
    const generation = this.generation;
    const keyGeneration = this.keyGenerations.get(key);
    const value = await this.adapter.get(key).catch(absentIfInvalid(undefined));
    if (generation === this.generation && keyGeneration === this.keyGenerations.get(key)) this.cache.set(key, { value });
    return value as T | undefined;
  }

  /**
   * The cached copy of a key, without a storage read: `{ value }` when {@link getCached} has it (value undefined for a
   * key known to be absent), undefined when it must be read. Lets the request path skip a promise when warm.
   */
  peekCached<T>(key: string): { value: Readonly<T> | undefined } | undefined {
    return this.cache.get(key) as { value: Readonly<T> | undefined } | undefined;
  }

  /** Loads the adapter's persisted state. */
  init(): Promise<void> {
    return this.adapter.init();
  }

  /** The value at `key`; a key no name could make (`a/../b`) is simply absent. Writes of such keys fail with 400. */
  get<T>(key: string): Promise<T | undefined> {
    return this.adapter.get(key).catch(absentIfInvalid(undefined)) as Promise<T | undefined>;
  }

  async set<T>(key: string, value: T): Promise<void> {
    this.generation++;
    try {
      await this.adapter.set(key, value as JsonValue);
    } finally {
      this.written(key);
    }
  }

  async delete(key: string): Promise<boolean> {
    this.generation++;
    try {
      return await this.adapter.delete(key).catch(absentIfInvalid(false));
    } finally {
      this.written(key);
    }
  }

  /**
   * Applies several writes in order: in one transaction when the adapter has `batch` (PostgreSQL), else one by
   * one in the given order, so callers still order them to leave no record that grants access if cut short.
   */
  async batch(writes: Array<{ op: 'set'; key: string; value: unknown } | { op: 'delete'; key: string }>): Promise<void> {
    this.generation++;
    try {
      if (this.adapter.batch) await this.adapter.batch(writes as StorageWrite[]);
      else {
        for (const write of writes) {
          if (write.op === 'set') await this.adapter.set(write.key, write.value as JsonValue);
          else await this.adapter.delete(write.key);
        }
      }
    } finally {
      for (const write of writes) this.written(write.key);
    }
  }

  list<T>(prefix: string): Promise<Array<StorageEntry<T>>> {
    return this.adapter.list(prefix) as Promise<Array<StorageEntry<T>>>;
  }

  /**
   * Runs `work` while holding the lock of `key`: other `locked`/`update` calls on the same key wait, in this process
   * and, when the adapter has `withKeyLock` (PostgreSQL), in every replica sharing the store.
   * Use it for check-then-write sequences such as create-if-absent.
   */
  locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.lock.run(key, this.acrossProcesses(key, work));
  }

  /**
   * Reads, transforms and writes one key atomically with respect to other updates in this process, and in the other
   * processes sharing the store when the adapter has `withKeyLock` (PostgreSQL). `undefined` deletes.
   */
  update<T>(key: string, transform: (current: T | undefined) => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
    return this.lock.run(
      key,
      this.acrossProcesses(key, async () => {
        const next = await transform(await this.get<T>(key));
        if (next === undefined) await this.delete(key);
        else await this.set(key, next);
        return next;
      }),
    );
  }

  /** `work` under the adapter's lock of `key` shared with other processes, when it has one; else `work` itself. */
  private acrossProcesses<T>(key: string, work: () => Promise<T>): () => Promise<T> {
    const adapter = this.adapter;
    if (!adapter.withKeyLock) return work;
    return () => adapter.withKeyLock!(key, work);
  }

  append<T>(log: string, records: T[]): Promise<void> {
    return this.adapter.append(log, records as JsonValue[]);
  }

  /**
   * Appends only if `guard` holds; resolves whether it wrote. Atomic on adapters with `appendGuarded` (PostgreSQL);
   * elsewhere (one process) the guard is read, then the records appended.
   */
  async appendGuarded<T>(log: string, records: T[], guard: WriteGuard): Promise<boolean> {
    if (this.adapter.appendGuarded) return this.adapter.appendGuarded(log, records as JsonValue[], guard);
    if (!meetsGuard(await this.adapter.get(guard.key), guard)) return false;
    await this.adapter.append(log, records as JsonValue[]);
    return true;
  }

  /**
   * Appends records given as JSON texts (see {@link StorageAdapter.appendJson}), only if `guard` holds when one is
   * given; resolves whether it wrote. Adapters without `appendJson` get the parsed records.
   */
  async appendJson(log: string, texts: string[], guard?: WriteGuard): Promise<boolean> {
    const adapter = this.adapter;
    if (guard && !adapter.appendGuarded) {
      if (!meetsGuard(await adapter.get(guard.key), guard)) return false;
      guard = undefined;
    }
    if (adapter.appendJson) return adapter.appendJson(log, texts, guard);
    const records = texts.map((text) => JSON.parse(text) as JsonValue);
    if (guard) return adapter.appendGuarded!(log, records, guard);
    await adapter.append(log, records);
    return true;
  }

  readLog<T>(log: string): Promise<T[]> {
    return this.adapter.readLog(log).catch(absentIfInvalid([])) as Promise<T[]>;
  }

  /** One page of a log, newest first; see {@link StorageAdapter.readLogBackward}. */
  readLogBackward<T>(log: string, options: { from?: number; limit: number }): Promise<LogPage<T> | undefined> {
    return this.adapter.readLogBackward(log, options) as Promise<LogPage<T> | undefined>;
  }

  /** Whether the adapter answers {@link readLogMatching} itself (PostgreSQL, on indexes). */
  get matchesLogs(): boolean {
    return this.adapter.readLogMatching !== undefined;
  }

  /** One page of the records of a log that match, newest first; only when {@link matchesLogs} (see {@link StorageAdapter.readLogMatching}). */
  readLogMatching<T>(log: string, options: LogMatchOptions): Promise<LogPage<T> | undefined> {
    if (!this.adapter.readLogMatching) throw new Error(`The ${this.adapter.name} storage adapter has no readLogMatching.`);
    return this.adapter.readLogMatching(log, options) as Promise<LogPage<T> | undefined>;
  }

  /** Whether the adapter keeps count sets itself, atomically across processes (PostgreSQL); see {@link StorageAdapter.addCounts}. */
  get countsAtomically(): boolean {
    return this.adapter.addCounts !== undefined && this.adapter.readCounts !== undefined && this.adapter.deleteCounts !== undefined;
  }

  /** Adds to a count set; only when {@link countsAtomically}. */
  addCounts(set: string, changes: CountChange[], maxItems: number, guard?: WriteGuard): Promise<void> {
    if (!this.adapter.addCounts) throw new Error(`The ${this.adapter.name} storage adapter has no addCounts.`);
    return this.adapter.addCounts(set, changes, maxItems, guard);
  }

  /** The items of a count set; only when {@link countsAtomically}. */
  readCounts(set: string): Promise<CountRow[]> {
    if (!this.adapter.readCounts) throw new Error(`The ${this.adapter.name} storage adapter has no readCounts.`);
    return this.adapter.readCounts(set);
  }

  /** Removes a count set; only when {@link countsAtomically}. */
  deleteCounts(set: string): Promise<boolean> {
    if (!this.adapter.deleteCounts) throw new Error(`The ${this.adapter.name} storage adapter has no deleteCounts.`);
    return this.adapter.deleteCounts(set);
  }

  deleteLog(log: string): Promise<boolean> {
    return this.adapter.deleteLog(log).catch(absentIfInvalid(false));
  }

  rewriteLog<T>(log: string, records: T[]): Promise<void> {
    return this.adapter.rewriteLog(log, records as JsonValue[]);
  }

  trimLog(log: string, keep: number): Promise<void> {
    return this.adapter.trimLog(log, keep);
  }

  /**
   * Drops the record at `position` and every older one, where the adapter can (see {@link StorageAdapter.trimLogBefore});
   * resolves false when it cannot, and the caller trims by count instead.
   */
  async trimLogBefore(log: string, position: number): Promise<boolean> {
    if (!this.adapter.trimLogBefore) return false;
    await this.adapter.trimLogBefore(log, position);
    return true;
  }

  /**
   * Whether other processes share this storage (the adapter announces their changes: `watch`, PostgreSQL), so a log
   * may grow by appends this process never sees.
   */
  get shared(): boolean {
    return this.adapter.watch !== undefined;
  }

  listLogs(prefix: string): Promise<string[]> {
    return this.adapter.listLogs(prefix);
  }

  /** Waits for locked work, then closes the adapter. */
  async close(): Promise<void> {
    await this.lock.drain();
    await this.adapter.close();
  }
}
