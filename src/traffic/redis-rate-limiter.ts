// Route rate limits shared by replicas: each replica leases slots of the route's window in Redis and admits from its lease locally.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { GatewayLogger } from '../errors/error-middleware.js';
import type { GatewayRedisOptions } from '../redis/redis-options.js';
import { LEASE_SCRIPT, SETTLE_SCRIPT, type LeaseCommands } from './rate-lease-scripts.js';
import { RateLimitOutageGuard, type OutageCounts } from './rate-limit-outage-guard.js';
import { countAdmission, newRouteState, settleLeases, slotsAhead, unusedSlots, type Lease, type RouteState, type Settle } from './rate-lease-state.js';
import { UNCOUNTED_SLOT, type RouteRateLimits, type RouteSlot } from './route-rate-limits.js';

/** How long after a slot is used its lower score is sent to Redis (batched per route), in ms. */
const SETTLE_DELAY_MS = 10;

/** How often the shared limiter could not reach Redis, by outcome, and how often it asked Redis at all. */
export interface RedisRateLimitStats extends OutageCounts {
  /** Lease requests sent to Redis (each serves every request waiting at the time, and more ahead of need). */
  leases: number;
  /** Requests admitted from a slot already leased, with no Redis round trip. */
  local: number;
}

/**
 * Route rate limits that N gateways sharing one Redis (and key prefix) enforce together: a route with rate R admits at
 * most `amount` requests in any `intervalMs` ({@link reservoirFor}: 5 → 5 per 1000 ms, 1.9 → 1 per 526 ms), counted
 * over all replicas.
 *
 * Each replica leases slots of the route's window in Redis (one atomic script) and admits from its lease with no
 * round trip. A leased slot counts in the window from its lease until `leaseMs` plus the interval have passed, so an
 * admission made with it at any time within `leaseMs` lies inside the time Redis counts it: the replicas together can
 * never admit more than `amount` in any interval. Used slots get their real (later-bounded) use time as score shortly
 * after, so they leave the window one interval after use; unused slots go back to Redis when the lease ends.
 * Requests finding no leased slot wait for one lease request shared by all waiting at the time; the slots it cannot
 * grant are refused at once (the window is full). While a route is busy, the replica leases ahead of need (at most
 * what it used in the last lease period, and at most a tenth of the budget), so the hot path makes no round trip.
 * While Redis is unreachable or slower than the command timeout, requests without a leased slot fail open (admitted,
 * one warning per outage) or closed (503), and never wait for it.
 */
export class RedisRouteRateLimits implements RouteRateLimits {
  private readonly states = new Map<string, RouteState>();
  private readonly prefix: string;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  private readonly redis: RateLimitOutageGuard;
  private readonly leaseMs: number;
  private readonly settling = new Set<Promise<unknown>>();
  readonly stats: RedisRateLimitStats = { failedOpen: 0, failedClosed: 0, leases: 0, local: 0 };

  /**
   * @param options `leaseMs`: how long a leased slot may be used (default the command timeout plus 100 ms, so a lease
   *   can never arrive already expired without the command having timed out).
   */
  constructor(
    private readonly client: Redis,
    options: Pick<GatewayRedisOptions, 'keyPrefix' | 'rateLimitFailure' | 'connectTimeoutMs' | 'commandTimeoutMs'> & { leaseMs?: number } = {},
    logger?: GatewayLogger,
  ) {
    this.prefix = `${options.keyPrefix ?? 'gateway:'}rate:`;
    this.redis = new RateLimitOutageGuard(client, options.connectTimeoutMs ?? 2000, options.rateLimitFailure === 'closed', this.stats, logger);
    this.leaseMs = Math.max(20, Math.round(options.leaseMs ?? (options.commandTimeoutMs ?? 500) + 100));
    client.defineCommand('gatewayRateLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
    client.defineCommand('gatewayRateSettle', { numberOfKeys: 1, lua: SETTLE_SCRIPT });
  }

  private get commands(): LeaseCommands {
    return this.client as unknown as LeaseCommands;
  }

  take(route: string, rate: number): Promise<RouteSlot | false> {
    let state = this.states.get(route);
    if (state?.rate !== rate) state = this.restart(route, rate);
    const now = performance.now();
    countAdmission(state, now, this.leaseMs);
    const slot = this.takeLocal(state, now);
    if (slot) {
      this.stats.local++;
      this.leaseAhead(state, now);
      return Promise.resolve(slot);
    }
    return new Promise<RouteSlot | false>((resolve, reject) => {
      state.waiters.push({ resolve, reject });
      if (!state.leasing) void this.lease(state, slotsAhead(state));
    });
  }

  /** A fresh state for a route seen first or whose rate changed (the old one's slots are settled and returned). */
  private restart(route: string, rate: number): RouteState {
    const old = this.states.get(route);
    if (old) this.finish(old);
    const state = newRouteState(route, rate, performance.now());
    this.states.set(route, state);
    return state;
  }

  /** Uses one slot of a lease that is still valid; undefined when none is left. */
  private takeLocal(state: RouteState, now: number): RouteSlot | undefined {
    for (const lease of state.leases) {
      if (lease.used >= lease.size || now >= lease.sentAt + this.leaseMs) continue;
      const index = lease.used++;
      this.schedule(state, now + SETTLE_DELAY_MS);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          // The slot's own member leaves the window (a settle coming after it does not bring it back: ZADD XX), so any
          // replica may lease it again; it is never used again from this lease. Unsent while Redis is down: it stays counted.
          this.send(state.route, { id: lease.id, usedFrom: 0, usedTo: 0, score: 0, returnFrom: index, returnTo: index + 1 });
        },
      };
    }
    return undefined;
  }

  /** While the route is busy, leases the next slots before the current ones run out. */
  private leaseAhead(state: RouteState, now: number): void {
    if (state.leasing || this.redis.failing) return;
    const ahead = slotsAhead(state);
    const unused = unusedSlots(state, now, this.leaseMs);
    if (ahead === 0 || unused > ahead / 2) return;
    void this.lease(state, ahead - unused); // never more than `ahead` held unused
  }

  /** One lease request for every waiter plus `ahead` slots; serves the waiters from it, refuses them when the window is full. */
  private async lease(state: RouteState, ahead: number): Promise<void> {
    state.leasing = true;
    const asked = state.waiters.length;
    const want = asked + ahead;
    const id = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    let reply: [number, number, number] | undefined;
    let sentAt = 0;
    try {
      reply = await this.redis.call(() => {
        this.stats.leases++;
        sentAt = performance.now();
        return this.commands.gatewayRateLease(this.prefix + state.route, state.amount, state.intervalMs, this.leaseMs, id, want);
      });
    } finally {
      state.leasing = false;
    }
    const now = performance.now();
    if (reply && reply[0] > 0) {
      const lease: Lease = { id, redisTime: reply[1], sentAt, size: reply[0], used: 0, settled: 0 };
      state.leases.push(lease);
      if (now >= sentAt + this.leaseMs) reply = this.redis.failed(new Error('a lease came back after it had expired'));
      this.schedule(state, sentAt + this.leaseMs);
    }
    if (!reply) {
      for (const waiter of state.waiters.splice(0)) {
        try {
          this.redis.unavailable(state.route);
          waiter.resolve(UNCOUNTED_SLOT);
        } catch (error) {
          waiter.reject(error as Error);
        }
      }
      return;
    }
    let served = 0;
    for (let slot = state.waiters.length > 0 ? this.takeLocal(state, now) : undefined; slot; slot = state.waiters.length > 0 ? this.takeLocal(state, now) : undefined) {
      state.waiters.shift()!.resolve(slot);
      served++;
    }
    if (state.waiters.length === 0) return;
    if (this.states.get(state.route) !== state) {
      for (const waiter of state.waiters.splice(0)) waiter.resolve(false);
      return;
    }
    // Fewer granted than asked: the window was full when the lease was asked, so whoever waited then is refused. Those
    // who came meanwhile ask again: slots given back since (refused requests) may have freed the window.
    if (reply[0] < want) for (const waiter of state.waiters.splice(0, Math.max(0, asked - served))) waiter.resolve(false);
    if (state.waiters.length > 0) void this.lease(state, 0);
  }

  /** Runs the route's upkeep at `at` (or earlier if already due earlier). */
  private schedule(state: RouteState, at: number): void {
    if (state.timerAt <= at) return;
    clearTimeout(state.timer);
    state.timerAt = at;
    state.timer = setTimeout(() => this.upkeep(state), Math.max(0, at - performance.now()));
    state.timer.unref();
  }

  /** Lowers the scores of slots used since the last upkeep, returns the unused slots of ended leases, forgets finished leases. */
  private upkeep(state: RouteState, endAll = false): void {
    state.timer = undefined;
    state.timerAt = Infinity;
    const { settles, next } = settleLeases(state, performance.now(), this.leaseMs, endAll);
    for (const settle of settles) this.send(state.route, settle);
    if (next < Infinity) this.schedule(state, next);
  }

  /** Sends one settle; a failure leaves the slots with their lease score (they leave the window a little later). */
  private send(route: string, { id, usedFrom, usedTo, score, returnFrom, returnTo }: Settle): void {
    if (this.client.status !== 'ready') return;
    const sent = this.commands.gatewayRateSettle(this.prefix + route, id, usedFrom, usedTo, score, returnFrom, returnTo).catch(() => undefined);
    this.settling.add(sent);
    void sent.finally(() => this.settling.delete(sent));
  }

  /** Settles and returns a state's slots and stops its timer. */
  private finish(state: RouteState): void {
    clearTimeout(state.timer);
    this.upkeep(state, true);
    clearTimeout(state.timer);
    state.leases = [];
  }

  /** Forgets the route locally and gives its unused slots back; its window in Redis expires by itself. */
  release(route: string): void {
    const state = this.states.get(route);
    if (!state) return;
    this.states.delete(route);
    this.finish(state);
  }

  /** How many routes this gateway has limited since their last change. */
  get size(): number {
    return this.states.size;
  }

  /** Slots free in the route's current window across all replicas (plus this replica's unused leased ones), or undefined when unknown. */
  async remaining(route: string): Promise<number | undefined> {
    const state = this.states.get(route);
    if (!state) return undefined;
    const reply = await this.redis.call(() => this.commands.gatewayRateLease(this.prefix + route, state.amount, state.intervalMs, this.leaseMs, 'count', 0));
    return reply === undefined ? undefined : Math.min(state.amount, reply[2] + unusedSlots(state, performance.now(), this.leaseMs));
  }

  /** Gives back unused slots and forgets the routes; the Redis connection belongs to its creator (createGateway closes it). */
  async close(): Promise<void> {
    for (const state of this.states.values()) this.finish(state);
    this.states.clear();
    await Promise.all([...this.settling]);
  }
}
