// The suite runs the sources as ES modules, as the package runs: a module loaded later with import() is the same instance, so its errors keep their class.
import assert from 'node:assert/strict';
import { GatewayError } from '../../src/errors/error-registry.js';

describe('module loading in the test suite', () => {
  it('15.7: import() of an already-loaded source module answers the same instance (no second copy whose errors fail instanceof)', async () => {
    const late = await import('../../src/errors/error-registry.js');
    assert.equal(late.GatewayError, GatewayError, 'the tests were loaded as CommonJS: load them with tsx/esm, as .mocharc.json and npm run test:file do');
  });
});
