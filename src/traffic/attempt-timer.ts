// A per-attempt watchdog: aborts the upstream request when headers or the next chunk take longer than the timeout, or the client leaves.
import { EventEmitter } from 'node:events';

/**
 * What undici accepts as a request's `signal`: an AbortSignal, or an EventEmitter with `aborted` that emits
 * `abort`. The watchdog is the latter, which costs less per request than an AbortController and its EventTarget.
 */
export interface UpstreamSignal {
  readonly aborted: boolean;
  on(event: 'abort', listener: () => void): unknown;
  once(event: 'abort', listener: () => void): unknown;
  removeListener(event: 'abort', listener: () => void): unknown;
}

/** A cheap abort flag: `aborted`, and one `abort` event when it turns. Serves as an undici signal. */
export class AbortFlag extends EventEmitter implements UpstreamSignal {
  aborted = false;

  /** Turns the flag and tells the listeners, once. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** Aborts one upstream attempt on timeout or on the client's abort; re-armed by every chunk that arrives. */
export class AttemptTimer extends AbortFlag {
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onParentAbort = (): void => this.abort();

  constructor(
    private readonly timeoutMs: number,
    private readonly parent: AbortFlag,
  ) {
    super();
    if (parent.aborted) this.abort();
    else parent.once('abort', this.onParentAbort);
    this.touch();
  }

  /** The signal to give the upstream request. */
  get signal(): UpstreamSignal {
    return this;
  }

  /** Restarts the countdown: progress was made. */
  touch(): void {
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.abort();
      }, this.timeoutMs);
      this.timer.unref();
    }
  }

  /** Stops the countdown and lets go of the client's flag. */
  clear(): void {
    clearTimeout(this.timer);
    this.parent.removeListener('abort', this.onParentAbort);
  }
}
