// Counts the model requests and MCP POSTs whose Chronicles entries and usage are not yet recorded, so a closing gateway can wait for them before its last flush.

/**
 * Model requests the Chronicles watcher has seen start and not yet recorded, and MCP proxy POSTs whose calls are not
 * yet recorded. `gateway.close()` waits for
 * {@link idle} before the last flush: a request still being answered when the server stops (SIGTERM mid-load) is
 * answered, and its entry, usage totals and spend are written, instead of being recorded into a closed recorder.
 * @example
 * const inFlight = new RequestsInFlight();
 * inFlight.enter(); // when a request starts
 * inFlight.leave(); // once its entry is queued
 * await inFlight.idle();
 */
export class RequestsInFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  /** How many requests are in flight now. */
  get size(): number {
    return this.count;
  }

  /** One more request started. */
  enter(): void {
    this.count++;
  }

  /** One request's entry is queued (or it has none): the last one to leave wakes every {@link idle} waiter. */
  leave(): void {
    if (this.count > 0) this.count--;
    if (this.count > 0 || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Settles once no request is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
