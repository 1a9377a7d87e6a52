// Counts what shared rate limiters admitted without Redis (fail open), so a rate bound is judged on what Redis checked.

/**
 * Answers a function that counts the admissions `limiters` made unchecked (fail open) since this call. A loaded
 * machine can stall the test process past the Redis command timeout: ioredis then gives up on the commands waiting,
 * and the requests that waited for them are admitted unchecked, as documented. Each is counted in `stats.failedOpen`,
 * so `admitted - unchecked()` is what Redis checked, which the budget bounds whatever the load.
 * @example
 * const unchecked = uncheckedAdmissions([a.gateway.rateLimits as RedisRouteRateLimits]);
 * // ... a burst ...
 * assert.ok(admitted - unchecked() <= 5);
 */
export function uncheckedAdmissions(limiters: ReadonlyArray<{ readonly stats: { readonly failedOpen: number } }>): () => number {
  const count = (): number => limiters.reduce((sum, limiter) => sum + limiter.stats.failedOpen, 0);
  const before = count();
  return () => count() - before;
}
