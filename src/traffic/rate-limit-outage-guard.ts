// Runs the shared rate limiter's Redis commands: waits for the first connection, notices outages (one warning each), and answers fail open or closed.
import type { Redis } from 'ioredis';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { firstConnection } from '../redis/redis-client.js';
import { RedisOutageNotice } from '../redis/redis-outage-notice.js';

/** The outcome counts the guard adds to (the limiter's stats). */
export interface OutageCounts {
  /** Requests admitted without a check because Redis was unreachable (failure mode `open`). */
  failedOpen: number;
  /** Requests refused with 503 because Redis was unreachable (failure mode `closed`). */
  failedClosed: number;
}

/**
 * The Redis link of the shared rate limiter. A command that fails, finds the connection not ready or does not answer
 * in time resolves `undefined` and starts an outage, logged once, until a command is answered again. (A connection
 * that stops answering is replaced by the shared client itself: see `createRedisClient`.)
 */
export class RateLimitOutageGuard {
  private connected = false;
  private lastError = '';
  private readonly outage: RedisOutageNotice;

  constructor(
    private readonly client: Redis,
    private readonly connectTimeoutMs: number,
    private readonly failClosed: boolean,
    private readonly counts: OutageCounts,
    logger?: GatewayLogger,
  ) {
    this.outage = new RedisOutageNotice(logger, {
      down: (error) => [`shared rate limits are unavailable (Redis: ${error.message}); requests are ${failClosed ? 'refused with 503' : 'admitted unchecked'} until Redis answers`],
      up: 'shared rate limits work again: Redis answers',
    });
  }

  /** Whether Redis is in an outage (the last command failed). */
  get failing(): boolean {
    return this.outage.failing;
  }

  /** Runs a command, or resolves undefined when Redis is not ready or does not answer in time. */
  async call<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!this.connected) {
      await firstConnection(this.client, this.connectTimeoutMs);
      this.connected = true;
    }
    if (this.client.status !== 'ready') return this.failed(new Error(`the connection is ${this.client.status}`));
    try {
      const result = await command();
      this.outage.recovered();
      return result;
    } catch (error) {
      return this.failed(error as Error);
    }
  }

  /** Starts (or continues) an outage for `error`: warns once per outage; always `undefined`, as a failed command answers. */
  failed(error: Error): undefined {
    this.outage.failed(error);
    this.lastError = error.message;
    return undefined;
  }

  /** Counts a request of `route` that Redis could not check: it returns when the request is admitted unchecked (fail open), and throws a 503 (fail closed). */
  unavailable(route: string): void {
    if (this.failClosed) {
      this.counts.failedClosed++;
      throw Errors.rateLimiterUnavailable([route, this.lastError]);
    }
    this.counts.failedOpen++;
  }
}
