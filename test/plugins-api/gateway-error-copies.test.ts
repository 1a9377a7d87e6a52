// Gateway errors made by a second copy of the error module (a plugin's own copy of the package) are still answered with their code.
import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import { errorMiddleware, GatewayError, isGatewayError } from '../../src/index.js';

/** A second instance of the error module, as a plugin that bundles its own copy of the package would load it. */
async function secondCopy(): Promise<typeof import('../../src/errors/error-registry.js')> {
  return (await import(`../../src/errors/error-registry.ts?copy=${Date.now()}`)) as typeof import('../../src/errors/error-registry.js');
}

describe('gateway errors across module copies', () => {
  it('a copy is a different class, yet isGatewayError and instanceof recognise its errors', async () => {
    const copy = await secondCopy();
    assert.notEqual(copy.GatewayError, GatewayError, 'the test really loads a second copy');
    const error = copy.Errors.validation(['the field x is wrong']);
    assert.ok(isGatewayError(error));
    assert.ok(error instanceof GatewayError);
    assert.ok(!isGatewayError(new Error('plain')));
    assert.ok(!isGatewayError({ code: 'invalid_value', statusCode: 400 }), 'a look-alike object is not a gateway error');
  });

  it('the error middleware answers a copy-made error with its own status and code, not 500', async () => {
    const copy = await secondCopy();
    const app = express();
    app.get('/plugin', () => {
      throw copy.Errors.validation(['the field x is wrong'], { param: 'x' });
    });
    app.use(errorMiddleware());
    const res = await request(app).get('/plugin').expect(400);
    assert.deepEqual(res.body, { error: { message: 'the field x is wrong', type: 'invalid_request_error', code: 'invalid_value', param: 'x' } });
  });
});
