// A per-attempt watchdog: aborts the upstream request when headers or the next chunk take longer than the timeout, or the client leaves.

/** Aborts one upstream attempt on timeout or on the client's abort; re-armed by every chunk that arrives. */
export class AttemptTimer {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onParentAbort = (): void => this.controller.abort();

  constructor(
    private readonly timeoutMs: number,
    private readonly parent: AbortSignal,
  ) {
    if (parent.aborted) this.controller.abort();
    else parent.addEventListener('abort', this.onParentAbort, { once: true });
    this.touch();
  }

  /** The signal to give the upstream request. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Restarts the countdown: progress was made. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
    this.timer.unref();
  }

  /** Stops the countdown and lets go of the client's signal. */
  clear(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener('abort', this.onParentAbort);
  }
}
