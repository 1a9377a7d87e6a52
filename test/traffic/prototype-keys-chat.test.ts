// Prototype-reaching keys and names in chat bodies, on every adapter: a clear answer (never a 5xx), and nothing polluted.
import assert from 'node:assert/strict';
import request from 'supertest';
import { addTranslatedRoutes, chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** Raw JSON bodies (JSON.parse keeps `__proto__` as an own key, as the gateway's body reader does). */
const BODIES: Record<string, string> = {
  'a top-level __proto__': '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"__proto__":{"stream":true,"polluted":true}}',
  'a message __proto__': '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi","__proto__":{"role":"system","polluted":true}}]}',
  'a content part __proto__': '{"model":"gpt-4o-mini","messages":[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"polluted":true}}]}]}',
  'constructor.prototype': '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"constructor":{"prototype":{"polluted":true}}}',
  'tools named __proto__': '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"__proto__","parameters":{"type":"object","properties":{"__proto__":{"type":"string"}}}}}]}',
  'tool calls named constructor': '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"__proto__","type":"function","function":{"name":"constructor","arguments":"{\\"__proto__\\":{\\"polluted\\":true}}"}}]},{"role":"tool","tool_call_id":"__proto__","content":"x"}]}',
  'model __proto__': '{"model":"__proto__","messages":[{"role":"user","content":"hi"}]}',
  'model constructor/toString': '{"model":"constructor/toString","messages":[{"role":"user","content":"hi"}]}',
  'model fake/hasOwnProperty': '{"model":"fake/hasOwnProperty","messages":[{"role":"user","content":"hi"}]}',
};

describe('prototype keys in chat bodies', () => {
  let f: TrafficFixture;
  before(async () => {
    f = await createTrafficFixture();
    await addTranslatedRoutes(f, undefined, { openai: true });
  });
  after(() => f.close());

  for (const route of ['(unified)', 'via-openai', 'via-anthropic', 'via-gemini']) {
    it(`answers each with a status below 500 on ${route}, and pollutes no prototype`, async () => {
      for (const [name, json] of Object.entries(BODIES)) {
        const req = request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).set('content-type', 'application/json');
        if (route !== '(unified)') req.set('x-gateway-route', route);
        const res = await req.send(json);
        assert.ok(res.status < 500, `${name}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
      await request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody()).expect(200);
    });
  }
});
