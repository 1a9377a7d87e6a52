// The per-minute step of admission: the developer key's and the application's request and token windows, all or nothing.
import type { Response } from 'express';
import { Errors } from '../errors/error-registry.js';
import type { CallerLimits } from './caller-limits.js';
import { ownerKeys } from './owner-keys.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { BudgetOwner } from './spend-counters.js';
import type { Budget, CallerLimitSettings } from './usage-schemas.js';

/** The budget and limits of one owner of a request (the developer key, then its application). */
export interface Controls {
  owner: BudgetOwner;
  id: string;
  /** An application's incarnation (its `created_at`): its spend and per-minute counts are kept per incarnation. */
  incarnation?: string;
  label: string;
  budget?: Budget;
  limits?: CallerLimitSettings;
}

/** The length of the per-minute windows. */
export const MINUTE_MS = 60_000;

/** The per-minute window of one owner and kind: `key:<id>:requests`, `application:<name>:<created_at>:tokens`. */
export const windowKey = (item: Controls, kind: 'requests' | 'tokens'): string =>
  `${item.owner}:${item.id}:${item.incarnation ? `${item.incarnation}:` : ''}${kind}`;

/** Matches the per-minute windows of one owner (every incarnation of an application), for {@link CallerLimits.forget}. */
export const windowsOf = (owner: Controls['owner'], id: string): ((key: string) => boolean) => ownerKeys('', owner, id, '(?:requests|tokens)');

/**
 * Takes the request from each owner's requests per minute and checks their tokens per minute; throws 429
 * `rate_limit_exceeded` (with `Retry-After`) at the first that refuses, and sets OpenAI's `x-ratelimit-*` headers of
 * the tightest limit otherwise. A refused request uses no quota: what the windows checked before logged for it is
 * taken out again, so a key's window never fills with requests its application refused.
 */
export async function takeMinuteLimits(
  limits: CallerLimits,
  controls: readonly Controls[],
  res: Response,
  onRejection?: (reason: 'requests' | 'tokens', owner: BudgetOwner) => void,
): Promise<void> {
  const taken: Array<() => Promise<void>> = [];
  try {
    for (const kind of ['requests', 'tokens'] as const) {
      let tightest: Record<string, string> | undefined;
      let tightestRemaining = Infinity;
      for (const item of controls) {
        const limit = item.limits?.[kind === 'requests' ? 'requests_per_minute' : 'tokens_per_minute'];
        if (limit === undefined) continue;
        const state = await limits.take(windowKey(item, kind), limit, MINUTE_MS, kind === 'requests' ? 1 : 0);
        const headers = rateLimitHeaders(kind, limit, state);
        if (!state.admitted) {
          onRejection?.(kind, item.owner);
          const retryAfter = String(Math.max(1, Math.ceil(state.resetMs / 1000)));
          throw Errors.callerRateLimited([item.label, limit, kind, retryAfter], { headers: { ...headers, 'retry-after': retryAfter } });
        }
        if (state.release) taken.push(state.release);
        if (state.remaining < tightestRemaining) {
          tightestRemaining = state.remaining;
          tightest = headers;
        }
      }
      if (tightest) res.set(tightest);
    }
  } catch (error) {
    await Promise.all(taken.map((release) => release()));
    throw error;
  }
}
