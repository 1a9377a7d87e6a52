// Concurrent bursts against a shared rate limit, checked against the budget per second: for the multi-process rate-limit tests.
import assert from 'node:assert/strict';

/**
 * Runs `count` bursts (`burst` answers the statuses of one), each starting at least 1050 ms after the previous one
 * ended so that the sliding window is empty. Asserts every status is 200 or 429, at most `limit` admitted per
 * second the burst spanned, and exactly `limit` when it took under a second. Answers the admitted count per burst.
 */
export async function rateBursts(count: number, limit: number, burst: () => Promise<number[]>): Promise<number[]> {
  const admitted: number[] = [];
  let lastEnd = performance.now();
  for (let i = 0; i < count; i++) {
    // Admissions happen before the burst's end on the same clock Redis uses, so 1 s after it the window is empty.
    const wait = lastEnd + 1050 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const started = performance.now();
    const statuses = await burst();
    lastEnd = performance.now();
    const span = lastEnd - started;
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(','));
    const ok = statuses.filter((s) => s === 200).length;
    assert.ok(ok <= limit * (Math.floor(span / 1000) + 1), `burst ${i}: ${ok} admitted in ${span.toFixed(0)} ms`);
    if (span < 1000) assert.equal(ok, limit, `burst ${i}: the whole budget and no more, in ${span.toFixed(0)} ms`);
    admitted.push(ok);
  }
  return admitted;
}
