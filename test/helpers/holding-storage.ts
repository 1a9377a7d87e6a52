// A memory storage adapter that can hold one read: for tests of what a request does when its client leaves while storage is read.
import { memoryStorage, type StorageAdapter } from '../../src/index.js';

/** A memory adapter, and `arm(prefix)`: its next `get` of a key starting with `prefix` waits until `release()`. */
export interface HoldingStorage {
  adapter: StorageAdapter;
  /** Holds the next read of a key starting with `prefix`: `reached` resolves when it starts. */
  arm(prefix: string): { reached: Promise<void>; release(): void };
}

/**
 * Wraps {@link memoryStorage} so that one read can be held.
 * @example
 * const hold = holdingStorage();
 * const f = await createTrafficFixture({ storage: hold.adapter });
 * const read = hold.arm('developer-keys/');
 * // ... send a request, await read.reached, make the client leave, then read.release()
 */
export function holdingStorage(): HoldingStorage {
  const inner = memoryStorage();
  let armed: { prefix: string; reached(): void; released: Promise<void> } | undefined;
  const adapter: StorageAdapter = {
    ...inner,
    async get(key) {
      const hold = armed && key.startsWith(armed.prefix) ? armed : undefined;
      if (hold) {
        armed = undefined;
        hold.reached();
        await hold.released;
      }
      return inner.get(key);
    },
  };
  return {
    adapter,
    arm(prefix) {
      let reached!: () => void;
      let release!: () => void;
      const reachedAt = new Promise<void>((resolve) => (reached = resolve));
      armed = { prefix, reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached: reachedAt, release };
    },
  };
}
