// Coalesces concurrent cache misses of one key within one process: the first goes upstream, the others wait for its stored answer.
import { Errors } from '../errors/error-registry.js';
import type { UpstreamSignal } from '../traffic/attempt-timer.js';

/** Options of miss coalescing (`createGateway({ cache: { coalescing } })`). */
export interface MissCoalescingOptions {
  /** How long a follower waits for the leader, in ms. Default: the route's `timeout_ms`, else the gateway's `upstreamTimeoutMs`. */
  waitMs?: number;
  /** Keys in flight at once (each with a leader upstream); a miss beyond it goes upstream alone. Default 10,000. */
  maxKeys?: number;
  /** Followers waiting on one key; one beyond it goes upstream alone. Default 1,000. */
  maxFollowersPerKey?: number;
}

/** Default bound of keys in flight. */
export const DEFAULT_COALESCING_KEYS = 10_000;
/** Default bound of followers waiting on one key. */
export const DEFAULT_COALESCING_FOLLOWERS = 1_000;

/**
 * How a follower's wait ended: `stored` (the leader's answer is in the cache), `unstored` (the leader's answer was not
 * stored: an error, a cut stream, a rejection, a client that left), `timeout` (waited its time out) or `left` (its own
 * client disconnected).
 */
export type FollowOutcome = 'stored' | 'unstored' | 'timeout' | 'left';

/** The leader's hold on its key: `settle` once its answer is stored (true) or will not be (false); later calls do nothing. */
export interface Leadership {
  settle(stored: boolean): void;
}

/**
 * The keys whose misses are in flight, each with the followers waiting on it. A request that misses calls
 * {@link MissCoalescer.follow} first; when that gives no wait, {@link MissCoalescer.lead}. Every follower is removed
 * from its key when its wait ends, however it ends (settled, timed out, its client gone), and a key when its leader
 * settles, so nothing is kept past a request's end. Timers are unref'd.
 * @example
 * const wait = coalescer.follow(key, context.abort, 60_000);
 * if (wait) outcome = await wait; // then answer from the cache, or go upstream
 * else coalescer.lead(key)?.settle(stored);
 */
export class MissCoalescer {
  private readonly flights = new Map<string, Set<(stored: boolean) => void>>();
  private followers = 0;
  private readonly maxKeys: number;
  private readonly maxFollowersPerKey: number;
  /** The fixed wait of every follower, when set. */
  readonly waitMs: number | undefined;

  /** Throws `config_invalid` for a `waitMs`, `maxKeys` or `maxFollowersPerKey` that is not a positive integer. */
  constructor(options: MissCoalescingOptions = {}) {
    this.maxKeys = options.maxKeys ?? DEFAULT_COALESCING_KEYS;
    this.maxFollowersPerKey = options.maxFollowersPerKey ?? DEFAULT_COALESCING_FOLLOWERS;
    this.waitMs = options.waitMs;
    for (const [name, value] of [['waitMs', this.waitMs ?? 1], ['maxKeys', this.maxKeys], ['maxFollowersPerKey', this.maxFollowersPerKey]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) throw Errors.configInvalid([`cache.coalescing.${name} must be a positive integer`]);
    }
  }

  /** Keys with a leader in flight. */
  get keys(): number {
    return this.flights.size;
  }

  /** Followers waiting, over all keys. */
  get waiting(): number {
    return this.followers;
  }

  /**
   * Takes the lead on `key`: undefined when it has a leader already or `maxKeys` are in flight (then the caller goes
   * upstream alone). The leader must settle, whatever happens to its request.
   */
  lead(key: string): Leadership | undefined {
    if (this.flights.has(key) || this.flights.size >= this.maxKeys) return undefined;
    const waiting = new Set<(stored: boolean) => void>();
    this.flights.set(key, waiting);
    let settled = false;
    return {
      settle: (stored) => {
        if (settled) return;
        settled = true;
        this.flights.delete(key);
        for (const wake of [...waiting]) wake(stored);
      },
    };
  }

  /**
   * Waits on `key`'s leader, for at most `waitMs` and while `abort` has not turned: undefined when the key has no
   * leader, has `maxFollowersPerKey` followers already, or the client has left.
   */
  follow(key: string, abort: UpstreamSignal, waitMs: number): Promise<FollowOutcome> | undefined {
    const waiting = this.flights.get(key);
    if (!waiting || waiting.size >= this.maxFollowersPerKey || abort.aborted) return undefined;
    return new Promise<FollowOutcome>((resolve) => {
      const end = (outcome: FollowOutcome): void => {
        if (!waiting.delete(wake)) return;
        this.followers -= 1;
        clearTimeout(timer);
        abort.removeListener('abort', left);
        resolve(outcome);
      };
      const wake = (stored: boolean): void => end(stored ? 'stored' : 'unstored');
      const left = (): void => end('left');
      const timer = setTimeout(() => end('timeout'), waitMs);
      timer.unref();
      waiting.add(wake);
      this.followers += 1;
      abort.once('abort', left);
    });
  }
}
