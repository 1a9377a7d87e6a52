// Per-route rate limits: the common interface, and the in-process one (a sliding-window log per route, no timers, excess refused at once).

/** One slot taken from a route's budget. */
export interface RouteSlot {
  /**
   * Gives the slot back, as if the request had never been admitted (a later limit refused it): the route's window
   * no longer counts it. Calling it again does nothing.
   */
  release(): void;
}

/** The slot of a request admitted without a limiter to give back to (no rate, or a shared limiter failing open). */
export const UNCOUNTED_SLOT: RouteSlot = { release() {} };

/**
 * Per-route rate limits, in process ({@link MemoryRouteRateLimits}) or shared by replicas through Redis
 * (`RedisRouteRateLimits`). Interchangeable: the rate limiter router only calls `take` (and a slot's `release`).
 */
export interface RouteRateLimits {
  /** Takes one slot of the route's budget; resolves false when the budget of the current interval is spent. */
  take(route: string, rate: number): Promise<RouteSlot | false>;
  /** Forgets the limiter of `route`, if any (its route was deleted or its settings changed). */
  release(route: string): void;
  /** How many route limiters this gateway holds. */
  readonly size: number;
  /** What is left of the route's budget in the current interval, or undefined without a limiter. */
  remaining(route: string): Promise<number | undefined>;
  /** Stops timers and connections. */
  close(): Promise<void>;
}

/**
 * The limiter's budget for a rate in requests per second, fractions kept: at most `amount` requests in any
 * `intervalMs`, with `amount` the whole part of the rate (at least 1) and the interval stretched to match
 * (5 → 5 per 1000 ms, 1.9 → 1 per 526 ms, 2.5 → 2 per 800 ms, 0.5 → 1 per 2000 ms).
 */
export function reservoirFor(rate: number): { amount: number; intervalMs: number } {
  const amount = Math.max(1, Math.floor(rate));
  return { amount, intervalMs: Math.max(1, Math.round((amount * 1000) / rate)) };
}

interface RouteWindow {
  rate: number;
  amount: number;
  intervalMs: number;
  /** Admission times (ms), oldest first; never more than `amount`. */
  admitted: number[];
}

/**
 * In-process route rate limits: a sliding-window log per route, the same rule as the Redis limiter. A request is
 * admitted when fewer than `amount` were admitted in the last `intervalMs`, and refused at once otherwise: nothing
 * queues and no timer runs, so a route's limiter costs one short array and is dropped with {@link release}.
 */
export class MemoryRouteRateLimits implements RouteRateLimits {
  private readonly windows = new Map<string, RouteWindow>();

  /** @param now the clock in ms (monotonic by default), injectable for tests. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes one slot of the route's budget; resolves false when `amount` were admitted in the last `intervalMs`. */
  async take(route: string, rate: number): Promise<RouteSlot | false> {
    const window = this.windowFor(route, rate);
    const now = this.now();
    this.expire(window, now);
    if (window.admitted.length >= window.amount) return false;
    window.admitted.push(now);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        // Admissions of one time are alike: any one of them stands for this one.
        const at = window.admitted.indexOf(now);
        if (at >= 0) window.admitted.splice(at, 1);
      },
    };
  }

  private windowFor(route: string, rate: number): RouteWindow {
    const existing = this.windows.get(route);
    if (existing?.rate === rate) return existing;
    const window: RouteWindow = { rate, ...reservoirFor(rate), admitted: [] };
    this.windows.set(route, window);
    return window;
  }

  private expire(window: RouteWindow, now: number): void {
    let stale = 0;
    while (stale < window.admitted.length && window.admitted[stale]! <= now - window.intervalMs) stale++;
    if (stale > 0) window.admitted.splice(0, stale);
  }

  /** Forgets the limiter of `route`, if any (its route was deleted or its settings changed). */
  release(route: string): void {
    this.windows.delete(route);
  }

  /** How many route limiters this gateway holds. */
  get size(): number {
    return this.windows.size;
  }

  /** What is left of the route's budget in the current window, or undefined without a limiter. */
  async remaining(route: string): Promise<number | undefined> {
    const window = this.windows.get(route);
    if (!window) return undefined;
    this.expire(window, this.now());
    return window.amount - window.admitted.length;
  }

  /** Nothing to stop: the in-process limiter holds no timer. */
  async close(): Promise<void> {
    this.windows.clear();
  }
}
