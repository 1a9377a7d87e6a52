// Model names that go into URL paths (Azure deployments, Gemini models) cannot change the path the stored key is sent to.
import assert from 'node:assert/strict';
import request from 'supertest';
import azure from '../../plugins/providers/azure/index.js';
import gemini from '../../plugins/providers/gemini/index.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { assertCoded, makeContext } from './provider-test-kit.js';

const UNSAFE = ['..', '.', '../other', 'a/b', 'a\\b', 'x%2F..', 'x%2f', '%2e%2e', 'a\nb', 'a\u0000b', 'a\u007fb'];

describe('model names in URL paths', () => {
  it('11.9: the azure and gemini adapters refuse 400 (param model) a name that would change the path', () => {
    for (const model of UNSAFE) {
      for (const adapter of [azure, gemini]) {
        const context = makeContext(adapter.name, { model, provider: { name: 'p', type: adapter.name, config: { api_base: 'https://up.example.com' } }, apiKey: { value: 'sk-stored' } });
        assertCoded(() => adapter.buildRequest(context), 'invalid_value', 400);
        assert.throws(() => adapter.buildRequest(context), (error: { param?: string }) => error.param === 'model', `${adapter.name} ${JSON.stringify(model)}`);
      }
    }
  });

  it('keeps ordinary names, dots and spaces included, as one encoded segment', () => {
    const context = (adapter: string, model: string) => makeContext(adapter, { model, provider: { name: 'p', type: adapter, config: { api_base: 'https://up.example.com' } } });
    assert.equal(azure.buildRequest(context('azure', 'gpt-4.1 mini')).url, 'https://up.example.com/openai/deployments/gpt-4.1%20mini/chat/completions?api-version=2024-10-21');
    assert.equal(gemini.buildRequest(context('gemini', 'models/gemini-2.5-flash')).url, 'https://up.example.com/v1beta/models/gemini-2.5-flash:generateContent');
  });

  describe('through the gateway', () => {
    let f: TrafficFixture;
    before(async () => {
      f = await createTrafficFixture();
      await f.create('/v1/admin/providers', { name: 'az', type: 'azure', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-azure-stored-0001' }] });
      await f.create('/v1/admin/providers', { name: 'gm', type: 'gemini', config: { api_base: f.fake.url }, api_keys: [{ api_key: 'sk-gemini-stored-0001' }] });
    });
    after(() => f.close());

    it('11.9: model "az/.." and "gm/../x" are 400 param model, and nothing is sent upstream', async () => {
      for (const model of ['az/..', 'az/../../admin', 'az/x%2F..%2Fy', 'gm/..', 'gm/../x']) {
        const res = await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model }));
        assert.equal(res.status, 400, `${model}: ${res.text}`);
        assert.equal(res.body.error.param, 'model');
      }
      assert.equal(f.fake.requests.length, 0);
      await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'az/gpt-4o' })).expect(200);
      assert.equal(f.fake.requests[0]?.path, '/openai/deployments/gpt-4o/chat/completions');
    });
  });
});
