// Batches Chronicles entries off the request path, appends them per application, and enforces retention in the background.
import type { Storage } from '../storage/storage-facade.js';
import type { ChronicleEntry } from './chronicle-entry.js';

/** Retention of each application's log. */
export interface ChroniclesRetention {
  /** Keep at most this many entries per application. Default 10,000. */
  maxEntries?: number;
  /** Drop entries older than this, in ms. Default: none. */
  maxAgeMs?: number;
}

/** Options of the recorder. */
export interface ChroniclesOptions {
  /** How long entries wait in memory before they are appended, in ms. Default 200. */
  flushIntervalMs?: number;
  /** Append at once when this many entries wait. Default 500. */
  maxBatch?: number;
  retention?: ChroniclesRetention;
  now?: () => number;
  /** Told when a background flush or sweep fails (the batch is kept and retried with the next flush). */
  onError?: (error: Error) => void;
}

/** The log name of an application's Chronicles. */
export const chroniclesLog = (application: string): string => `chronicles/${application}`;

/**
 * Records entries in memory and appends them in batches. `flush()` writes what waits; `close()`
 * flushes and stops the timers. A crash loses at most the entries not yet flushed.
 */
export class ChroniclesRecorder {
  private pending = new Map<string, ChronicleEntry[]>();
  private pendingCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly counts = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number | undefined;
  private readonly now: () => number;
  private readonly onError: (error: Error) => void;

  constructor(
    private readonly storage: Storage,
    options: ChroniclesOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 200;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxEntries = options.retention?.maxEntries ?? 10_000;
    this.maxAgeMs = options.retention?.maxAgeMs;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    if (this.maxAgeMs !== undefined) {
      this.sweeper = setInterval(() => this.enqueue(() => this.sweepAge()).catch(this.onError), Math.min(60_000, Math.max(1000, this.maxAgeMs / 10)));
      this.sweeper.unref();
    }
  }

  /** Queues one entry; never throws and never waits. */
  record(entry: ChronicleEntry): void {
    const list = this.pending.get(entry.application) ?? [];
    list.push(entry);
    this.pending.set(entry.application, list);
    this.pendingCount++;
    if (this.pendingCount >= this.maxBatch) this.flushInBackground();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flushInBackground(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** A flush nobody awaits: a failure is reported, never left as an unhandled rejection. */
  private flushInBackground(): void {
    this.flush().catch(this.onError);
  }

  /** Appends every waiting entry; resolves once they are durable. A batch that fails to append is put back for the next flush. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    return this.enqueue(async () => {
      let failure: unknown;
      for (const [application, entries] of batch) {
        try {
          await this.storage.append(chroniclesLog(application), entries);
        } catch (error) {
          this.pending.set(application, [...entries, ...(this.pending.get(application) ?? [])]);
          this.pendingCount += entries.length;
          failure ??= error;
          continue;
        }
        this.counts.set(application, (this.counts.get(application) ?? (await this.countOf(application, entries.length))) + entries.length);
        // Trim with some slack, so a full log is not rewritten on every flush; reads cut to maxEntries.
        if ((this.counts.get(application) ?? 0) > this.maxEntries + Math.max(100, Math.floor(this.maxEntries / 10))) {
          await this.trim(application);
        }
      }
      if (failure !== undefined) throw failure;
    });
  }

  /** The retained entries of an application, oldest first, after flushing what waits. */
  async entries(application: string): Promise<ChronicleEntry[]> {
    await this.flush();
    const all = await this.storage.readLog<ChronicleEntry>(chroniclesLog(application));
    const cutoff = this.maxAgeMs === undefined ? undefined : this.now() - this.maxAgeMs;
    const fresh = cutoff === undefined ? all : all.filter((entry) => Date.parse(entry.timestamp) >= cutoff);
    return fresh.slice(-this.maxEntries);
  }

  /** Deletes an application's log (when the application is deleted). */
  async forget(application: string): Promise<void> {
    await this.flush();
    await this.enqueue(async () => {
      await this.storage.deleteLog(chroniclesLog(application));
      this.counts.delete(application);
    });
  }

  /** Flushes and stops the timers. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.flush();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** The number of entries already in the log before `justAppended` were added (read once per application). */
  private async countOf(application: string, justAppended: number): Promise<number> {
    return (await this.storage.readLog(chroniclesLog(application))).length - justAppended;
  }

  private async trim(application: string): Promise<void> {
    await this.storage.trimLog(chroniclesLog(application), this.maxEntries);
    this.counts.set(application, this.maxEntries);
  }

  private async sweepAge(): Promise<void> {
    if (this.maxAgeMs === undefined) return;
    const cutoff = this.now() - this.maxAgeMs;
    for (const log of await this.storage.listLogs('chronicles/')) {
      const entries = await this.storage.readLog<ChronicleEntry>(log);
      const kept = entries.filter((entry) => Date.parse(entry.timestamp) >= cutoff);
      if (kept.length !== entries.length) {
        await this.storage.rewriteLog(log, kept);
        this.counts.set(log.slice('chronicles/'.length), kept.length);
      }
    }
  }
}
