// Reads a storage log newest first, one page at a time, as an async sequence of records.
import type { LogRecord } from '../storage/storage-adapter.js';
import type { Storage } from '../storage/storage-facade.js';

/** Records read per storage call: a reader holds at most this many records at once. */
export const READ_BATCH = 64;

/** A position from an earlier read no longer names a record: the log was trimmed or rewritten since. */
export class StalePositionError extends Error {
  constructor() {
    super('The position no longer names a record of the log.');
  }
}

/**
 * The records of `log`, newest first, from the record at `from` (inclusive; default the newest), read
 * {@link READ_BATCH} at a time. Stop early by leaving the loop. Throws {@link StalePositionError} when `from` is
 * not a record's position.
 * @example
 * for await (const record of newestRecords<ChronicleEntry>(storage, 'chronicles/app')) if (record.value.id === id) break;
 */
export async function* newestRecords<T>(storage: Storage, log: string, from?: number): AsyncGenerator<LogRecord<T>> {
  let next = from;
  for (;;) {
    const page = await storage.readLogBackward<T>(log, { from: next, limit: READ_BATCH });
    if (page === undefined) throw new StalePositionError();
    yield* page.records;
    if (page.next === undefined) return;
    next = page.next;
  }
}
