// A per-key promise queue: tasks for one key run one at a time in call order, tasks for different keys run in parallel.

/** Serializes async tasks per key. */
export interface KeyedWriteQueue {
  /** Runs `task` after every task queued earlier for `key` has settled; resolves or rejects as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Resolves once no task is queued or running, including tasks queued while waiting. */
  idle(): Promise<void>;
}

/**
 * Creates an empty keyed write queue.
 * @example
 * const queue = keyedWriteQueue();
 * await queue.run('routes/chat', () => writeFileAtomic(file, text));
 */
export function keyedWriteQueue(): KeyedWriteQueue {
  // The tail of each key's chain, always settled successfully so that one failure does not block later tasks.
  const tails = new Map<string, Promise<void>>();

  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    async idle() {
      while (tails.size > 0) await Promise.all(tails.values());
    },
  };
}
