// Per-route rate limits on bottleneck: a reservoir refilled every second, and no queue, so excess is refused at once.
import Bottleneck from 'bottleneck';

/** Extra bottleneck options for every route limiter, e.g. `{ datastore: 'ioredis', clientOptions }` to share limits across replicas. */
export type BottleneckSharedOptions = Omit<Bottleneck.ConstructorOptions, 'reservoir' | 'reservoirRefreshAmount' | 'reservoirRefreshInterval' | 'highWater' | 'strategy' | 'id'>;

interface RouteLimiter {
  rate: number;
  limiter: Bottleneck;
}

/** The limiter's reservoir and refill interval for a rate in requests per second (fractions allowed). */
export function reservoirFor(rate: number): { amount: number; intervalMs: number } {
  return rate >= 1 ? { amount: Math.floor(rate), intervalMs: 1000 } : { amount: 1, intervalMs: Math.round(1000 / rate) };
}

/**
 * One bottleneck limiter per route, rebuilt when the route's rate changes. With `highWater: 0` and the
 * OVERFLOW strategy a request that cannot run at once is dropped, never queued.
 */
export class RouteRateLimits {
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
    if (existing) existing.limiter.disconnect().catch(() => undefined);
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

  /** Stops every limiter's timers. */
  async close(): Promise<void> {
    await Promise.all([...this.limiters.values()].map(({ limiter }) => limiter.disconnect()));
    this.limiters.clear();
  }
}
