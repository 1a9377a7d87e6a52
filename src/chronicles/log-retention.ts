// Keeps each application's Chronicles log within retention: trims by count after appends, and sweeps entries past their age.
import type { Storage } from '../storage/storage-facade.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import { chroniclesLog } from './chronicles-keys.js';
import { newestRecords } from './log-pages.js';

/** The resolved retention of every application's log, and the clock it is measured with. */
export interface RetentionLimits {
  /** Keep at most this many entries per application. */
  maxEntries: number;
  /** Drop entries older than this, in ms; `undefined`: no age limit. */
  maxAgeMs: number | undefined;
  now: () => number;
}

/** The time (epoch ms) before which an entry is past `maxAgeMs`, or `undefined` without an age limit. */
export function ageCutoff(limits: RetentionLimits): number | undefined {
  return limits.maxAgeMs === undefined ? undefined : limits.now() - limits.maxAgeMs;
}

/**
 * Trims logs to `maxEntries` and sweeps entries older than `maxAgeMs`. On a storage shared by replicas it trims after
 * every batch; otherwise it counts the entries this process appended and trims with `maxEntries` of slack.
 * The recorder runs every method in its write queue.
 */
export class LogRetention {
  /** Entries per application's log as far as this process knows (unset: not trimmed by this process yet). */
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly storage: Storage,
    private readonly limits: RetentionLimits,
  ) {}

  /** Keeps the log of `application` within retention after `appended` entries were appended to it. */
  async afterAppend(application: string, appended: number): Promise<void> {
    const { maxEntries } = this.limits;
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
    this.counts.set(application, count + appended);
    // Trim with maxEntries of slack (at least 100), so a full log is rewritten once per maxEntries appends, not on every
    // flush: each append then pays for copying about one kept entry. Reads cut to maxEntries.
    if (count + appended > maxEntries + Math.max(100, maxEntries)) await this.trim(application);
  }

  /** Forgets what is known of the log of `application` (when it was deleted). */
  forget(application: string): void {
    this.counts.delete(application);
  }

  /**
   * Drops entries older than `maxAgeMs`: counts the fresh ones newest first and stops at the first stale one; then drops
   * that one and all before it by position where the adapter can (so entries another replica appended meanwhile are
   * kept), else trims to the count.
   */
  async sweepAge(): Promise<void> {
    const cutoff = ageCutoff(this.limits);
    if (cutoff === undefined) return;
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

  private async trim(application: string): Promise<void> {
    await this.storage.trimLog(chroniclesLog(application), this.limits.maxEntries);
    this.counts.set(application, this.limits.maxEntries);
  }
}
