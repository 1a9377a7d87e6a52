// Options of the Chronicles recorder: batching, buffer bounds, field caps, retention, and what it needs from the gateway.
import type { WriteGuard } from '../storage/storage-adapter.js';

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
