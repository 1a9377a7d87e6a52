// Tells a test when a gateway's work asks for one key's lock, so concurrent admin writes can be interleaved deterministically.
import type { Storage } from '../../src/storage/storage-facade.js';

/**
 * Resolves when the next call of `storage.locked(key, …)` arrives (the work waits for the lock then, or runs). The
 * call passes on unchanged: this only observes, so a test can start a second write exactly while a first holds the
 * lock, whether the code under test reads state before asking for the lock or not.
 * @example
 * const asked = nextLockRequest(t.gateway.storage, 'mcp-registries/tools');
 * const second = request(t.app).put(…).then((answer) => answer);
 * await asked; // the second write is queued behind the first
 */
export function nextLockRequest(storage: Storage, key: string): Promise<void> {
  return new Promise((resolve) => {
    const own = Object.prototype.hasOwnProperty.call(storage, 'locked');
    const original = storage.locked;
    const observed = function observedLocked<T>(this: Storage, asked: string, work: () => Promise<T>): Promise<T> {
      if (asked === key) {
        if (own) storage.locked = original;
        else delete (storage as Partial<Pick<Storage, 'locked'>>).locked;
        resolve();
      }
      return original.call(this, asked, work) as Promise<T>;
    };
    storage.locked = observed;
  });
}
