// Output a policy cannot read or rewrite is refused before the provider call: token log probabilities under a DLP transform (they spell out the masked text), and audio output under any output check.
import assert from 'node:assert/strict';
import request from 'supertest';
import { listenJsonUpstream, type RawLoopbackServer } from '../helpers/loopback-server.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

const EMAIL = 'bob.smith@example.com';
const TOKENS = ['Mail ', 'bob', '.smith', '@', 'example', '.com'];

describe('output policies and output they cannot read', () => {
  let f: TrafficFixture;
  let upstream: RawLoopbackServer;
  let calls = 0;
  before(async () => {
    // An OpenAI-compatible upstream that answers with the tokens' log probabilities when asked, as OpenAI does.
    upstream = await listenJsonUpstream((res, body) => {
      calls++;
      const logprobs = body.logprobs === true ? { content: TOKENS.map((token) => ({ token, logprob: -0.1, bytes: [...Buffer.from(token)], top_logprobs: [] })) } : null;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: `Mail ${EMAIL}` }, logprobs, finish_reason: 'stop' }] }));
    });
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
    await f.create('/v1/admin/providers', { name: 'lp', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['lp-model'] }, api_keys: [{ api_key: 'sk-logprobs-provider-key-01' }] });
    await f.create('/v1/admin/routes', { name: 'masked', type: 'chat', models: [{ name: 'lp-model', provider: 'lp' }], config: { policy: { enabled: true, mode: 'inspect', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } } } });
    await f.create('/v1/admin/routes', { name: 'checked', type: 'chat', models: [{ name: 'lp-model', provider: 'lp' }], config: { policy: { enabled: true, mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } } } });
    await f.create('/v1/admin/routes', { name: 'open', type: 'chat', models: [{ name: 'lp-model', provider: 'lp' }] });
  });
  after(async () => {
    await f.close();
    await upstream.close();
  });

  const chat = (route: string, extra: Record<string, unknown>) =>
    request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': route }).send(chatBody(extra));

  it('refuses logprobs and top_logprobs under a DLP mask, JSON or streamed, before calling the provider; without them the answer is masked', async () => {
    const before = calls;
    for (const extra of [{ logprobs: true }, { logprobs: true, stream: true }, { logprobs: true, top_logprobs: 2 }, { top_logprobs: 2 }]) {
      const res = await chat('masked', extra).expect(400);
      assert.equal(res.body.error.code, 'invalid_value');
      assert.equal(res.body.error.param, 'logprobs' in extra ? 'logprobs' : 'top_logprobs');
      assert.ok(!res.text.includes('bob'));
    }
    assert.equal(calls, before, 'no provider call');
    // A completion's `logprobs` is a number of alternatives; its answer lists the chosen tokens even at 0.
    await f.create('/v1/admin/routes', { name: 'masked-completions', type: 'completions', models: [{ name: 'lp-model', provider: 'lp' }], config: { policy: { enabled: true, mode: 'inspect', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } } } });
    for (const logprobs of [0, 3]) {
      const completion = await request(f.app).post('/v1/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'masked-completions' }).send({ model: 'lp-model', prompt: 'Mail', logprobs }).expect(400);
      assert.equal(completion.body.error.param, 'logprobs');
    }
    assert.equal(calls, before, 'no provider call');
    const res = await chat('masked', { logprobs: false }).expect(200);
    assert.ok(!res.text.includes(EMAIL));
  });

  it('passes logprobs where no output policy rewrites text (a reject-mode check withholds the whole answer), or none applies', async () => {
    for (const route of ['checked', 'open']) {
      const res = await chat(route, { logprobs: true }).expect(200);
      assert.equal(res.body.choices[0].logprobs.content.length, TOKENS.length);
    }
  });

  it('refuses audio output under any output check, and passes it where no output check applies', async () => {
    const before = calls;
    for (const route of ['masked', 'checked']) {
      assert.equal((await chat(route, { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }).expect(400)).body.error.param, 'modalities');
      assert.equal((await chat(route, { audio: { voice: 'alloy', format: 'wav' } }).expect(400)).body.error.param, 'audio');
    }
    assert.equal(calls, before);
    await chat('open', { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }).expect(200);
    await chat('checked', { modalities: ['text'] }).expect(200);
  });
});
