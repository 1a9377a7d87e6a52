// isoTimestamp answers exactly what Date's toISOString does, across seconds, days and the edges of its range.
import assert from 'node:assert/strict';
import { isoTimestamp } from '../../src/chronicles/iso-timestamp.js';

describe('isoTimestamp', () => {
  it('matches toISOString for every millisecond pattern, across seconds, days, years and out of range', () => {
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, Date.UTC(2026, 10, 25, 23, 59, 59, 999), Date.UTC(2026, 10, 26), Date.UTC(2024, 1, 29, 12), 253402300799999, -1, 253402300800000, 8.64e15];
    for (let n = 0; n < 5000; n++) times.push(Math.floor(Math.random() * 4e12), Date.now() + n * 7);
    for (const ms of times) assert.equal(isoTimestamp(ms), new Date(ms).toISOString(), String(ms));
    // Alternating seconds (requests that started either side of a second's end) stay exact.
    for (const ms of [1999, 2000, 1998, 2001]) assert.equal(isoTimestamp(ms), new Date(ms).toISOString());
  });
});
