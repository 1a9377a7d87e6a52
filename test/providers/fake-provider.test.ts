// Tests of the loopback fake provider itself: scripting order, failures, delays, resets and cut streams.
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const chatBody = (model = 'm', extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe('fake provider', () => {
  let fake: FakeProvider;
  before(async () => {
    fake = await startFakeProvider();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('records method, path, query, headers and body, and recognises the three formats', async () => {
    await post(`${fake.url}/v1/chat/completions?x=1`, chatBody('gpt'));
    await post(`${fake.url}/v1/messages`, { ...chatBody('claude'), max_tokens: 5 });
    await post(`${fake.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { contents: [] }).then((r) => r.text());
    assert.deepEqual(fake.requests.map((r) => [r.method, r.path, r.format, r.endpoint, r.model, r.stream]), [
      ['POST', '/v1/chat/completions', 'openai', 'chat', 'gpt', false],
      ['POST', '/v1/messages', 'anthropic', 'chat', 'claude', false],
      ['POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', 'gemini', 'chat', 'gemini-2.5-flash', true],
    ]);
    assert.deepEqual(fake.requests[0]?.query, { x: '1' });
    assert.equal(fake.requests[0]?.headers['content-type'], 'application/json');
  });

  it('answers in order: script function, then queue, then per-model answer, then default', async () => {
    fake.script({ text: 'default' });
    fake.forModel('special', { text: 'for special' });
    fake.script([{ text: 'queued' }]);
    fake.script((request) => (request.model === 'scripted' ? { text: 'from function' } : undefined));
    const text = async (model: string) => ((await (await post(`${fake.url}/v1/chat/completions`, chatBody(model))).json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content;
    assert.equal(await text('scripted'), 'from function');
    assert.equal(await text('special'), 'queued');
    assert.equal(await text('special'), 'for special');
    assert.equal(await text('other'), 'default');
  });

  it('fails with the chosen status, format error body and Retry-After', async () => {
    fake.script([{ fail: { status: 429, retryAfter: 2 } }, { fail: { status: 503, body: { custom: true } } }]);
    const first = await post(`${fake.url}/v1/messages`, chatBody());
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '2');
    assert.deepEqual(await first.json(), { type: 'error', error: { type: 'rate_limit_error', message: 'Fake failure 429' } });
    const second = await post(`${fake.url}/v1/chat/completions`, chatBody());
    assert.equal(second.status, 503);
    assert.deepEqual(await second.json(), { custom: true });
  });

  it('delays the headers, and resets the connection', async () => {
    fake.script([{ delayMs: 80 }, { reset: true }]);
    const started = Date.now();
    await (await post(`${fake.url}/v1/chat/completions`, chatBody())).json();
    assert.ok(Date.now() - started >= 70);
    await assert.rejects(post(`${fake.url}/v1/chat/completions`, chatBody()));
  });

  it('streams N chunks with a delay, or cuts the stream after some chunks', async () => {
    fake.script([{ chunks: 2, chunkDelayMs: 20 }, { chunks: 5, failAfterChunks: 2 }]);
    const text = await (await post(`${fake.url}/v1/chat/completions`, chatBody('m', { stream: true }))).text();
    assert.equal(text.match(/^data: /gm)?.length, 1 + 2 + 1 + 1);
    assert.match(text, /data: \[DONE\]\n\n$/);
    const cut = await post(`${fake.url}/v1/chat/completions`, chatBody('m', { stream: true }));
    assert.equal(cut.status, 200);
    await assert.rejects(cut.text());
  });

  it('counts open streams until they finish or the client leaves', async () => {
    fake.script({ chunks: 50, chunkDelayMs: 20 });
    const controller = new AbortController();
    const response = await fetch(`${fake.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chatBody('m', { stream: true })), signal: controller.signal,
    });
    await response.body?.getReader().read();
    assert.equal(fake.openStreams(), 1);
    controller.abort();
    await fake.streamsClosed();
    assert.equal(fake.openStreams(), 0);
    assert.equal(fake.cutStreams(), 1, 'closed by the client before its end');
  });

  it('answers tool calls, completions and embeddings in OpenAI format, and 404 for unknown paths', async () => {
    fake.script([{ toolCall: { name: 'f', arguments: { a: 1 } } }]);
    const tool = (await (await post(`${fake.url}/v1/chat/completions`, chatBody())).json()) as { choices: Array<{ message: { tool_calls: unknown[] }; finish_reason: string }> };
    assert.equal(tool.choices[0]?.finish_reason, 'tool_calls');
    assert.deepEqual(tool.choices[0]?.message.tool_calls, [{ id: 'call_fake_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }]);
    const completion = (await (await post(`${fake.url}/v1/completions`, { model: 'i', prompt: 'p' })).json()) as { object: string };
    assert.equal(completion.object, 'text_completion');
    const embeddings = (await (await post(`${fake.url}/v1/embeddings`, { model: 'e', input: ['a', 'b', 'c'], dimensions: 4 })).json()) as { data: Array<{ embedding: number[] }> };
    assert.deepEqual(embeddings.data.map((d) => d.embedding.length), [4, 4, 4]);
    assert.equal((await post(`${fake.url}/nowhere`, {})).status, 404);
  });
});
