// Route rate limits shared by replicas: a sliding-window log per route in Redis, checked and taken by one atomic Lua script.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { firstConnection } from '../redis/redis-client.js';
import type { GatewayRedisOptions } from '../redis/redis-options.js';
import { reservoirFor, type RouteRateLimits } from './route-rate-limits.js';

/**
 * KEYS[1]: the route's log (a sorted set of admissions scored by Redis time in ms). ARGV: amount, interval ms,
 * a unique member, and 1 to take a slot or 0 to only count. Drops admissions older than the interval, then
 * admits when fewer than `amount` remain. Redis's own clock is used, so replicas' clocks do not matter.
 * Returns {admitted (1/0), slots left}.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local amount = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - interval)
local used = redis.call('ZCARD', KEYS[1])
if ARGV[4] == '1' and used < amount then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], interval)
  return {1, amount - used - 1}
end
return {0, math.max(0, amount - used)}
`;

interface ScriptedRedis {
  gatewayRateTake(key: string, amount: number, intervalMs: number, member: string, take: '1' | '0'): Promise<[number, number]>;
}

/** How often the shared limiter could not reach Redis, by outcome. */
export interface RedisRateLimitStats {
  /** Requests admitted without a check because Redis was unreachable (failure mode `open`). */
  failedOpen: number;
  /** Requests refused with 503 because Redis was unreachable (failure mode `closed`). */
  failedClosed: number;
}

/**
 * Route rate limits that N gateways sharing one Redis (and key prefix) enforce together: a route with rate R
 * admits at most `amount` requests in any `intervalMs` ({@link reservoirFor}: 5 → 5 per 1000 ms, 1.9 → 1 per 526 ms),
 * counted over all replicas. One round trip per request. While Redis is unreachable or slower than the command
 * timeout, requests fail open (admitted, one warning per outage) or closed (503), never wait for it.
 */
export class RedisRouteRateLimits implements RouteRateLimits {
  private readonly routes = new Map<string, number>();
  private readonly prefix: string;
  private readonly failClosed: boolean;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  private failing = false;
  private lastError = '';
  private reconnecting = false;
  private connected = false;
  private readonly connectTimeoutMs: number;
  readonly stats: RedisRateLimitStats = { failedOpen: 0, failedClosed: 0 };

  constructor(
    private readonly client: Redis,
    options: Pick<GatewayRedisOptions, 'keyPrefix' | 'rateLimitFailure' | 'connectTimeoutMs'> = {},
    private readonly logger?: GatewayLogger,
  ) {
    this.prefix = `${options.keyPrefix ?? 'gateway:'}rate:`;
    this.failClosed = options.rateLimitFailure === 'closed';
    client.defineCommand('gatewayRateTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  }

  async take(route: string, rate: number): Promise<boolean> {
    if (this.routes.get(route) !== rate) this.routes.set(route, rate);
    const result = await this.run(route, rate, '1');
    return result === undefined ? this.unavailable(route) : result[0] === 1;
  }

  /** Runs the script, or resolves undefined when Redis is not ready or does not answer in time. */
  private async run(route: string, rate: number, take: '1' | '0'): Promise<[number, number] | undefined> {
    if (!this.connected) {
      await firstConnection(this.client, this.connectTimeoutMs);
      this.connected = true;
    }
    if (this.client.status !== 'ready') return this.failed(new Error(`the connection is ${this.client.status}`));
    const { amount, intervalMs } = reservoirFor(rate);
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    try {
      const result = await (this.client as unknown as ScriptedRedis).gatewayRateTake(this.prefix + route, amount, intervalMs, member, take);
      if (this.failing) {
        this.failing = false;
        this.logger?.info('shared rate limits work again: Redis answers');
      }
      return result;
    } catch (error) {
      // A command timeout on a live connection: reconnect, so unanswered commands do not pile up on it.
      if (/timed out/i.test((error as Error).message) && !this.reconnecting) {
        this.reconnecting = true;
        this.client.once('ready', () => (this.reconnecting = false));
        this.client.disconnect(true);
      }
      return this.failed(error as Error);
    }
  }

  private failed(error: Error): undefined {
    if (!this.failing) {
      this.failing = true;
      this.logger?.warn(`shared rate limits are unavailable (Redis: ${error.message}); requests are ${this.failClosed ? 'refused with 503' : 'admitted unchecked'} until Redis answers`);
    }
    this.lastError = error.message;
    return undefined;
  }

  private unavailable(route: string): boolean {
    if (this.failClosed) {
      this.stats.failedClosed++;
      throw Errors.rateLimiterUnavailable([route, this.lastError]);
    }
    this.stats.failedOpen++;
    return true;
  }

  /** Forgets the route locally; its log in Redis expires by itself within one interval. */
  release(route: string): void {
    this.routes.delete(route);
  }

  /** How many routes this gateway has limited since their last change (no timers are held). */
  get size(): number {
    return this.routes.size;
  }

  /** Slots left in the route's current window across all replicas, or undefined when unknown. */
  async remaining(route: string): Promise<number | undefined> {
    const rate = this.routes.get(route);
    if (rate === undefined) return undefined;
    return (await this.run(route, rate, '0'))?.[1];
  }

  /** Forgets the routes; the Redis connection belongs to its creator (createGateway closes it). */
  async close(): Promise<void> {
    this.routes.clear();
  }
}
