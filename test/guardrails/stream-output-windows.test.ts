// Output checks on streams hold whatever arrives: a chunk longer than the window, and answers with several choices.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

/**
 * A provider streaming two choices as OpenAI does, one choice per chunk and interleaved: choice 0 says `first` piece
 * by piece, choice 1 says `zz` between the pieces; the last chunk carries both choices, choice 1 adding `last`.
 */
async function startTwoChoiceProvider(plan: () => { first: string[]; last: string }): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (choices: unknown[]) => `data: ${JSON.stringify({ id: 'chatcmpl-two', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices })}\n\n`;
      const { first, last } = plan();
      let body = '';
      for (const piece of first) body += chunk([{ index: 0, delta: { content: piece } }]) + chunk([{ index: 1, delta: { content: 'zz' } }]);
      body += chunk([{ index: 0, delta: {}, finish_reason: 'stop' }, { index: 1, delta: { content: last }, finish_reason: 'stop' }]);
      res.end(`${body}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The text of each choice the client received, by index. */
function streamedChoices(text: string): string[] {
  const choices: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: {"id"')) continue;
    for (const choice of JSON.parse(line.slice(6)).choices as Array<{ index: number; delta: { content?: string } }>) choices[choice.index] = (choices[choice.index] ?? '') + (choice.delta.content ?? '');
  }
  return choices;
}

describe('stream output windows', () => {
  let f: TrafficFixture;
  beforeEach(async () => {
    f = await createTrafficFixture({ plugins: TEST_GUARDRAILS, streamWindowing: { stepChars: 20, windowChars: 50 } });
    await f.create('/v1/admin/routes', { name: 'chat', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }] });
    await request(f.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: { apply_to: ['output'] } } }).expect(200);
  });
  afterEach(() => f.close());

  const chat = (body: Record<string, unknown>) => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'chat' }).send(body);

  it('a chunk carrying more text than the window is checked whole before any of it is sent', async () => {
    f.fake.script({ text: `The forbidden word comes first. ${'Then a long harmless tail. '.repeat(10)}`, chunks: 1 });
    const res = await chat(chatBody({ stream: true })).expect(200);
    assert.match(res.text, /event: error/);
    assert.equal(streamedChoices(res.text).join(''), '', 'none of the chunk was sent');
  });

  it('each choice of a stream is checked on its own text: interleaved chunks, and a chunk carrying several choices', async () => {
    let plan = { first: ['for', 'bid', 'den'], last: ' and more' };
    const provider = await startTwoChoiceProvider(() => plan);
    try {
      await f.create('/v1/admin/providers', {
        name: 'two',
        type: 'openai',
        config: { api_base: `http://127.0.0.1:${(provider.address() as { port: number }).port}/v1`, models: ['gpt-4o-mini'] },
        api_keys: [{ api_key_secret_name: 'main', api_key: 'sk-two-choices-000000001' }],
      });
      await f.create('/v1/admin/routes', { name: 'two', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'two' }] });
      const ask = () => request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'two' }).send(chatBody({ stream: true, n: 2 })).expect(200);
      const interleaved = await ask();
      assert.match(interleaved.text, /event: error/, 'choice 0 said forbidden between the pieces of choice 1');
      assert.ok(!streamedChoices(interleaved.text).some((text) => text.includes('forbidden')), interleaved.text);
      // Choice 0 clean; choice 1 says it in a chunk where it is the second choice.
      plan = { first: ['all ', 'is ', 'well'], last: ' forbidden' };
      const both = await ask();
      assert.match(both.text, /event: error/);
      assert.ok(!streamedChoices(both.text).some((text) => text.includes('forbidden')), both.text);
    } finally {
      provider.closeAllConnections();
      provider.close();
    }
  });
});
