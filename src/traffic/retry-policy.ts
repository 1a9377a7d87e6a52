// When to retry an upstream attempt, when to fall back to the next model, and how long to wait between tries.

/** Retry timing options. */
export interface RetryTiming {
  /** First backoff step in ms; doubles per retry. Default 200. */
  baseDelayMs: number;
  /** Largest backoff in ms. Default 5000. */
  maxDelayMs: number;
  /** A Retry-After longer than this (ms) is not waited for: the attempt counts as final. Default 10000. */
  maxRetryAfterMs: number;
}

/** Default retry timing. */
export const DEFAULT_RETRY_TIMING: RetryTiming = { baseDelayMs: 200, maxDelayMs: 5000, maxRetryAfterMs: 10_000 };

/** The statuses that fall back when a model enables fallback with an empty `fallback_codes`. */
export const DEFAULT_FALLBACK_CODES: readonly number[] = [429, 500, 502, 503, 504];

/** The result of a failed attempt: an HTTP status, or a network failure or timeout. */
export type AttemptFailure = { kind: 'status'; status: number; retryAfterMs?: number } | { kind: 'network' } | { kind: 'timeout' };

/** Network errors, timeouts, 429 and 5xx are retried. */
export function isRetryable(failure: AttemptFailure): boolean {
  return failure.kind !== 'status' || failure.status === 429 || failure.status >= 500;
}

/**
 * Whether a model's final failure moves on to the next model. Network errors count as 502 and
 * timeouts as 504 when matched against `fallback_codes`.
 */
export function shouldFallBack(failure: AttemptFailure, fallbackEnabled: boolean, fallbackCodes: readonly number[]): boolean {
  if (!fallbackEnabled) return false;
  const status = failure.kind === 'status' ? failure.status : failure.kind === 'timeout' ? 504 : 502;
  const codes = fallbackCodes.length > 0 ? fallbackCodes : DEFAULT_FALLBACK_CODES;
  return codes.includes(status);
}

/** Parses Retry-After (seconds or an HTTP date) into ms, or undefined. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (0-based): exponential backoff with full jitter, but never
 * shorter than the upstream's Retry-After. Undefined when Retry-After asks for longer than allowed.
 */
export function retryDelay(retry: number, failure: AttemptFailure, timing: RetryTiming, random: () => number = Math.random): number | undefined {
  const backoff = Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** retry) * random();
  const retryAfter = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  if (retryAfter === undefined) return backoff;
  if (retryAfter > timing.maxRetryAfterMs) return undefined;
  return Math.max(retryAfter, backoff);
}
