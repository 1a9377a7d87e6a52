// An OpenAI-compatible provider that echoes its key in a 200 answer (JSON, stream data lines, a key or its encoding split across two chunks) never passes it on.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { ChunkedSecretMask } from '../../src/secrets/chunked-secret-mask.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { chatBody, createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback } from '../helpers/loopback-server.js';

const KEY = 'sk-echoed-provider-key-0123456789abcdef';
const MASK = 'sk-...cdef';
const HEX = Buffer.from(KEY).toString('hex');

/** An OpenAI-compatible upstream that puts the Bearer it was sent into its 200 answers; streams split it across two writes. */
async function startEchoingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const stream = (JSON.parse(body) as { stream?: boolean }).stream === true;
      const base = { id: 'chatcmpl-1', created: 1700000000, model: 'gpt-4o-mini' };
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...base, object: 'chat.completion', debug: { authorization: `Bearer ${key}` }, choices: [{ index: 0, message: { role: 'assistant', content: `Your key is ${key}.` }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.socket?.setNoDelay(true);
      const chunk = (content: string) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
      const split = chunk(`split ${key} here`);
      const cut = split.indexOf(key) + 9;
      const hex = Buffer.from(key).toString('hex').toUpperCase();
      const splitHex = chunk(`hex ${hex} there`);
      const hexCut = splitHex.indexOf(hex) + 21;
      res.write(chunk(`whole ${key}.`));
      res.write(split.slice(0, cut));
      setTimeout(() => {
        res.write(split.slice(cut) + splitHex.slice(0, hexCut));
      }, 30);
      setTimeout(() => {
        res.write(splitHex.slice(hexCut));
        res.write(`data: ${JSON.stringify({ error: { message: `invalid key ${key}` } })}\n\n`);
        res.end('data: [DONE]\n\n');
      }, 60);
    });
  });
  return listenRawOnLoopback(server);
}

describe('provider keys echoed in relayed 200 answers', () => {
  let f: TrafficFixture;
  let upstream: Awaited<ReturnType<typeof startEchoingUpstream>>;
  let loopback: LoopbackServer;
  before(async () => {
    f = await createTrafficFixture();
    upstream = await startEchoingUpstream();
    await f.create('/v1/admin/providers', { name: 'echo', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['echo-model'] }, api_keys: [{ api_key: KEY }] });
    await f.create('/v1/admin/routes', { name: 'cached', type: 'chat', models: [{ name: 'echo-model', provider: 'echo' }], config: { cache: { ttl_seconds: 60 } } });
    loopback = await listenOnLoopback(f.app);
  });
  after(async () => {
    loopback.close();
    await f.close();
    await upstream.close();
  });

  const chat = (extra: Record<string, unknown> = {}) => request(f.app).post('/v1/chat/completions').set('x-gateway-apikey', f.developerKey).send(chatBody({ model: 'echo-model', ...extra }));

  it('masks the key in a JSON answer, which stays valid JSON with its content-length, and in the cached copy', async () => {
    for (let round = 0; round < 2; round++) {
      const res = await chat().set('x-gateway-route', 'cached').expect(200);
      assert.ok(!res.text.includes(KEY), res.text);
      assert.equal(res.body.choices[0].message.content, `Your key is ${MASK}.`);
      assert.equal(res.body.debug.authorization, `Bearer ${MASK}`);
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.text));
    }
  });

  for (const [how, extra] of [['relayed byte for byte (the client asks for usage)', { stream_options: { include_usage: true } }], ['rewritten (usage the gateway asked for taken out)', {}]] as const) {
    it(`masks the key in stream data lines, split across two chunks or in a mid-stream error line: ${how}`, async () => {
      const res = await chat({ stream: true, ...extra }).expect(200);
      assert.ok(!res.text.includes(KEY), res.text);
      assert.ok(!res.text.includes(KEY.slice(0, 12)), 'not even the first part of the split key');
      assert.ok(!res.text.toLowerCase().includes(HEX.slice(0, 20)), 'nor of its hex encoding');
      assert.match(res.text, /whole sk-\.\.\.cdef\./);
      assert.match(res.text, /split sk-\.\.\.cdef here/);
      assert.match(res.text, /hex sk-\.\.\.cdef there/);
      assert.match(res.text, /invalid key sk-\.\.\.cdef/);
    });
  }

  it('the openai client reads the masked stream, and a cached stream replays it masked', async () => {
    const client = new OpenAI({ apiKey: f.developerKey, baseURL: `${loopback.base}/v1`, maxRetries: 0 });
    for (let round = 0; round < 2; round++) {
      const stream = await client.chat.completions.create({ model: 'echo-model', stream: true, messages: [{ role: 'user', content: 'Stream it' }] }, { headers: { 'x-gateway-route': 'cached' } }).catch((error: Error) => error);
      let text = '';
      try {
        for await (const chunk of stream as AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) text += chunk.choices[0]?.delta?.content ?? '';
      } catch (error) {
        // The upstream's mid-stream error line ends the stream in the client, with the key masked.
        assert.ok(!String((error as Error).message).includes(KEY));
      }
      assert.ok(!text.includes(KEY), text);
      assert.match(text, /whole sk-\.\.\.cdef\.split sk-\.\.\.cdef here/);
    }
  });

  it('holds back only the end of a chunk that may start a form of the key, and sends it with the next chunk', () => {
    const mask = ChunkedSecretMask.of(KEY)!;
    const sent = [mask.chunk(Buffer.from(`data: a ${KEY.slice(0, 5)}`)), mask.chunk(Buffer.from(`${KEY.slice(5)} b\n\n`)), mask.chunk(Buffer.from('data: sk')), mask.flush()];
    assert.deepEqual(sent.map(String), ['data: a ', `${MASK} b\n\n`, 'data: ', 'sk']);
    assert.equal(String(mask.chunk(Buffer.from(`data: ${KEY.slice(0, 3)}\n`))), `data: ${KEY.slice(0, 3)}\n`, 'a line end holds nothing back');
    const hexSent = [mask.chunk(Buffer.from(`data: x ${HEX.slice(0, 30).toUpperCase()}`)), mask.chunk(Buffer.from(`${HEX.slice(30)} y`)), mask.flush()];
    assert.deepEqual(hexSent.map(String), ['data: x ', `${MASK} y`, ''], 'an encoded form cut across chunks, in another letter case');
  });

  it('sends a chunk whose end cannot begin a form as it came, without holding anything back', () => {
    const mask = ChunkedSecretMask.of(KEY)!;
    const chunk = Buffer.from('data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"Hello, "');
    assert.equal(mask.chunk(chunk), chunk, 'the same buffer, not delayed');
    assert.equal(mask.flush().length, 0);
    const start = Buffer.from(`data: ${KEY.slice(0, -1).toUpperCase()}`);
    assert.equal(String(mask.chunk(start)), 'data: ', 'the key less its last character may still become the key');
    assert.equal(String(mask.flush()), KEY.slice(0, -1).toUpperCase());
  });
});
