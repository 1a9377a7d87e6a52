// The recorder's bounded in-memory buffer of entries waiting to be appended, per application, with drop counting and reporting.

/** An entry ready to append: its scrubbed JSON text, and what the flush needs to know of it. */
export interface FinishedEntry {
  text: string;
  timestamp: string;
  /** It has tool invocations, which the usage graph counts. */
  toolCalls: boolean;
}

/**
 * One queued entry, already bounded and serialized (a flat string holds no object of the request alive while it
 * waits), with the credentials of its request (memory only).
 */
export interface PendingEntry {
  json: string;
  timestamp: string;
  toolCalls: boolean;
  sizes: Map<string, number>;
  secrets: readonly string[];
  /** Set once the entry was finished by a flush whose append then failed: it is appended as is by the next one. */
  finished?: FinishedEntry;
}

/** How often `onDrop` is told at most, in ms. */
const DROP_REPORT_MS = 10_000;

/**
 * Entries waiting per application, at most `maxPending` of them. `take()` hands the whole buffer to a flush; a batch
 * that failed is put back in front, its oldest entries dropped beyond `maxPending`. Drops are counted and reported
 * to `onDrop` at most every 10 s.
 */
export class PendingEntries {
  private byApplication = new Map<string, PendingEntry[]>();
  private count = 0;
  private droppedTotal = 0;
  private droppedReported = 0;
  private lastDropReport = -Infinity;

  constructor(
    private readonly maxPending: number,
    private readonly onDrop: (total: number, since: number) => void,
    private readonly now: () => number,
  ) {}

  /** Entries waiting. */
  get size(): number {
    return this.count;
  }

  /** Entries dropped so far because the buffer was full. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Whether the buffer holds `maxPending` entries: a new one is then dropped ({@link drop}). */
  get full(): boolean {
    return this.count >= this.maxPending;
  }

  /** Counts one entry dropped because the buffer was full. */
  drop(): void {
    this.droppedTotal++;
    this.reportDrops();
  }

  /** Queues one entry of `application`. */
  add(application: string, entry: PendingEntry): void {
    const list = this.byApplication.get(application) ?? [];
    list.push(entry);
    this.byApplication.set(application, list);
    this.count++;
  }

  /** Every waiting entry, by application; the buffer is empty afterwards. */
  take(): Map<string, PendingEntry[]> {
    const batch = this.byApplication;
    this.byApplication = new Map();
    this.count = 0;
    return batch;
  }

  /**
   * Puts back entries of `application` whose append failed, before those recorded since. Entries recorded while the
   * batch was in flight count too: beyond `maxPending`, the oldest are dropped.
   */
  putBack(application: string, entries: PendingEntry[]): void {
    let back = entries;
    const room = Math.max(0, this.maxPending - this.count);
    if (back.length > room) {
      this.droppedTotal += back.length - room;
      back = back.slice(back.length - room);
      this.reportDrops();
    }
    this.byApplication.set(application, [...back, ...(this.byApplication.get(application) ?? [])]);
    this.count += back.length;
  }

  /** Tells `onDrop` about new drops, at most every 10 s. */
  private reportDrops(): void {
    const now = this.now();
    if (this.droppedTotal === this.droppedReported || now - this.lastDropReport < DROP_REPORT_MS) return;
    this.lastDropReport = now;
    const since = this.droppedTotal - this.droppedReported;
    this.droppedReported = this.droppedTotal;
    this.onDrop(this.droppedTotal, since);
  }
}
