// Reads an application's retained Chronicles entries newest first, page by page: all of them, or those matching fields on the adapter's indexes.
import type { LogRecord } from '../storage/storage-adapter.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import { chroniclesLog } from './chronicles-keys.js';
import { newestRecords, READ_BATCH, StalePositionError } from './log-pages.js';
import { ageCutoff, type RetentionLimits } from './log-retention.js';

/** Equality filters on entry fields that an adapter with indexed log reads answers itself (see `Storage.matchesLogs`). */
export type EntryMatch = Partial<{ id: string; route: string; model: string; status: number }>;

/** A retained entry read newest first, with its position in the log and how many entries were read before it. */
export interface RetainedEntry extends LogRecord<ChronicleEntry> {
  index: number;
}

/** Whether `storage` answers `match` through its indexed log read (then only matching entries are read). */
export function readsIndexed(storage: Storage, match: EntryMatch): boolean {
  return storage.matchesLogs && Object.values(match).some((value) => value !== undefined);
}

/**
 * The retained entries of `application`, newest first: at most `maxEntries`, none older than `maxAgeMs`. `from` (a
 * position from an earlier read) starts there, inclusive; `skipped` is how many entries that earlier read had
 * passed. With a `match` the adapter reads on its indexes ({@link readsIndexed}), only matching entries are yielded.
 * Throws {@link StalePositionError} when `from` is no longer a record's position (the log was trimmed since).
 */
export async function* retainedEntries(
  storage: Storage,
  limits: RetentionLimits,
  application: string,
  from?: number,
  skipped = 0,
  match?: EntryMatch,
): AsyncGenerator<RetainedEntry> {
  if (match !== undefined && readsIndexed(storage, match)) {
    yield* matchingEntries(storage, limits, application, match, from, skipped);
    return;
  }
  const cutoff = ageCutoff(limits);
  let index = skipped;
  for await (const record of newestRecords<ChronicleEntry>(storage, chroniclesLog(application), from)) {
    if (index >= limits.maxEntries) return;
    if (cutoff === undefined || Date.parse(record.value.timestamp) >= cutoff) yield { ...record, index };
    index++;
  }
}

/** The retained entries matching `match`, newest first, read on the adapter's indexes within the newest `maxEntries`. */
async function* matchingEntries(
  storage: Storage,
  limits: RetentionLimits,
  application: string,
  match: EntryMatch,
  from?: number,
  skipped = 0,
): AsyncGenerator<RetainedEntry> {
  const cutoff = ageCutoff(limits);
  const fields = Object.fromEntries(Object.entries(match).filter(([, value]) => value !== undefined)) as Record<string, string | number>;
  let next = from;
  let index = skipped;
  for (;;) {
    const page = await storage.readLogMatching<ChronicleEntry>(chroniclesLog(application), { from: next, limit: READ_BATCH, match: fields, window: limits.maxEntries });
    if (page === undefined) throw new StalePositionError();
    for (const record of page.records) {
      if (cutoff === undefined || Date.parse(record.value.timestamp) >= cutoff) yield { ...record, index };
      index++;
    }
    if (page.next === undefined) return;
    next = page.next;
  }
}
