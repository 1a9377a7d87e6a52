// A provider that echoes its key in an image, transcription or other raw-relayed answer (as is, base64 or URL-encoded, split across writes) never passes it on.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { ChunkedSecretMask } from '../../src/secrets/chunked-secret-mask.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createTrafficFixture, type TrafficFixture } from '../helpers/traffic-fixture.js';
import { listenRawOnLoopback } from '../helpers/loopback-server.js';

const KEY = 'sk-raw-echoed-provider-key-0123456789abcdef';
const MASK = 'sk-...cdef';
const FORMS = [KEY, Buffer.from(`Bearer ${KEY}`).toString('base64').slice(0, 40), encodeURIComponent(`Bearer ${KEY}`), Buffer.from(KEY).toString('hex')];

/** An upstream whose every answer echoes the Bearer it was sent; `?kind=` in the prompt or the file name picks the answer. */
async function startEchoingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const key = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      const kind = /kind=([a-z-]+)/.exec(body)?.[1] ?? 'json';
      const bearer = `Bearer ${key}`;
      if (kind === 'json') {
        const text = JSON.stringify({ created: 1, data: [{ b64_json: Buffer.from(bearer).toString('base64'), url: `https://cdn.example/i.png?auth=${encodeURIComponent(bearer)}`, revised_prompt: `${bearer} ${Buffer.from(key).toString('hex')}` }], usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        return res.end(text);
      }
      if (kind === 'split-text') {
        // The key cut across two writes with a pause, and a header that echoes it too.
        res.writeHead(200, { 'content-type': `text/plain; charset=utf-8; debug="${key}"` });
        res.socket?.setNoDelay(true);
        const text = `heard: ${bearer} and ${bearer.toUpperCase()}\n`;
        const cut = text.indexOf(key) + 11;
        res.write(text.slice(0, cut));
        setTimeout(() => res.end(text.slice(cut)), 30);
        return;
      }
      if (kind === 'sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ type: 'transcript.text.delta', delta: bearer })}\n\n`);
        setTimeout(() => res.end(`data: ${JSON.stringify({ type: 'transcript.text.done', text: encodeURIComponent(bearer) })}\n\n`), 30);
        return;
      }
      const bytes = Buffer.from(`ID3\u0000binary ${bearer} tail`, 'latin1');
      res.writeHead(200, { 'content-type': kind === 'audio' ? 'audio/mpeg' : 'application/octet-stream', 'content-length': bytes.length });
      res.end(bytes);
    });
  });
  return listenRawOnLoopback(server);
}

function assertNoKey(text: string): void {
  for (const form of FORMS) assert.ok(!text.toLowerCase().includes(form.toLowerCase()), `${form} is not in ${text}`);
}

describe('provider keys echoed in raw-relayed answers (images, audio, transcriptions)', () => {
  let f: TrafficFixture;
  let upstream: Awaited<ReturnType<typeof startEchoingUpstream>>;
  let loopback: LoopbackServer;
  let client: OpenAI;
  before(async () => {
    f = await createTrafficFixture();
    upstream = await startEchoingUpstream();
    await f.create('/v1/admin/providers', { name: 'echo', type: 'openai', config: { api_base: `${upstream.url}/v1`, models: ['img-echo', 'stt-echo', 'tts-echo'] }, api_keys: [{ api_key: KEY }] });
    loopback = await listenOnLoopback(f.app);
    client = new OpenAI({ apiKey: f.developerKey, baseURL: `${loopback.base}/v1`, maxRetries: 0 });
  });
  after(async () => {
    loopback.close();
    await f.close();
    await upstream.close();
  });

  const transcribe = (kind: string) =>
    request(f.app).post('/v1/audio/transcriptions').set('authorization', `Bearer ${f.developerKey}`).field('model', 'stt-echo').field('prompt', `kind=${kind}`).attach('file', Buffer.from('RIFF'), 'a.wav');

  it('masks the key, as is, base64- and URL-encoded, in an images JSON answer the openai client still reads', async () => {
    const image = await client.images.generate({ model: 'img-echo', prompt: 'kind=json' });
    const text = JSON.stringify(image);
    assertNoKey(text);
    assert.match(image.data?.[0]?.revised_prompt ?? '', new RegExp(`^Bearer ${MASK.replace(/\./g, '\\.')} `));
    assert.match(image.data?.[0]?.url ?? '', /sk-\.\.\.cdef/);
    const raw = await request(f.app).post('/v1/images/generations').set('authorization', `Bearer ${f.developerKey}`).send({ model: 'img-echo', prompt: 'kind=json' }).expect(200);
    assertNoKey(raw.text);
    assert.equal(raw.headers['content-length'], undefined, 'a masked text answer has no stale content-length');
  });

  it('masks the key in a text transcript, a key cut across two writes and the content-type header included', async () => {
    const res = await transcribe('split-text').expect(200);
    assertNoKey(res.text);
    assertNoKey(String(res.headers['content-type']));
    assert.equal(res.text, `heard: Bearer ${MASK} and BEARER ${MASK}\n`);
  });

  it('masks the key in a streamed transcript (server-sent events), event by event', async () => {
    const res = await transcribe('sse').buffer(true).parse((response, done) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => done(null, text));
    }).expect(200);
    const text = res.body as string;
    assertNoKey(text);
    assert.match(text, /"delta":"Bearer sk-\.\.\.cdef"/);
  });

  it('masks a binary answer of no media type (application/octet-stream); relays audio bytes unchanged, with their length', async () => {
    const binary = await request(f.app).post('/v1/audio/speech').set('authorization', `Bearer ${f.developerKey}`).send({ model: 'tts-echo', voice: 'alloy', input: 'kind=octet' }).buffer(true).parse((response, done) => {
      const parts: Buffer[] = [];
      response.on('data', (chunk: Buffer) => parts.push(chunk));
      response.on('end', () => done(null, Buffer.concat(parts)));
    }).expect(200);
    assertNoKey((binary.body as Buffer).toString('latin1'));
    assert.equal((binary.body as Buffer).toString('latin1'), `ID3\u0000binary Bearer ${MASK} tail`);
    const speech = await client.audio.speech.create({ model: 'tts-echo', voice: 'alloy', input: 'kind=audio' });
    assert.equal(speech.headers.get('content-type'), 'audio/mpeg');
    const audio = Buffer.from(await speech.arrayBuffer());
    assert.equal(Number(speech.headers.get('content-length')), audio.length, 'audio keeps its content-length');
    assert.ok(audio.toString('latin1').startsWith('ID3\u0000binary Bearer '), 'audio bytes pass unchanged (see the README on binary answers)');
  });

  it('the request log holds no form of the key', async () => {
    await request(f.app).post('/v1/images/generations').set('authorization', `Bearer ${f.developerKey}`).send({ model: 'img-echo', prompt: 'kind=json' }).expect(200);
    const log = await request(f.app).get('/v1/admin/applications/app/chronicles?limit=5').set('x-api-key', 'test-admin-key-0123456789abcdef').expect(200);
    assertNoKey(log.text);
  });

  it('holds back only an end that may begin a form of the key, never after a line break, and at most its longest form', () => {
    const mask = ChunkedSecretMask.of(KEY)!;
    const sent = [mask.chunk(Buffer.from(`a ${KEY.slice(0, 9)}`)), mask.chunk(Buffer.from(`${KEY.slice(9)} b\n`)), mask.chunk(Buffer.from('c')), mask.flush()];
    assert.equal(sent.map(String).join(''), `a ${MASK} b\nc`);
    assert.equal(String(sent[1]).endsWith('\n'), true, 'a chunk that ends a line is sent whole');
    assert.equal(mask.chunk(Buffer.alloc(10_000, 'x')).length, 10_000, 'an end that cannot begin a form is not held');
    const hex = Buffer.from(KEY).toString('hex');
    const long = mask.chunk(Buffer.from(`${'x'.repeat(10_000)}${hex.slice(0, -1)}`));
    assert.equal(long.length, 10_000, 'at most the longest form (hex) less one byte is held');
    assert.equal(String(mask.chunk(Buffer.from(hex.slice(-1)))), MASK);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0xc3]);
    const other = ChunkedSecretMask.of(KEY)!;
    assert.deepEqual(Buffer.concat([other.chunk(bytes), other.flush()]), bytes, 'bytes that are not UTF-8 pass unchanged');
  });
});
