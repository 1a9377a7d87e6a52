// The model endpoints served by the single routers, mounted one by one as README's "Mounting single routers" lists them, hold budgets and per-minute limits as gateway.router does.
import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import request from 'supertest';
import { errorMiddleware } from '../../src/index.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { admin, metered, oneDollarPerAnswer } from '../usage/usage-helpers.js';

function singleRouters(f: TrafficFixture): Express {
  const { gateway } = f;
  const app = express();
  app.use(gateway.chronicles, gateway.routes, gateway.rateLimiter, gateway.guardrailPipeline, gateway.responseCache, gateway.proxy);
  app.use(errorMiddleware());
  return app;
}

describe('budgets and per-minute limits on the single routers', function () {
  this.timeout(30_000);
  let f: TrafficFixture;
  afterEach(async () => {
    await f?.close();
    f = undefined as unknown as TrafficFixture;
  });
  const chat = (app: Express) =>
    request(app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' }).send({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] });

  it('a spent budget is 429 budget_exceeded, and the request never reaches the provider', async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await oneDollarPerAnswer(f);
    await admin(f, 'put', '/v1/admin/applications/app').send({ budget: { amount_usd: 0.5, period: 'day' } }).expect(200);
    const app = singleRouters(f);
    await chat(app).expect(200);
    await metered(f, 1);
    const refused = await chat(app).expect(429);
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.equal(f.fake.requests.length, 1);
  });

  it('requests_per_minute applies, with the x-ratelimit-* headers', async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await admin(f, 'put', '/v1/admin/applications/app').send({ limits: { requests_per_minute: 1 } }).expect(200);
    const app = singleRouters(f);
    const first = await chat(app).expect(200);
    assert.equal(first.headers['x-ratelimit-remaining-requests'], '0');
    const refused = await chat(app).expect(429);
    assert.equal(refused.body.error.code, 'rate_limit_exceeded');
  });
});
