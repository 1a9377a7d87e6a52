// jsonDepthExceeds: a linear depth count that ignores brackets inside strings and never recurses.
import assert from 'node:assert/strict';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../src/http/json-depth.js';

describe('jsonDepthExceeds', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    assert.equal(jsonDepthExceeds('{"a":[[1]]}', 3), false);
    assert.equal(jsonDepthExceeds('{"a":[[1]]}', 2), true);
    assert.equal(jsonDepthExceeds('{"a":"[[[[[[\\"[[[["}', 1), false);
  });

  it('answers for 100,000 levels without a stack overflow, as text and as bytes', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    assert.equal(jsonDepthExceeds(deep), true);
    assert.equal(jsonDepthExceeds(Buffer.from(deep)), true);
    assert.equal(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)), false);
  });
});
