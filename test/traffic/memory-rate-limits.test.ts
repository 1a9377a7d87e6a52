// The in-process route limiter: a sliding-window log on an injected clock, so each rule is checked without sleeping.
import assert from 'node:assert/strict';
import { MemoryRouteRateLimits } from '../../src/traffic/route-rate-limits.js';

describe('MemoryRouteRateLimits', () => {
  let now = 0;
  const limits = new MemoryRouteRateLimits(() => now);
  /** Takes a slot of route `r`: true when admitted. */
  const took = async (rate: number): Promise<boolean> => (await limits.take('r', rate)) !== false;
  beforeEach(() => {
    now = 1_000;
    limits.release('r');
  });

  it('admits `rate` requests in any second and refuses the next at once, without any timer', async () => {
    const taken = await Promise.all(Array.from({ length: 7 }, () => took(5)));
    assert.deepEqual(taken, [true, true, true, true, true, false, false]);
    now += 999;
    assert.equal(await took(5), false, 'the window has not moved past the first admission');
    now += 1;
    assert.equal(await limits.remaining('r'), 5);
    assert.equal(await took(5), true);
  });

  it('a slot given back (its request was refused later) no longer counts, once however often it is given back', async () => {
    const first = await limits.take('r', 2);
    const second = await limits.take('r', 2);
    assert.ok(first && second);
    assert.equal(await took(2), false);
    second.release();
    second.release();
    assert.equal(await limits.remaining('r'), 1, 'one slot free again, not two');
    assert.equal(await took(2), true);
    assert.equal(await took(2), false);
    now += 1000;
    assert.equal(await limits.remaining('r'), 2);
  });

  it('slides: admissions free their slot one interval after they were made, not at a shared tick', async () => {
    assert.equal(await took(2), true);
    now += 600;
    assert.equal(await took(2), true);
    assert.equal(await took(2), false);
    now += 400;
    assert.equal(await took(2), true, 'the first slot is free 1000 ms after it was taken');
    assert.equal(await took(2), false, 'the second is still held');
  });

  it('keeps fractional rates: 1.9 per second is one request in any 526 ms', async () => {
    assert.equal(await took(1.9), true);
    now += 525;
    assert.equal(await took(1.9), false);
    now += 1;
    assert.equal(await took(1.9), true);
  });

  it('starts afresh when the rate changes, and forgets a released route', async () => {
    await took(1);
    assert.equal(await took(3), true, 'a new rate gets a new window');
    assert.equal(limits.size, 1);
    limits.release('r');
    assert.equal(limits.size, 0);
    assert.equal(await limits.remaining('r'), undefined);
  });
});
