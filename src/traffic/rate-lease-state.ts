// One replica's local accounting of the slots it leased for a route: its leases and waiters, the lease period's count, and what upkeep settles.
import { reservoirFor, type RouteSlot } from './route-rate-limits.js';

/** Slots `[0, size)` leased at Redis time `redisTime`; usable while local time is before `sentAt + leaseMs`. */
export interface Lease {
  id: string;
  redisTime: number;
  sentAt: number;
  size: number;
  used: number;
  /** Slots `[0, settled)` have had their score lowered (or were already returned). */
  settled: number;
}

/** A request waiting for a slot from the next lease. */
export interface Waiter {
  resolve: (slot: RouteSlot | false) => void;
  reject: (error: Error) => void;
}

/** What a replica holds for one route it limits. */
export interface RouteState {
  route: string;
  rate: number;
  amount: number;
  intervalMs: number;
  leases: Lease[];
  waiters: Waiter[];
  leasing: boolean;
  /** Admissions counted per lease period, to size leases taken ahead of need. */
  periodStart: number;
  periodUsed: number;
  lastPeriodUsed: number;
  timer: NodeJS.Timeout | undefined;
  timerAt: number;
}

/**
 * One settle command for a lease: slots `[usedFrom, usedTo)` get `score` (their latest possible use time), slots
 * `[returnFrom, returnTo)` go back to the window (see `SETTLE_SCRIPT`).
 */
export interface Settle {
  id: string;
  usedFrom: number;
  usedTo: number;
  score: number;
  returnFrom: number;
  returnTo: number;
}

/** A fresh state for a route with rate `rate`, its period starting `now`. */
export function newRouteState(route: string, rate: number, now: number): RouteState {
  return { route, rate, ...reservoirFor(rate), leases: [], waiters: [], leasing: false, periodStart: now, periodUsed: 0, lastPeriodUsed: 0, timer: undefined, timerAt: Infinity };
}

/** Counts one admission attempt into the current lease period (`leaseMs` long). */
export function countAdmission(state: RouteState, now: number, leaseMs: number): void {
  if (now - state.periodStart >= leaseMs) {
    state.lastPeriodUsed = now - state.periodStart < 2 * leaseMs ? state.periodUsed : 0;
    state.periodUsed = 0;
    state.periodStart = now;
  }
  state.periodUsed++;
}

/** Slots leased and not used yet, in leases still valid. */
export function unusedSlots(state: RouteState, now: number, leaseMs: number): number {
  let unused = 0;
  for (const lease of state.leases) if (now < lease.sentAt + leaseMs) unused += lease.size - lease.used;
  return unused;
}

/** How many slots to lease ahead of need: what the route used lately, at most a tenth of its budget (at least 1). */
export function slotsAhead(state: RouteState): number {
  return Math.min(Math.max(state.lastPeriodUsed, state.periodUsed - 1), Math.max(1, Math.floor(state.amount / 10)));
}

/**
 * The upkeep of a route's leases at `now`: lowers the scores of slots used since the last upkeep, returns the unused
 * slots of ended leases (all of them with `endAll`), and forgets finished leases. Updates `state.leases`; answers the
 * settles to send and when the next lease ends (Infinity when none is kept).
 */
export function settleLeases(state: RouteState, now: number, leaseMs: number, endAll: boolean): { settles: Settle[]; next: number } {
  const settles: Settle[] = [];
  const kept: Lease[] = [];
  let next = Infinity;
  for (const lease of state.leases) {
    const ended = endAll || now >= lease.sentAt + leaseMs;
    const usedFrom = lease.settled;
    const usedTo = lease.used;
    const returnTo = ended ? lease.size : usedTo;
    if (ended) lease.size = lease.used; // nothing more is taken from it
    if (usedTo > usedFrom || returnTo > usedTo) {
      // No earlier than any use: a use happened at most `now - sentAt` after the lease ran on Redis.
      const score = lease.redisTime + Math.min(leaseMs, Math.ceil(now - lease.sentAt) + 1);
      settles.push({ id: lease.id, usedFrom, usedTo, score, returnFrom: usedTo, returnTo });
    }
    lease.settled = usedTo;
    if (ended || lease.used >= lease.size) continue; // ended or spent, and settled: done with it
    kept.push(lease);
    next = Math.min(next, lease.sentAt + leaseMs);
  }
  state.leases = kept;
  return { settles, next };
}
