// /v1/responses under the application's guardrail policy: the same input and output checks as the model endpoints, so it is no way around them.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import request from 'supertest';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

describe('/v1/responses under the application guardrail policy', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS });
  });
  afterEach(() => f.close());

  const setPolicy = (policy: Record<string, unknown>) =>
    request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send(policy).expect(200);
  const respond = (input: string, extra: Record<string, unknown> = {}) =>
    request(f.app).post('/v1/responses').set('x-gateway-apikey', f.developerKey).send({ model: 'gpt-4o-mini', input, ...extra });
  const lastEntry = async () =>
    (await request(f.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];

  it('an input check in reject mode refuses the request before any model call, as on /v1/chat/completions', async () => {
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['input'] } } });
    const res = await respond('say the forbidden word').expect(400);
    assert.equal(res.body.error.code, 'guardrail_rejected');
    assert.equal(f.fake.requests.length, 0, 'the provider is never called');
    const entry = await lastEntry();
    assert.ok(entry.guardrail_checks.some((check: { processor: string; phase: string }) => check.processor === 'banned_words' && check.phase === 'input'));
  });

  it('DLP mask rewrites the input the provider receives', async () => {
    f.fake.script({ text: 'noted' });
    await setPolicy({ mode: 'inspect', dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } });
    await respond('Email me at jane.doe@example.com please').expect(200);
    const sent = JSON.stringify(f.fake.requests[0]!.body);
    assert.ok(!sent.includes('jane.doe@example.com'), 'the address never reaches the provider');
  });

  it('an output check in reject mode withholds the answer, and a streamed answer ends in response.failed without its text', async () => {
    f.fake.script({ text: 'here is the forbidden answer' });
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } });
    const res = await respond('hello').expect(400);
    assert.equal(res.body.error.code, 'guardrail_rejected');
    assert.ok(!res.text.includes('forbidden answer'));
    f.fake.script({ text: 'here is the forbidden answer' });
    const streamed = await respond('hello', { stream: true }).expect(200);
    assert.match(streamed.text, /event: response\.failed/);
    assert.ok(!streamed.text.includes('output_text.delta'), 'no delta of the withheld text was sent');
    assert.ok(!streamed.text.includes('forbidden answer'), 'nor the text in the failed response');
  });

  it('under an output DLP mask, a streamed answer and its Chronicles entry keep the masked text, as a JSON one does', async () => {
    await setPolicy({ mode: 'inspect', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } });
    for (const stream of [false, true]) {
      f.fake.script({ text: 'Write to jane.doe@example.com today.', chunks: 4 });
      const res = await respond('hello', { stream }).expect(200);
      assert.ok(!res.text.includes('jane.doe') && res.text.includes('********************'), `stream: ${stream}: ${res.text}`);
      const entry = await lastEntry();
      assert.equal(entry.output, 'Write to ******************** today.', `stream: ${stream}`);
    }
  });

  it('a passing output check lets the stream through whole', async () => {
    f.fake.script({ text: 'a harmless answer' });
    await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } });
    const streamed = await respond('hello', { stream: true }).expect(200);
    assert.match(streamed.text, /event: response\.completed/);
    assert.match(streamed.text, /harmless/);
  });

  it('the arguments of a function call the model answers with are checked: withheld in reject mode (JSON and streamed), masked by DLP', async () => {
    const server = await listenOnLoopback(f.app);
    try {
      const client = new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0 });
      const ask = { model: 'gpt-4o-mini', input: 'Send it.', tools: [{ type: 'function' as const, name: 'send', parameters: { type: 'object', properties: { body: { type: 'string' } } }, strict: false }] };
      f.fake.script({ toolCall: { name: 'send', arguments: { body: 'the forbidden plan', to: 'jane.doe@example.com' } } });
      await setPolicy({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } });
      const refused = await client.responses.create(ask).then((answer) => JSON.stringify(answer.output), (caught: unknown) => caught);
      assert.ok(refused instanceof OpenAI.APIError && refused.status === 400, String(refused));
      const events: Array<{ type: string }> = [];
      for await (const event of await client.responses.create({ ...ask, stream: true })) events.push(event);
      assert.equal(events.at(-1)?.type, 'response.failed');
      assert.ok(!JSON.stringify(events).includes('forbidden plan'), JSON.stringify(events));

      await setPolicy({ mode: 'reject', processors: { dlp_cloud: { apply_to: ['output'], strategy: 'mask' } } });
      const masked = await client.responses.create(ask);
      const call = masked.output.find((item) => item.type === 'function_call');
      assert.equal(call?.type === 'function_call' ? JSON.parse(call.arguments).to : undefined, '********************');
    } finally {
      server.close();
    }
  });
});
