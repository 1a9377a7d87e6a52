// Batches Chronicles entries off the request path, appends them per application, keeps the usage graph, and enforces retention in the background.
import { Errors } from '../errors/error-registry.js';
import type { WriteGuard } from '../storage/storage-adapter.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import { chroniclesLog } from './chronicles-keys.js';
import type { ChroniclesDeps, ChroniclesOptions } from './chronicles-options.js';
import { finishEntries } from './entry-finisher.js';
import { boundedEntryJson, DEFAULT_MAX_FIELD_BYTES } from './entry-limits.js';
import { LogRetention, type RetentionLimits } from './log-retention.js';
import { PendingEntries, type FinishedEntry, type PendingEntry } from './pending-entries.js';
import { readsIndexed, retainedEntries, type EntryMatch, type RetainedEntry } from './retained-entries.js';
import { UsageGraphStore } from './usage-graph-store.js';
import type { UsageGraph } from './usage-graph.js';

/** The first pause before a failed flush is retried, doubling up to {@link MAX_RETRY_MS} while appends keep failing. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 5000;

/** What `work` fails with, or `undefined` once it succeeded: a failure to report, not to throw. */
const failureOf = (work: Promise<void>): Promise<unknown> =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

/** Whether `error` says storage cannot be reached now (`storage_unavailable`), so every other append would fail the same way. */
const unreachable = (error: unknown): boolean => (error as { code?: unknown } | undefined)?.code === Errors.storageUnavailable.code;

/**
 * Records entries in memory and appends them in batches. `flush()` writes what waits; `close()`
 * flushes and stops the timers. A crash loses at most the entries not yet flushed.
 * Reads go newest first, page by page, so their memory does not depend on the log's size.
 */
export class ChroniclesRecorder {
  private readonly pending: PendingEntries;
  /** A background flush is queued or running: the next one starts when it ends, with everything recorded meanwhile. */
  private backgroundFlush = false;
  private timer: NodeJS.Timeout | undefined;
  /** The pause before the next retry while appends fail; 0 while they succeed. */
  private retryMs = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly limits: RetentionLimits;
  private readonly retention: LogRetention;
  private readonly usage: UsageGraphStore;
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly maxFieldBytes: number;
  private readonly onError: (error: Error) => void;
  private readonly secrets: () => Promise<readonly string[]>;
  private readonly owner: ChroniclesDeps['owner'];
  private discardedTotal = 0;
  /** Entries a flush has taken and not yet written, discarded or put back. */
  private taken = 0;
  /** {@link close} was called: no flush is scheduled or retried any more (storage is closed next). */
  private closed = false;

  constructor(
    private readonly storage: Storage,
    options: ChroniclesOptions = {},
    deps: ChroniclesDeps = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 200;
    this.maxBatch = options.maxBatch ?? 500;
    const now = options.now ?? Date.now;
    this.pending = new PendingEntries(Math.max(1, options.maxPending ?? 10_000), options.onDrop ?? (() => undefined), now);
    this.limits = { maxEntries: options.retention?.maxEntries ?? 10_000, maxAgeMs: options.retention?.maxAgeMs, now };
    this.retention = new LogRetention(storage, this.limits);
    this.usage = new UsageGraphStore(storage, this.limits.maxEntries);
    this.maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
    this.onError = options.onError ?? (() => undefined);
    this.secrets = deps.secrets ?? (async () => []);
    this.owner = deps.owner;
    const { maxAgeMs } = this.limits;
    if (maxAgeMs !== undefined) {
      this.sweeper = setInterval(() => this.sweep().catch(this.onError), Math.min(60_000, Math.max(1000, maxAgeMs / 10)));
      this.sweeper.unref();
    }
  }

  /**
   * Queues one entry; never throws and never waits. Its fields are bounded at once (so a huge answer is not held
   * until the flush); `secrets` (the request's own credentials) are scrubbed with every stored secret at the flush.
   */
  record(entry: ChronicleEntry, secrets: readonly string[] = []): void {
    if (this.pending.full) {
      this.pending.drop();
      return;
    }
    let bounded: { json: string; sizes: Map<string, number> };
    try {
      bounded = boundedEntryJson(entry, this.maxFieldBytes);
    } catch (error) {
      // Only a value JSON cannot hold (a cycle, a BigInt) gets here; the entry cannot be stored, and is reported.
      this.onError(error as Error);
      return;
    }
    this.pending.add(entry.application, { json: bounded.json, timestamp: entry.timestamp, toolCalls: entry.tool_invocations.length > 0, sizes: bounded.sizes, secrets });
    this.schedule();
  }

  /**
   * Starts or arms the next background flush for what waits. While one runs, nothing: its end calls this again.
   * While appends fail, kept entries wait for the retry timer rather than a flush per request.
   */
  private schedule(): void {
    if (this.closed || this.backgroundFlush || this.pending.size === 0) return;
    if (this.pending.size >= this.maxBatch && this.retryMs === 0) this.flushInBackground();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flushInBackground(), this.retryMs || this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Entries waiting to be written: those recorded since the last flush began, and those a flush is writing. */
  get queued(): number {
    return this.pending.size + this.taken;
  }

  /** Entries discarded at a flush because their application had been deleted (or re-created) since they began. */
  get discarded(): number {
    return this.discardedTotal;
  }

  /** Entries dropped so far because the buffer was full while appends failed. */
  get dropped(): number {
    return this.pending.dropped;
  }

  /** A flush nobody awaits: a failure is reported, never left as an unhandled rejection. When it ends, the next is scheduled. */
  private flushInBackground(): void {
    this.backgroundFlush = true;
    this.flush()
      .catch(this.onError)
      .finally(() => {
        this.backgroundFlush = false;
        this.schedule();
      });
  }

  /** Appends every waiting entry; resolves once they are durable. A batch that fails to append is put back for the next flush. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.take();
    for (const items of batch.values()) this.taken += items.length;
    return this.enqueue(async () => {
      let failure: unknown;
      let known: readonly string[] | undefined;
      try {
        known = await this.secrets();
      } catch (error) {
        failure = error;
      }
      for (const [application, items] of batch) {
        // Storage unreachable: each other application's append would wait out the same timeout (a hung database made
        // a flush, and so a stop, last one timeout per application), so their entries wait for the next flush.
        if (unreachable(failure)) {
          this.taken -= items.length;
          this.pending.putBack(application, items);
          continue;
        }
        const error = await this.flushApplication(application, items, known, failure).finally(() => (this.taken -= items.length));
        failure ??= error;
      }
      if (failure === undefined) {
        this.retryMs = 0;
        return;
      }
      // Kept entries are retried by themselves (backing off), so they are written once storage is back even if no request comes.
      this.retryMs = Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, this.retryMs * 2));
      if (!this.timer && !this.closed) {
        this.timer = setTimeout(() => this.flushInBackground(), this.retryMs);
        this.timer.unref();
      }
      throw failure;
    });
  }

  /**
   * Finishes and appends the batch of one application (`known`: every stored secret, `undefined` when reading them
   * failed with `failure`); resolves the error that failed it, if any. Entries it could not append are put back.
   */
  private async flushApplication(application: string, items: PendingEntry[], known: readonly string[] | undefined, failure: unknown): Promise<unknown> {
    let entries: FinishedEntry[] | undefined;
    try {
      if (known === undefined) throw failure;
      entries = finishEntries(items, known, this.maxFieldBytes);
      if (this.owner) {
        const owner = await this.owner(application);
        const current = owner ? entries.filter((entry) => entry.timestamp >= owner.since) : [];
        this.discardedTotal += entries.length - current.length;
        if (!owner || current.length === 0 || !(await this.storage.appendJson(chroniclesLog(application), current.map((entry) => entry.text), owner.guard))) {
          if (owner && current.length > 0) this.discardedTotal += current.length;
          return undefined;
        }
        return await failureOf(this.afterAppend(application, current, owner.guard));
      }
      await this.storage.appendJson(chroniclesLog(application), entries.map((entry) => entry.text));
    } catch (error) {
      // Put back what is ready to write (finished entries need no second pass).
      const finished = entries;
      this.pending.putBack(application, finished ? items.map((item, index): PendingEntry => ({ ...item, finished: finished[index] })) : items);
      return error;
    }
    // The entries are written: a failure from here on (graph, retention) is reported, and the other applications still flush.
    return failureOf(this.afterAppend(application, entries));
  }

  /** Updates the usage graph and keeps the log within retention after `entries` were appended. Runs in the queue. */
  private async afterAppend(application: string, entries: FinishedEntry[], guard?: WriteGuard): Promise<void> {
    await this.usage.update(application, entries, guard);
    await this.retention.afterAppend(application, entries.length);
  }

  /**
   * The retained entries of an application, newest first, read from the log a few at a time: at most
   * `maxEntries`, none older than `maxAgeMs`. `from` (a position from an earlier read) starts there, inclusive;
   * `skipped` is how many entries that earlier read had passed. Throws `cursor_invalid` when `from` is no longer
   * a record's position (the log was trimmed since).
   */
  async *newestFirst(application: string, from?: number, skipped = 0, match?: EntryMatch): AsyncGenerator<RetainedEntry> {
    await this.flush();
    yield* retainedEntries(this.storage, this.limits, application, from, skipped, match);
  }

  /**
   * Whether {@link newestFirst} answers `match` through the adapter's indexed read (then it yields only matching
   * entries, and a cursor's own entry only if it matches).
   */
  indexed(match: EntryMatch): boolean {
    return readsIndexed(this.storage, match);
  }

  /** The retained entries of an application, oldest first (bounded by `maxEntries`; for tests and small logs). */
  async entries(application: string): Promise<ChronicleEntry[]> {
    const found: ChronicleEntry[] = [];
    for await (const record of this.newestFirst(application)) found.push(record.value);
    return found.reverse();
  }

  /** One retained entry by id, searched newest first without loading the log. */
  async find(application: string, id: string): Promise<ChronicleEntry | undefined> {
    for await (const record of this.newestFirst(application, undefined, 0, { id })) if (record.value.id === id) return record.value;
    return undefined;
  }

  /**
   * The usage graph of an application: a running aggregate per tool, updated as entries are written and stored
   * beside the log. For a log written before graphs were stored, it is built from the log (newest first, bounded)
   * until the next flush stores it.
   */
  async graph(application: string): Promise<UsageGraph> {
    await this.flush();
    if (this.storage.countsAtomically) return this.usage.counted(application);
    let graph: UsageGraph | undefined;
    await this.enqueue(async () => {
      graph = await this.usage.load(application, false);
    });
    return graph!;
  }

  /** Deletes an application's log and graph (when the application is deleted). */
  async forget(application: string): Promise<void> {
    await this.flush();
    await this.enqueue(async () => {
      await this.usage.delete(application);
      await this.storage.deleteLog(chroniclesLog(application));
      this.retention.forget(application);
      this.usage.forget(application);
    });
  }

  /** Runs the age sweep now (it also runs on a timer when `maxAgeMs` is set): drops entries older than `maxAgeMs`. */
  sweep(): Promise<void> {
    return this.enqueue(() => this.retention.sweepAge());
  }

  /**
   * Flushes and stops the timers. Entries its last flush could not write stay in {@link queued}, and are not retried
   * (the storage is closed after this): a closed recorder never flushes again.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await this.flush();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
