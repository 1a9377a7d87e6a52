// Concurrent bursts against a shared rate limit, checked against the budget per second: for the multi-process rate-limit tests.
import assert from 'node:assert/strict';

/**
 * Runs `count` bursts (`burst` answers the statuses of one), each starting once `windowEmpty` resolves: the shared
 * window is empty (see `rateWindowEmpty`), which a fixed wait after the previous burst cannot tell (a replica's late
 * settle keeps a used slot counted up to the lease time longer). Asserts every status is 200 or 429, at most `limit`
 * admitted per second the burst spanned, and exactly `limit` when it took under a second. Answers the admitted
 * count per burst. `uncheckedWarnings`, when given, counts the gateways' "admitted unchecked" warnings so far: a
 * burst during which it grew met a Redis command timeout (a loaded machine), where failing open is the documented
 * behaviour, so that burst is not judged (its count is -1); at least half of the bursts must be judged.
 */
export async function rateBursts(
  count: number,
  limit: number,
  windowEmpty: () => Promise<void>,
  burst: () => Promise<number[]>,
  uncheckedWarnings?: () => number,
): Promise<number[]> {
  const admitted: number[] = [];
  for (let i = 0; i < count; i++) {
    await windowEmpty();
    const started = performance.now();
    const warningsBefore = uncheckedWarnings?.();
    const statuses = await burst();
    const span = performance.now() - started;
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(','));
    const ok = statuses.filter((s) => s === 200).length;
    const withinLimit = ok <= limit * (Math.floor(span / 1000) + 1) && (span >= 1000 || ok === limit);
    if (!withinLimit && warningsBefore !== undefined) {
      // The warning line may reach this process just after the answers: give the pipes a moment.
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (uncheckedWarnings!() > warningsBefore) {
        admitted.push(-1);
        continue;
      }
    }
    assert.ok(ok <= limit * (Math.floor(span / 1000) + 1), `burst ${i}: ${ok} admitted in ${span.toFixed(0)} ms`);
    if (span < 1000) assert.equal(ok, limit, `burst ${i}: the whole budget and no more, in ${span.toFixed(0)} ms`);
    admitted.push(ok);
  }
  const judged = admitted.filter((ok) => ok >= 0).length;
  assert.ok(judged * 2 >= count, `only ${judged} of ${count} bursts ran with Redis answering in time: ${admitted.join(',')}`);
  return admitted;
}
