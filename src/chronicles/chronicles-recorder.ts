// Batches Chronicles entries off the request path, appends them per application, keeps the usage graph, and enforces retention in the background.
import type { LogRecord, WriteGuard } from '../storage/storage-adapter.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import { secretScrubber, type SecretScrubber } from '../secrets/secret-scrubber.js';
import { boundedEntryJson, DEFAULT_MAX_FIELD_BYTES, finishEntryText } from './entry-limits.js';
import { newestRecords, READ_BATCH, StalePositionError } from './log-pages.js';
import { applyToGraph, emptyGraph, graphChanges, graphFromCounts, MAX_GRAPH_NODES, type UsageGraph } from './usage-graph.js';

/** Retention of each application's log. */
export interface ChroniclesRetention {
  /** Keep at most this many entries per application. Default 10,000. */
  maxEntries?: number;
  /** Drop entries older than this, in ms. Default: none. */
  maxAgeMs?: number;
}

/** The first pause before a failed flush is retried, doubling up to {@link MAX_RETRY_MS} while appends keep failing. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 5000;

/** Options of the recorder. */
export interface ChroniclesOptions {
  /** How long entries wait in memory before they are appended, in ms. Default 200. */
  flushIntervalMs?: number;
  /**
   * Append at once when this many entries wait. Default 500. While a batch is being written, the next one waits for
   * it to end and takes every entry recorded meanwhile, so a slow disk means fewer, larger appends, not a queue of them.
   */
  maxBatch?: number;
  /**
   * The most entries kept waiting in memory (besides the batch being written): reached while appends fail (storage
   * unreachable) or fall behind. Beyond it, new entries are dropped and counted (`dropped`), and `onDrop` is told at
   * most every 10 s. Default 10,000.
   */
  maxPending?: number;
  /** Told when entries were dropped because the buffer was full: the total so far and how many since the last call. */
  onDrop?: (total: number, since: number) => void;
  /**
   * The cap of each recorded field (input, output, usage, error message, attempt errors, check results, tool
   * arguments, results and errors), in bytes. A longer field is stored as a string of its first `maxFieldBytes`
   * bytes (of its JSON text when it is not a string) followed by `…[truncated]`, and listed in the entry's
   * `truncated: [{ field, bytes }]` with its original size. Default 32 KB.
   */
  maxFieldBytes?: number;
  retention?: ChroniclesRetention;
  now?: () => number;
  /** Told when a background flush or sweep fails (the batch is kept and retried with the next flush). */
  onError?: (error: Error) => void;
}

/** What the recorder needs from the gateway besides storage. */
export interface ChroniclesDeps {
  /** Every stored secret (provider keys, registry tokens) to scrub from entries before they are written. */
  secrets?: () => Promise<readonly string[]>;
  /**
   * The application's current incarnation, read at each flush: `undefined` when it is gone or being deleted (its
   * entries are then discarded), else a guard that holds only while it exists unchanged, and `since` (its creation
   * time): entries that began earlier belong to an application of the same name deleted since, and are discarded.
   * The entries are appended, and the usage graph added to, only while the guard holds, so a flush that lands after
   * the application was deleted (from another replica, or a request that ended late) never brings its log or counts back.
   */
  owner?: (application: string) => Promise<{ guard: WriteGuard; since: string } | undefined>;
}

/** Equality filters on entry fields that an adapter with indexed log reads answers itself (see `Storage.matchesLogs`). */
export type EntryMatch = Partial<{ id: string; route: string; model: string; status: number }>;

/** The log name of an application's Chronicles. */
export const chroniclesLog = (application: string): string => `chronicles/${application}`;
/** The storage key of an application's usage graph. */
export const usageGraphKey = (application: string): string => `chronicles-graph/${application}`;

/**
 * One queued entry, already bounded and serialized (a flat string holds no object of the request alive while it
 * waits), with the credentials of its request (memory only).
 */
interface Pending {
  json: string;
  timestamp: string;
  toolCalls: boolean;
  sizes: Map<string, number>;
  secrets: readonly string[];
  /** Set once the entry was finished by a flush whose append then failed: it is appended as is by the next one. */
  finished?: FinishedEntry;
}

/** An entry ready to append: its scrubbed JSON text, and what the flush needs to know of it. */
interface FinishedEntry {
  text: string;
  timestamp: string;
  /** It has tool invocations, which the usage graph counts. */
  toolCalls: boolean;
}

/** A retained entry read newest first, with its position in the log and how many entries were read before it. */
export interface RetainedEntry extends LogRecord<ChronicleEntry> {
  index: number;
}

/**
 * Records entries in memory and appends them in batches. `flush()` writes what waits; `close()`
 * flushes and stops the timers. A crash loses at most the entries not yet flushed.
 * Reads go newest first, page by page, so their memory does not depend on the log's size.
 */
export class ChroniclesRecorder {
  private pending = new Map<string, Pending[]>();
  private pendingCount = 0;
  /** A background flush is queued or running: the next one starts when it ends, with everything recorded meanwhile. */
  private backgroundFlush = false;
  private timer: NodeJS.Timeout | undefined;
  /** The pause before the next retry while appends fail; 0 while they succeed. */
  private retryMs = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly counts = new Map<string, number>();
  private readonly graphs = new Set<string>(); // applications whose stored graph is known to exist
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly maxPending: number;
  private readonly onDrop: (total: number, since: number) => void;
  private droppedTotal = 0;
  private droppedReported = 0;
  private lastDropReport = -Infinity;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number | undefined;
  private readonly maxFieldBytes: number;
  private readonly now: () => number;
  private readonly onError: (error: Error) => void;
  private readonly secrets: () => Promise<readonly string[]>;
  private readonly owner: ChroniclesDeps['owner'];
  private discardedTotal = 0;

  constructor(
    private readonly storage: Storage,
    options: ChroniclesOptions = {},
    deps: ChroniclesDeps = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 200;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxPending = Math.max(1, options.maxPending ?? 10_000);
    this.onDrop = options.onDrop ?? (() => undefined);
    this.maxEntries = options.retention?.maxEntries ?? 10_000;
    this.maxAgeMs = options.retention?.maxAgeMs;
    this.maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    this.secrets = deps.secrets ?? (async () => []);
    this.owner = deps.owner;
    if (this.maxAgeMs !== undefined) {
      this.sweeper = setInterval(() => this.sweep().catch(this.onError), Math.min(60_000, Math.max(1000, this.maxAgeMs / 10)));
      this.sweeper.unref();
    }
  }

  /**
   * Queues one entry; never throws and never waits. Its fields are bounded at once (so a huge answer is not held
   * until the flush); `secrets` (the request's own credentials) are scrubbed with every stored secret at the flush.
   */
  record(entry: ChronicleEntry, secrets: readonly string[] = []): void {
    if (this.pendingCount >= this.maxPending) {
      this.droppedTotal++;
      this.reportDrops();
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
    const list = this.pending.get(entry.application) ?? [];
    list.push({ json: bounded.json, timestamp: entry.timestamp, toolCalls: entry.tool_invocations.length > 0, sizes: bounded.sizes, secrets });
    this.pending.set(entry.application, list);
    this.pendingCount++;
    this.schedule();
  }

  /**
   * Starts or arms the next background flush for what waits. While one runs, nothing: its end calls this again.
   * While appends fail, kept entries wait for the retry timer rather than a flush per request.
   */
  private schedule(): void {
    if (this.backgroundFlush || this.pendingCount === 0) return;
    if (this.pendingCount >= this.maxBatch && this.retryMs === 0) this.flushInBackground();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flushInBackground(), this.retryMs || this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Entries waiting to be written. */
  get queued(): number {
    return this.pendingCount;
  }

  /** Entries discarded at a flush because their application had been deleted (or re-created) since they began. */
  get discarded(): number {
    return this.discardedTotal;
  }

  /** Entries dropped so far because the buffer was full while appends failed. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Tells `onDrop` about new drops, at most every 10 s. */
  private reportDrops(): void {
    const now = this.now();
    if (this.droppedTotal === this.droppedReported || now - this.lastDropReport < 10_000) return;
    this.lastDropReport = now;
    const since = this.droppedTotal - this.droppedReported;
    this.droppedReported = this.droppedTotal;
    this.onDrop(this.droppedTotal, since);
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
    const batch = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    return this.enqueue(async () => {
      let failure: unknown;
      let known: readonly string[] | undefined;
      try {
        known = await this.secrets();
      } catch (error) {
        failure = error;
      }
      for (const [application, items] of batch) {
        let entries: FinishedEntry[] | undefined;
        try {
          if (known === undefined) throw failure;
          // One scrubber per set of request credentials in the batch (usually one per developer key), each with every stored secret.
          const scrubbers = new Map<string, SecretScrubber>();
          const scrubberOf = (secrets: readonly string[]): SecretScrubber => {
            const id = secrets.join('\u0000');
            let scrubber = scrubbers.get(id);
            if (!scrubber) scrubbers.set(id, (scrubber = secretScrubber([...known!, ...secrets])));
            return scrubber;
          };
          entries = items.map(
            (item): FinishedEntry =>
              item.finished ?? {
                text: finishEntryText(item.json, item.sizes, this.maxFieldBytes, scrubberOf(item.secrets)),
                timestamp: item.timestamp,
                toolCalls: item.toolCalls,
              },
          );
          if (this.owner) {
            const owner = await this.owner(application);
            const current = owner ? entries.filter((entry) => entry.timestamp >= owner.since) : [];
            this.discardedTotal += entries.length - current.length;
            if (!owner || current.length === 0 || !(await this.storage.appendJson(chroniclesLog(application), current.map((entry) => entry.text), owner.guard))) {
              if (owner && current.length > 0) this.discardedTotal += current.length;
              continue;
            }
            await this.afterAppend(application, current, owner.guard).catch((error: unknown) => (failure ??= error));
            continue;
          }
          await this.storage.appendJson(chroniclesLog(application), entries.map((entry) => entry.text));
        } catch (error) {
          // Put back what is ready to write (finished entries need no second pass).
          const finished = entries;
          let back = finished ? items.map((item, index): Pending => ({ ...item, finished: finished[index] })) : items;
          // Entries recorded while this batch was in flight count too: beyond maxPending, the oldest are dropped.
          const room = Math.max(0, this.maxPending - this.pendingCount);
          if (back.length > room) {
            this.droppedTotal += back.length - room;
            back = back.slice(back.length - room);
            this.reportDrops();
          }
          this.pending.set(application, [...back, ...(this.pending.get(application) ?? [])]);
          this.pendingCount += back.length;
          failure ??= error;
          continue;
        }
        // The entries are written: a failure from here on (graph, retention) is reported, and the other applications still flush.
        await this.afterAppend(application, entries).catch((error: unknown) => (failure ??= error));
      }
      if (failure === undefined) {
        this.retryMs = 0;
        return;
      }
      // Kept entries are retried by themselves (backing off), so they are written once storage is back even if no request comes.
      this.retryMs = Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, this.retryMs * 2));
      if (!this.timer) {
        this.timer = setTimeout(() => this.flushInBackground(), this.retryMs);
        this.timer.unref();
      }
      throw failure;
    });
  }

  /** Updates the usage graph and keeps the log within retention after `entries` were appended. Runs in the queue. */
  private async afterAppend(application: string, entries: FinishedEntry[], guard?: WriteGuard): Promise<void> {
    await this.updateGraph(application, entries, guard);
    if (this.storage.shared) {
      // Other replicas append to this log too, unseen by a count kept here: trim after every batch (on PostgreSQL one
      // indexed range delete of what is past maxEntries), so the bound holds whatever the number of replicas.
      await this.trim(application);
      return;
    }
    const count = this.counts.get(application);
    if (count === undefined) {
      // First append of this process: bring a log written earlier (maybe under a larger limit) within retention.
      await this.trim(application);
      return;
    }
    this.counts.set(application, count + entries.length);
    // Trim with maxEntries of slack (at least 100), so a full log is rewritten once per maxEntries appends, not on every
    // flush: each append then pays for copying about one kept entry. Reads cut to maxEntries.
    if (count + entries.length > this.maxEntries + Math.max(100, this.maxEntries)) await this.trim(application);
  }

  /**
   * The retained entries of an application, newest first, read from the log a few at a time: at most
   * `maxEntries`, none older than `maxAgeMs`. `from` (a position from an earlier read) starts there, inclusive;
   * `skipped` is how many entries that earlier read had passed. Throws `cursor_invalid` when `from` is no longer
   * a record's position (the log was trimmed since).
   */
  async *newestFirst(application: string, from?: number, skipped = 0, match?: EntryMatch): AsyncGenerator<RetainedEntry> {
    if (match !== undefined && this.indexed(match)) {
      yield* this.newestMatching(application, match, from, skipped);
      return;
    }
    await this.flush();
    const cutoff = this.maxAgeMs === undefined ? undefined : this.now() - this.maxAgeMs;
    let index = skipped;
    for await (const record of newestRecords<ChronicleEntry>(this.storage, chroniclesLog(application), from)) {
      if (index >= this.maxEntries) return;
      if (cutoff === undefined || Date.parse(record.value.timestamp) >= cutoff) yield { ...record, index };
      index++;
    }
  }

  /**
   * Whether {@link newestFirst} answers `match` through the adapter's indexed read (then it yields only matching
   * entries, and a cursor's own entry only if it matches).
   */
  indexed(match: EntryMatch): boolean {
    return this.storage.matchesLogs && Object.values(match).some((value) => value !== undefined);
  }

  /** The retained entries matching `match`, newest first, read on the adapter's indexes within the newest `maxEntries`. */
  private async *newestMatching(application: string, match: EntryMatch, from?: number, skipped = 0): AsyncGenerator<RetainedEntry> {
    await this.flush();
    const cutoff = this.maxAgeMs === undefined ? undefined : this.now() - this.maxAgeMs;
    const fields = Object.fromEntries(Object.entries(match).filter(([, value]) => value !== undefined)) as Record<string, string | number>;
    let next = from;
    let index = skipped;
    for (;;) {
      const page = await this.storage.readLogMatching<ChronicleEntry>(chroniclesLog(application), { from: next, limit: READ_BATCH, match: fields, window: this.maxEntries });
      if (page === undefined) throw new StalePositionError();
      for (const record of page.records) {
        if (cutoff === undefined || Date.parse(record.value.timestamp) >= cutoff) yield { ...record, index };
        index++;
      }
      if (page.next === undefined) return;
      next = page.next;
    }
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
    if (this.storage.countsAtomically) return graphFromCounts(await this.storage.readCounts(usageGraphKey(application)));
    let graph: UsageGraph | undefined;
    await this.enqueue(async () => {
      graph = await this.loadGraph(application, false);
    });
    return graph!;
  }

  /** Deletes an application's log and graph (when the application is deleted). */
  async forget(application: string): Promise<void> {
    await this.flush();
    await this.enqueue(async () => {
      if (this.storage.countsAtomically) await this.storage.deleteCounts(usageGraphKey(application));
      else await this.storage.delete(usageGraphKey(application));
      await this.storage.deleteLog(chroniclesLog(application));
      this.counts.delete(application);
      this.graphs.delete(application);
    });
  }

  /** Runs the age sweep now (it also runs on a timer when `maxAgeMs` is set): drops entries older than `maxAgeMs`. */
  sweep(): Promise<void> {
    return this.enqueue(() => this.sweepAge());
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

  /**
   * The stored graph, or one built from the log when there is none yet; `persist` stores that one (on the write
   * path only: a read never writes). Runs in the queue.
   */
  private async loadGraph(application: string, persist: boolean): Promise<UsageGraph> {
    const stored = await this.storage.get<UsageGraph>(usageGraphKey(application));
    if (stored) {
      this.graphs.add(application);
      return stored;
    }
    const graph = emptyGraph();
    let read = 0;
    let batch: ChronicleEntry[] = [];
    for await (const record of newestRecords<ChronicleEntry>(this.storage, chroniclesLog(application))) {
      if (read++ >= this.maxEntries) break;
      batch.push(record.value);
      if (batch.length === READ_BATCH) {
        applyToGraph(graph, batch);
        batch = [];
      }
    }
    applyToGraph(graph, batch);
    if (persist) {
      await this.storage.set(usageGraphKey(application), graph);
      this.graphs.add(application);
    }
    return graph;
  }

  /** Adds the tool calls of entries just appended to the application's graph. Runs in the queue. */
  private async updateGraph(application: string, entries: FinishedEntry[], guard?: WriteGuard): Promise<void> {
    // The graph counts the stored (scrubbed) entries' tool calls: only entries with calls are parsed back.
    const calls = entries.filter((entry) => entry.toolCalls).map((entry) => JSON.parse(entry.text) as ChronicleEntry);
    if (this.storage.countsAtomically) {
      // Replicas share the graph: one atomic addition per batch, no read-modify-write.
      if (calls.length > 0) await this.storage.addCounts(usageGraphKey(application), graphChanges(calls), MAX_GRAPH_NODES, guard);
      return;
    }
    if (calls.length === 0 && this.graphs.has(application)) return;
    const stored = await this.storage.get<UsageGraph>(usageGraphKey(application));
    if (!stored) {
      await this.loadGraph(application, true); // built from the log, which already holds these entries
      return;
    }
    this.graphs.add(application);
    if (calls.length === 0) return;
    applyToGraph(stored, calls);
    await this.storage.set(usageGraphKey(application), stored);
  }

  private async trim(application: string): Promise<void> {
    await this.storage.trimLog(chroniclesLog(application), this.maxEntries);
    this.counts.set(application, this.maxEntries);
  }

  /**
   * Drops entries older than `maxAgeMs`: counts the fresh ones newest first and stops at the first stale one; then drops
   * that one and all before it by position where the adapter can (so entries another replica appended meanwhile are
   * kept), else trims to the count.
   */
  private async sweepAge(): Promise<void> {
    if (this.maxAgeMs === undefined) return;
    const cutoff = this.now() - this.maxAgeMs;
    for (const log of await this.storage.listLogs(chroniclesLog(''))) {
      let fresh = 0;
      let stale: number | undefined;
      for await (const record of newestRecords<ChronicleEntry>(this.storage, log)) {
        if (Date.parse(record.value.timestamp) < cutoff) {
          stale = record.position;
          break;
        }
        fresh++;
      }
      if (stale === undefined) continue;
      if (!(await this.storage.trimLogBefore(log, stale))) await this.storage.trimLog(log, fresh);
      this.counts.set(log.slice(chroniclesLog('').length), fresh);
    }
  }
}

