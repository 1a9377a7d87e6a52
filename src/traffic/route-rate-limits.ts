// Per-route rate limits: the common interface, and the in-process one on bottleneck (a reservoir refilled every interval, no queue, so excess is refused at once).
import Bottleneck from 'bottleneck';

/**
 * Per-route rate limits, in process ({@link MemoryRouteRateLimits}) or shared by replicas through Redis
 * (`RedisRouteRateLimits`). Interchangeable: the rate limiter router only calls `take`.
 */
export interface RouteRateLimits {
  /** Takes one slot of the route's budget; resolves false when the budget of the current interval is spent. */
  take(route: string, rate: number): Promise<boolean>;
  /** Forgets the limiter of `route`, if any (its route was deleted or its settings changed). */
  release(route: string): void;
  /** How many route limiters this gateway holds. */
  readonly size: number;
  /** What is left of the route's budget in the current interval, or undefined without a limiter. */
  remaining(route: string): Promise<number | undefined>;
  /** Stops timers and connections. */
  close(): Promise<void>;
}

/** Extra bottleneck options for every route limiter, e.g. `{ datastore: 'ioredis', clientOptions }` to share limits across replicas. */
export type BottleneckSharedOptions = Omit<Bottleneck.ConstructorOptions, 'reservoir' | 'reservoirRefreshAmount' | 'reservoirRefreshInterval' | 'highWater' | 'strategy' | 'id'>;

interface RouteLimiter {
  rate: number;
  limiter: Bottleneck;
}

/**
 * The limiter's reservoir and refill interval for a rate in requests per second, fractions kept:
 * `amount` requests every `intervalMs`, with `amount` the whole part of the rate (at least 1) and the
 * interval stretched to match (5 → 5 per 1000 ms, 1.9 → 1 per 526 ms, 2.5 → 2 per 800 ms, 0.5 → 1 per 2000 ms).
 */
export function reservoirFor(rate: number): { amount: number; intervalMs: number } {
  const amount = Math.max(1, Math.floor(rate));
  return { amount, intervalMs: Math.max(1, Math.round((amount * 1000) / rate)) };
}

/**
 * One bottleneck limiter per route, rebuilt when the route's rate changes. With `highWater: 0` and the
 * OVERFLOW strategy a request that cannot run at once is dropped, never queued. Each limiter holds a
 * refill timer: {@link release} stops it when the route is deleted or changed, so none outlives its route.
 */
export class MemoryRouteRateLimits implements RouteRateLimits {
  private readonly limiters = new Map<string, RouteLimiter>();

  constructor(private readonly shared: BottleneckSharedOptions = {}) {}

  /** Takes one slot of the route's budget; resolves false when the budget of this second is spent. */
  async take(route: string, rate: number): Promise<boolean> {
    const limiter = this.limiterFor(route, rate);
    try {
      await limiter.schedule({ expiration: 1000 }, async () => undefined);
      return true;
    } catch (error) {
      if (error instanceof Bottleneck.BottleneckError) return false;
      throw error;
    }
  }

  private limiterFor(route: string, rate: number): Bottleneck {
    const existing = this.limiters.get(route);
    if (existing?.rate === rate) return existing.limiter;
    if (existing) this.release(route);
    const { amount, intervalMs } = reservoirFor(rate);
    const limiter = new Bottleneck({
      ...this.shared,
      id: `gateway-route:${route}`,
      reservoir: amount,
      reservoirRefreshAmount: amount,
      reservoirRefreshInterval: intervalMs,
      highWater: 0,
      strategy: Bottleneck.strategy.OVERFLOW,
    });
    limiter.on('error', () => undefined);
    this.limiters.set(route, { rate, limiter });
    return limiter;
  }

  /** Stops and forgets the limiter of `route`, if any (its route was deleted or its settings changed). */
  release(route: string): void {
    const existing = this.limiters.get(route);
    if (!existing) return;
    this.limiters.delete(route);
    existing.limiter.disconnect().catch(() => undefined);
  }

  /** How many route limiters are live (each with its refill timer). */
  get size(): number {
    return this.limiters.size;
  }

  /** What is left of the route's budget until the next refill, or undefined without a limiter. */
  async remaining(route: string): Promise<number | undefined> {
    const reservoir = await this.limiters.get(route)?.limiter.currentReservoir();
    return reservoir ?? undefined;
  }

  /** Stops every limiter's timers. */
  async close(): Promise<void> {
    await Promise.all([...this.limiters.values()].map(({ limiter }) => limiter.disconnect()));
    this.limiters.clear();
  }
}
