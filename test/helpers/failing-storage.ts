// A storage adapter that fails one chosen write, for checking that multi-record writes leave nothing half-stored.
import type { StorageAdapter } from '../../src/storage/storage-adapter.js';

/**
 * Wraps an adapter so that the write number `failAt` (counted from `arm()`) fails, as a crash at that point would;
 * the writes after it succeed again. `writes()` counts the writes since `arm()` (arm a number past the end to count
 * an operation's writes).
 * @example
 * const storage = failingStorage(fileStorage({ dir }));
 * storage.arm(2); // the second write from now fails
 */
export function failingStorage(inner: StorageAdapter): StorageAdapter & { arm(failAt: number): void; writes(): number } {
  let armed = false;
  let count = 0;
  let failAt = 0;
  const step = (): void => {
    if (!armed) return;
    count++;
    if (count === failAt) {
      armed = false;
      throw Object.assign(new Error('injected write failure'), { code: 'EIO' });
    }
  };
  return {
    ...inner,
    name: inner.name,
    init: () => inner.init(),
    get: (key) => inner.get(key),
    list: (prefix) => inner.list(prefix),
    readLog: (log) => inner.readLog(log),
    readLogBackward: (log, options) => inner.readLogBackward(log, options),
    listLogs: (prefix) => inner.listLogs(prefix),
    close: () => inner.close(),
    set: async (key, value) => (step(), inner.set(key, value)),
    delete: async (key) => (step(), inner.delete(key)),
    // A batch (one transaction on PostgreSQL) is one write: it fails whole.
    batch: inner.batch ? async (writes) => (step(), inner.batch!(writes)) : undefined,
    append: async (log, records) => (step(), inner.append(log, records)),
    appendJson: inner.appendJson ? async (log, texts, guard) => (step(), inner.appendJson!(log, texts, guard)) : undefined,
    rewriteLog: async (log, records) => (step(), inner.rewriteLog(log, records)),
    trimLog: async (log, keep) => (step(), inner.trimLog(log, keep)),
    deleteLog: async (log) => (step(), inner.deleteLog(log)),
    arm(at: number) {
      armed = true;
      count = 0;
      failAt = at;
    },
    writes: () => count,
  };
}
