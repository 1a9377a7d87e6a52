// OPTIONS on every endpoint family: the gateway answers none itself, so each is the host app's (404 in the error shape here), as on the model endpoints.
import assert from 'node:assert/strict';
import request from 'supertest';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('OPTIONS requests', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
  });
  after(() => f.close());

  it('are passed on to the host app on every path, never answered with a text/plain list of methods', async () => {
    const paths = [
      '/v1/chat/completions',
      '/v1/messages',
      '/v1/responses',
      '/v1/responses/resp_1',
      '/v1/models',
      '/v1/models/gpt-4o-mini',
      '/v1/mcp/tools',
      '/v1/guardrail/dlp/apply',
      '/v1/admin/routes',
      '/healthz',
      '/readyz',
    ];
    for (const path of paths) {
      const res = await request(f.app).options(path).set('authorization', `Bearer ${f.developerKey}`);
      assert.equal(res.status, 404, `${path}: ${res.status} ${res.text}`);
      assert.match(String(res.headers['content-type']), /^application\/json/, path);
      assert.equal(res.body.error.code, 'not_found', path);
      assert.equal(res.headers.allow, undefined, path);
    }
  });
});
