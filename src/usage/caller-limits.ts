// Requests and tokens per minute of one developer key or application: the route limiter's sliding-window log, with weights.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { firstConnection, readyConnection } from '../redis/redis-client.js';
import { RedisOutageNotice } from '../redis/redis-outage-notice.js';
import { RELEASE_SCRIPT, WINDOW_SCRIPT } from './caller-limit-scripts.js';

/** The answer of a check: admitted or not, what is left, and when the window is whole again (ms from now). */
export interface WindowState {
  admitted: boolean;
  remaining: number;
  resetMs: number;
  /** Set when the take logged a weight: takes it out again (the request was refused by another limit after all). */
  release?: () => Promise<void>;
}

/**
 * Sliding-window logs of weighted entries, one per key (`key:<id>:requests`, `application:<name>:tokens`, …).
 * `take` admits while the weights of the last `windowMs` sum below `limit`, and logs `weight` when it admits
 * (1 for a request; 0 for tokens, whose count is known only after the answer and logged with `add`).
 */
export interface CallerLimits {
  take(key: string, limit: number, windowMs: number, weight: number): Promise<WindowState>;
  add(key: string, windowMs: number, weight: number): Promise<void>;
  /** Drops the windows held in process whose key `owns` matches (a deleted application's or a revoked key's). */
  forget(owns: (key: string) => boolean): void;
}

interface Window {
  times: number[];
  weights: number[];
  sum: number;
  windowMs: number;
}

/** The in-process limits look for idle windows to drop once they hold this many (then twice what is left). */
const SWEEP_FROM = 1024;

/** When the window's sum falls below `limit` (rejected) or to nothing (admitted), in ms from `now`. */
function resetOf(window: Window, limit: number, windowMs: number, now: number): number {
  if (window.times.length === 0) return 0;
  if (window.sum < limit) return Math.max(0, window.times[window.times.length - 1]! + windowMs - now);
  let left = window.sum;
  for (let index = 0; index < window.times.length; index++) {
    left -= window.weights[index]!;
    if (left < limit) return Math.max(0, window.times[index]! + windowMs - now);
  }
  return windowMs;
}

/**
 * In-process caller limits: the same rule as {@link MemoryRouteRateLimits} (a log of admissions, nothing queued,
 * no timer), with a weight per admission so one log counts tokens as well as requests.
 */
export class MemoryCallerLimits implements CallerLimits {
  private readonly windows = new Map<string, Window>();
  private sweepAt = SWEEP_FROM;

  /** @param now the clock in ms (monotonic by default), injectable for tests. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  private windowOf(key: string, windowMs: number, now: number): Window {
    let window = this.windows.get(key);
    if (!window) {
      if (this.windows.size >= this.sweepAt) this.sweep(now);
      window = { times: [], weights: [], sum: 0, windowMs };
      this.windows.set(key, window);
      return window;
    }
    let stale = 0;
    while (stale < window.times.length && window.times[stale]! <= now - windowMs) window.sum -= window.weights[stale++]!;
    if (stale > 0) {
      window.times.splice(0, stale);
      window.weights.splice(0, stale);
    }
    return window;
  }

  async take(key: string, limit: number, windowMs: number, weight: number): Promise<WindowState> {
    const now = this.now();
    const window = this.windowOf(key, windowMs, now);
    if (window.sum >= limit) return { admitted: false, remaining: 0, resetMs: resetOf(window, limit, windowMs, now) };
    const state: WindowState = { admitted: true, remaining: 0, resetMs: 0 };
    if (weight > 0) {
      this.push(window, now, weight);
      state.release = async () => this.pull(window, now, weight);
    }
    state.remaining = Math.max(0, limit - window.sum);
    state.resetMs = resetOf(window, limit, windowMs, now);
    return state;
  }

  async add(key: string, windowMs: number, weight: number): Promise<void> {
    if (weight > 0) this.push(this.windowOf(key, windowMs, this.now()), this.now(), weight);
  }

  forget(owns: (key: string) => boolean): void {
    for (const key of this.windows.keys()) if (owns(key)) this.windows.delete(key);
  }

  /**
   * Drops the windows with nothing in the last window (keys and applications idle for a minute, deleted ones, old
   * incarnations), so the map holds the keys in use: amortised, as it runs when the map has doubled since the last sweep.
   */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      const newest = window.times[window.times.length - 1];
      if (newest === undefined || newest <= now - window.windowMs) this.windows.delete(key);
    }
    this.sweepAt = Math.max(SWEEP_FROM, this.windows.size * 2);
  }

  private push(window: Window, now: number, weight: number): void {
    window.times.push(now);
    window.weights.push(weight);
    window.sum += weight;
  }

  /** Takes out one entry logged at `time` with `weight`, unless it has left the window already. */
  private pull(window: Window, time: number, weight: number): void {
    for (let index = window.times.length - 1; index >= 0 && window.times[index]! >= time; index--) {
      if (window.times[index] !== time || window.weights[index] !== weight) continue;
      window.times.splice(index, 1);
      window.weights.splice(index, 1);
      window.sum -= weight;
      return;
    }
  }

  /** How many keys hold a log. */
  get size(): number {
    return this.windows.size;
  }
}

interface ScriptedRedis {
  gatewayCallerWindow(key: string, sumKey: string, limit: number, windowMs: number, member: string, weight: number, op: 'take' | 'add'): Promise<[number, number, number]>;
  gatewayCallerRelease(key: string, sumKey: string, member: string, weight: number): Promise<number>;
}

/**
 * Caller limits that every gateway on one Redis enforces together: the log of {@link MemoryCallerLimits} in a sorted
 * set, checked and written by one Lua script (one round trip). While Redis cannot be reached, the in-process limits
 * answer (one warning per outage): a per-key limit is never weaker than one replica's share.
 */
export class RedisCallerLimits implements CallerLimits {
  private readonly prefix: string;
  private readonly connectTimeoutMs: number;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  private readonly local = new MemoryCallerLimits();
  private readonly outage: RedisOutageNotice;

  constructor(
    private readonly client: Redis,
    options: { keyPrefix?: string; connectTimeoutMs?: number } = {},
    logger?: GatewayLogger,
  ) {
    this.outage = new RedisOutageNotice(logger, {
      down: (error) => ['shared key and application limits are unavailable (Redis); this process limits on its own until Redis answers', { error: error.message }],
      up: 'shared key and application limits work again: Redis answers',
    });
    this.prefix = `${options.keyPrefix ?? 'gateway:'}limit:`;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    client.defineCommand('gatewayCallerWindow', { numberOfKeys: 2, lua: WINDOW_SCRIPT });
    client.defineCommand('gatewayCallerRelease', { numberOfKeys: 2, lua: RELEASE_SCRIPT });
    void firstConnection(client, this.connectTimeoutMs);
  }

  private async run(key: string, limit: number, windowMs: number, weight: number, op: 'take' | 'add'): Promise<WindowState | undefined> {
    try {
      // Requests of the first moments after start wait for the first connection attempt, as route rate limits do.
      await readyConnection(this.client, this.connectTimeoutMs);
      const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
      const logged = Math.max(0, Math.round(weight));
      const scripted = this.client as unknown as ScriptedRedis;
      const [window, sum] = [this.prefix + key, `${this.prefix + key}:sum`];
      const [admitted, remaining, resetMs] = await scripted.gatewayCallerWindow(window, sum, limit, windowMs, member, logged, op);
      this.outage.recovered();
      const state: WindowState = { admitted: admitted === 1, remaining, resetMs };
      // The script logged the member as `<member>:<weight>`; a failed removal leaves it to leave the window in time.
      if (admitted === 1 && logged > 0) state.release = () => scripted.gatewayCallerRelease(window, sum, `${member}:${logged}`, logged).then(() => undefined, () => undefined);
      return state;
    } catch (error) {
      this.outage.failed(error);
      return undefined;
    }
  }

  async take(key: string, limit: number, windowMs: number, weight: number): Promise<WindowState> {
    return (await this.run(key, limit, windowMs, weight, 'take')) ?? this.local.take(key, limit, windowMs, weight);
  }

  async add(key: string, windowMs: number, weight: number): Promise<void> {
    if (weight <= 0) return;
    if ((await this.run(key, Number.MAX_SAFE_INTEGER, windowMs, weight, 'add')) === undefined) await this.local.add(key, windowMs, weight);
  }

  /** Drops the fallback windows; the shared ones expire a window after their last entry. */
  forget(owns: (key: string) => boolean): void {
    this.local.forget(owns);
  }
}
