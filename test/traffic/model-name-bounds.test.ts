// Model names are caller input: bounded and free of control characters (400), never a 500 or an answer header a client cannot read.
import assert from 'node:assert/strict';
import request from 'supertest';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('model names from the client', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    await f.create('/v1/admin/routes', { name: 'support', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
  });
  after(() => f.close());
  beforeEach(() => f.fake.reset());

  const chat = (model: string, headers: Record<string, string> = {}) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, ...headers }).send(chatBody({ model }));

  function assertRefused(res: request.Response): void {
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.error.message, /model/);
    assert.ok(res.text.length < 1000, 'the name is not echoed back');
  }

  it('refuses an overlong model name or one with control characters with 400, before any upstream call', async () => {
    for (const model of [`fake/${'x'.repeat(600)}`, 'fake/a\nb', 'fake/a\u0000b']) {
      const res = await chat(model);
      assertRefused(res);
      assert.equal(res.body.error.param, 'model');
    }
    // On a custom route the body's model is not used for routing, but it is recorded: it is bounded too.
    assertRefused(await chat('y'.repeat(600), { 'x-gateway-route': 'support' }));
    const messages = await request(f.app).post('/v1/messages').set('x-api-key', f.developerKey).send({ model: `fake/${'x'.repeat(600)}`, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] });
    assertRefused(messages);
    assertRefused(await request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send({ model: `fake/${'x'.repeat(600)}`, input: 'Hi' }));
    assert.equal(f.fake.requests.length, 0);
  });

  it('answers a route named in model that does not exist with 404, whatever its characters', async () => {
    const res = await chat('route:\u6a21\u578b');
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.error.code, 'not_found');
  });

  it('serves a model name outside Latin-1 with one upstream call, the answer header percent-encoded', async () => {
    const res = await chat('fake/\u6a21\u578b');
    assert.equal(res.status, 200, res.text);
    assert.equal(f.fake.requests.length, 1);
    assert.equal((f.fake.requests[0]!.body as { model: string }).model, '\u6a21\u578b');
    assert.equal(res.headers['x-gateway-model'], encodeURIComponent('\u6a21\u578b'));
  });
});
