// Output checks on streams hold whatever arrives: a chunk longer than the window, and answers with several choices.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';

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
});
