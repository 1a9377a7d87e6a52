// The storage facade over any adapter: typed access, per-key read-modify-write locking and log helpers.
import type { JsonValue, StorageAdapter, StorageEntry } from './storage-adapter.js';
import { KeyedLock } from './keyed-lock.js';

/**
 * What the gateway uses to reach its adapter. Adapters stay thin; this adds typing and
 * `update()`/`locked()` so concurrent read-modify-write in one process never loses an update.
 */
export class Storage {
  private readonly lock = new KeyedLock();

  constructor(readonly adapter: StorageAdapter) {}

  /** Loads the adapter's persisted state. */
  init(): Promise<void> {
    return this.adapter.init();
  }

  get<T>(key: string): Promise<T | undefined> {
    return this.adapter.get(key) as Promise<T | undefined>;
  }

  set<T>(key: string, value: T): Promise<void> {
    return this.adapter.set(key, value as JsonValue);
  }

  delete(key: string): Promise<boolean> {
    return this.adapter.delete(key);
  }

  list<T>(prefix: string): Promise<Array<StorageEntry<T>>> {
    return this.adapter.list(prefix) as Promise<Array<StorageEntry<T>>>;
  }

  /**
   * Runs `work` while holding the lock of `key`: other `locked`/`update` calls on the same key wait.
   * Use it for check-then-write sequences such as create-if-absent.
   */
  locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.lock.run(key, work);
  }

  /** Reads, transforms and writes one key atomically with respect to other updates in this process. `undefined` deletes. */
  update<T>(key: string, transform: (current: T | undefined) => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
    return this.lock.run(key, async () => {
      const next = await transform(await this.get<T>(key));
      if (next === undefined) await this.adapter.delete(key);
      else await this.adapter.set(key, next as JsonValue);
      return next;
    });
  }

  append<T>(log: string, records: T[]): Promise<void> {
    return this.adapter.append(log, records as JsonValue[]);
  }

  readLog<T>(log: string): Promise<T[]> {
    return this.adapter.readLog(log) as Promise<T[]>;
  }

  rewriteLog<T>(log: string, records: T[]): Promise<void> {
    return this.adapter.rewriteLog(log, records as JsonValue[]);
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
