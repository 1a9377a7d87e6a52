// A per-key promise chain: work under the same key runs one at a time, in call order; other keys run freely.

/** Serialises async work per key. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier call under `key` has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once all work queued so far has settled. */
  async drain(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
