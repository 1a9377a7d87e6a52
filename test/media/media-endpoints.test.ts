// Moderations, image generations, speech and transcriptions through the gateway with the official openai client, against a fake upstream.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import OpenAI, { toFile } from 'openai';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { TEST_GUARDRAILS } from '../helpers/test-guardrails.js';
import { FAST_RETRIES } from '../helpers/traffic-fixture.js';
import { startFakeMediaProvider, type FakeMediaProvider } from '../helpers/fake-media-provider.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { eventually } from '../helpers/eventually.js';

const PROVIDER_KEY = 'sk-media-provider-key-000001';

describe('15.1: moderations, images and audio passed through to providers', function () {
  this.timeout(30_000);
  let t: TestGateway;
  let fake: FakeMediaProvider;
  let server: LoopbackServer;
  let port: number;
  let developerKey: string;
  let client: OpenAI;
  const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(201);
  const routed = (route: string) => new OpenAI({ apiKey: developerKey, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const lastEntry = async () => (await request(t.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];

  before(async () => {
    fake = await startFakeMediaProvider();
    t = await createTestGateway({ plugins: TEST_GUARDRAILS, retryTiming: FAST_RETRIES, uploadLimitBytes: 4 * 1024 * 1024 });
    await admin('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${fake.url}/v1`, models: ['omni-moderation-latest', 'gpt-image-1', 'tts-1', 'whisper-1'] }, api_keys: [{ api_key: PROVIDER_KEY }] });
    await admin('/v1/admin/providers', { name: 'az', type: 'azure', config: { api_base: fake.url, deployments: { whisper: 'whisper-prod' } }, api_keys: [{ api_key: PROVIDER_KEY }] });
    await admin('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: fake.url } });
    await admin('/v1/admin/providers', { name: 'gem', type: 'gemini', config: { api_base: fake.url } });
    await admin('/v1/admin/routes', { name: 'mod', type: 'moderations', models: [{ name: 'omni-moderation-latest', provider: 'oai' }] });
    await admin('/v1/admin/routes', { name: 'img', type: 'images', models: [{ name: 'gpt-image-1', provider: 'oai' }] });
    await admin('/v1/admin/routes', { name: 'tts', type: 'speech', models: [{ name: 'tts-1', provider: 'oai' }] });
    await admin('/v1/admin/routes', { name: 'stt', type: 'transcriptions', models: [{ name: 'whisper-1', provider: 'oai' }] });
    await admin('/v1/admin/routes', { name: 'stt-azure', type: 'transcriptions', models: [{ name: 'whisper', provider: 'az' }] });
    await admin('/v1/admin/routes', { name: 'img-claude', type: 'images', models: [{ name: 'claude-x', provider: 'claude' }] });
    await admin('/v1/admin/routes', { name: 'tts-gemini', type: 'speech', models: [{ name: 'gemini-x', provider: 'gem' }] });
    await admin('/v1/admin/routes', { name: 'mod-azure', type: 'moderations', models: [{ name: 'm', provider: 'az' }] });
    await admin('/v1/admin/applications', { name: 'app' });
    developerKey = (await request(t.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key;
    server = await listenOnLoopback(t.app);
    port = server.port;
    client = new OpenAI({ apiKey: developerKey, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
  });
  after(async () => {
    server.close();
    await t.close();
    await fake.close();
  });
  beforeEach(() => (fake.requests.length = 0));

  it('15.1: moderations.create() reaches the provider with its stored key, and the request log records it', async () => {
    const result = await routed('mod').moderations.create({ model: 'anything', input: 'Is this fine?' });
    assert.equal(result.results[0]?.flagged, false);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.path, '/v1/moderations');
    assert.equal(sent.body.model, 'omni-moderation-latest');
    assert.equal(sent.headers.authorization, `Bearer ${PROVIDER_KEY}`);
    const entry = await lastEntry();
    assert.equal(entry.endpoint, '/v1/moderations');
    assert.equal(entry.route, 'mod');
    assert.equal(entry.provider, 'oai');
    assert.equal(entry.input, 'Is this fine?');
  });

  it('15.1: images.generate() passes the answer through, on a route or by model name', async () => {
    const image = await routed('img').images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse' });
    assert.equal(Buffer.from(image.data?.[0]?.b64_json ?? '', 'base64').toString(), 'fake-png');
    const unified = await client.images.generate({ model: 'gpt-image-1', prompt: 'a harbour' });
    assert.equal(unified.data?.length, 1);
    assert.equal(fake.requests.at(-1)!.path, '/v1/images/generations');
    assert.deepEqual((await lastEntry()).usage, { input_tokens: 7, output_tokens: 100, total_tokens: 107 });
  });

  it('15.1: audio.speech.create() streams the audio bytes through unchanged with their content type', async () => {
    const speech = await routed('tts').audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there' });
    assert.equal(speech.headers.get('content-type'), 'audio/mpeg');
    const bytes = Buffer.from(await speech.arrayBuffer());
    assert.ok(bytes.equals(fake.audio), 'the audio differs');
    assert.equal(fake.requests.at(-1)!.body.input, 'Hello there');
  });

  it('15.1: audio.transcriptions.create() sends the uploaded file and fields as multipart, on OpenAI and Azure paths', async () => {
    const audio = randomBytes(3 * 1024 * 1024);
    const sha = createHash('sha256').update(audio).digest('hex');
    const result = await routed('stt').audio.transcriptions.create({ file: await toFile(audio, 'talk.mp3', { type: 'audio/mpeg' }), model: 'whisper-1', language: 'en', timestamp_granularities: ['word', 'segment'], response_format: 'verbose_json' });
    assert.equal(result.text, `heard ${audio.length} bytes`);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.path, '/v1/audio/transcriptions');
    assert.deepEqual(sent.file, { filename: 'talk.mp3', mimeType: 'audio/mpeg', bytes: audio.length, sha256: sha });
    assert.equal(sent.body.model, 'whisper-1');
    assert.equal(sent.body.language, 'en');
    assert.deepEqual(sent.body['timestamp_granularities[]'], ['word', 'segment']);
    assert.equal(sent.headers.authorization, `Bearer ${PROVIDER_KEY}`);

    const text = await routed('stt-azure').audio.transcriptions.create({ file: await toFile(audio.subarray(0, 1000), 'a.wav'), model: 'whisper', response_format: 'text' });
    assert.equal(String(text).trim(), 'heard 1000 bytes');
    const azure = fake.requests.at(-1)!;
    assert.match(azure.path, /^\/openai\/deployments\/whisper-prod\/audio\/transcriptions$/);
    assert.equal(azure.headers['api-key'], PROVIDER_KEY);
  });

  it('form fields named like Object.prototype members (toString, constructor, __proto__[]) reach the provider as sent', async () => {
    const res = await request(t.app)
      .post('/v1/audio/transcriptions')
      .set({ 'x-gateway-apikey': developerKey, 'x-gateway-route': 'stt' })
      .field('model', 'whisper-1')
      .field('toString', 'plain')
      .field('constructor', 'built')
      .field('valueOf[]', 'listed')
      .field('__proto__[]', 'proto')
      .attach('file', Buffer.from('abc'), 'a.wav');
    assert.equal(res.status, 200, res.text);
    const sent = fake.requests.at(-1)!.body;
    assert.equal(sent.toString, 'plain');
    assert.equal(sent.constructor, 'built');
    assert.equal(sent['valueOf[]'], 'listed');
    assert.equal(sent['__proto__[]'], 'proto');
  });

  it('15.1: transcriptions and speech are never answered from the response cache, even on a route with config.cache', async () => {
    await admin('/v1/admin/routes', { name: 'stt-cached', type: 'transcriptions', config: { cache: { ttl_seconds: 60 } }, models: [{ name: 'whisper-1', provider: 'oai' }] });
    const first = await routed('stt-cached').audio.transcriptions.create({ file: await toFile(randomBytes(1000), 'a.mp3'), model: 'whisper-1' });
    const second = await routed('stt-cached').audio.transcriptions.create({ file: await toFile(randomBytes(2000), 'a.mp3'), model: 'whisper-1' });
    assert.equal(first.text, 'heard 1000 bytes');
    assert.equal(second.text, 'heard 2000 bytes');
    assert.equal(fake.requests.length, 2);
  });

  it('15.1: a retried transcription sends the whole file again', async () => {
    const audio = randomBytes(200_000);
    fake.failNext(500);
    const result = await routed('stt').audio.transcriptions.create({ file: await toFile(audio, 'a.mp3'), model: 'whisper-1' });
    assert.equal(result.text, `heard ${audio.length} bytes`);
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[0]!.file?.sha256, fake.requests[1]!.file?.sha256);
    assert.equal(fake.requests[1]!.file?.bytes, audio.length);
  });

  it('15.1: an upload over the limit is 413 and never reaches the provider; a missing file is 400; JSON is 415', async () => {
    await assert.rejects(routed('stt').audio.transcriptions.create({ file: await toFile(randomBytes(5 * 1024 * 1024), 'big.mp3'), model: 'whisper-1' }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.APIError);
      assert.equal(error.status, 413);
      assert.equal((error.error as { code: string }).code, 'body_too_large');
      return true;
    });
    const noFile = await request(t.app).post('/v1/audio/transcriptions').set('authorization', `Bearer ${developerKey}`).field('model', 'whisper-1').expect(400);
    assert.equal(noFile.body.error.param, 'file');
    const json = await request(t.app).post('/v1/audio/transcriptions').set('authorization', `Bearer ${developerKey}`).send({ model: 'whisper-1' }).expect(415);
    assert.equal(json.body.error.code, 'unsupported_media_type');
    assert.equal(fake.requests.length, 0);
  });

  it('a form part without a name (a file or a field) is 400, and the gateway goes on serving', async () => {
    const model = 'Content-Disposition: form-data; name="model"\r\n\r\nwhisper-1';
    const file = 'Content-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF';
    const forms = [
      [model, 'Content-Disposition: form-data; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF'],
      [model, 'Content-Disposition: form-data\r\n\r\nwhisper-1', file],
    ];
    for (const parts of forms) {
      const res = await request(t.app)
        .post('/v1/audio/transcriptions')
        .set('authorization', `Bearer ${developerKey}`)
        .set('x-gateway-route', 'stt')
        .set('content-type', 'multipart/form-data; boundary=x')
        .send(parts.map((part) => `--x\r\n${part}\r\n`).join('') + '--x--\r\n')
        .expect(400);
      assert.equal(res.body.error.code, 'invalid_value');
      assert.match(res.body.error.message, /name/);
    }
    assert.equal(fake.requests.length, 0);
    const served = await routed('stt').audio.transcriptions.create({ file: await toFile(Buffer.from('RIFF'), 'a.wav'), model: 'whisper-1' });
    assert.ok(served.text);
  });

  it('an upload the client cuts off mid-file leaves no temporary file open', async function () {
    if (process.platform !== 'linux') this.skip(); // open files are read from /proc/self/fd
    const openUploads = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).includes('gateway-upload-');
        } catch {
          return false; // closed since the listing
        }
      }).length;
    const head = '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF';
    for (let i = 0; i < 5; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.write(`POST /v1/audio/transcriptions HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${developerKey}\r\nX-Gateway-Route: stt\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n${head}`);
      socket.write(Buffer.alloc(20_000, 1));
      await eventually(() => assert.ok(openUploads() > 0, 'the upload is being written'));
      socket.destroy();
      await eventually(() => assert.equal(openUploads(), 0), 10_000);
    }
    assert.equal(fake.requests.length, 0);
  });

  it('a compressed upload (Content-Encoding: gzip) is 415 unsupported_media_type, not read as a broken form', async () => {
    const form = '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\r\n--x--\r\n';
    const res = await request(t.app)
      .post('/v1/audio/transcriptions')
      .set('authorization', `Bearer ${developerKey}`)
      .set('x-gateway-route', 'stt')
      .set('content-type', 'multipart/form-data; boundary=x')
      .set('content-encoding', 'gzip')
      .send(gzipSync(form))
      .expect(415);
    assert.equal(res.body.error.code, 'unsupported_media_type');
    assert.equal(res.headers['accept-encoding'], 'identity');
    assert.equal(fake.requests.length, 0);
  });

  it('15.1: an upload is authenticated before its body is read: 401 comes back while the body is still unsent', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/audio/transcriptions', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(3 * 1024 * 1024), authorization: 'Bearer gwk_not-a-key' } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders(); // headers only: the 3 MB body is never sent
    });
    assert.equal(status, 401);
  });

  it('15.1: providers without the endpoint answer 400 unsupported_endpoint', async () => {
    for (const [call, provider] of [
      [() => routed('img-claude').images.generate({ model: 'x', prompt: 'p' }), 'anthropic'],
      [() => routed('tts-gemini').audio.speech.create({ model: 'x', voice: 'alloy', input: 'hi' }), 'gemini'],
      [() => routed('mod-azure').moderations.create({ input: 'hi' }), 'azure'],
    ] as const) {
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal((error.error as { code: string }).code, 'unsupported_endpoint');
        assert.match(error.message, new RegExp(provider));
        return true;
      });
    }
    assert.equal(fake.requests.length, 0);
  });

  it('15.1: a route of another type is refused, and the guardrail policy checks prompts and spoken input', async () => {
    await assert.rejects(routed('tts').images.generate({ model: 'x', prompt: 'p' }), (error: unknown) => (error as { error: { code: string } }).error.code === 'route_type_mismatch');
    await request(t.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'reject', processors: { banned_words: {} } }).expect(200);
    try {
      await assert.rejects(routed('img').images.generate({ model: 'x', prompt: 'something forbidden' }), (error: unknown) => (error as { error: { code: string } }).error.code === 'guardrail_rejected');
      const rejected = await lastEntry();
      assert.equal(rejected.endpoint, '/v1/images/generations', 'a refused request is logged under its endpoint');
      assert.equal(rejected.error.code, 'guardrail_rejected');
      await assert.rejects(routed('tts').audio.speech.create({ model: 'x', voice: 'alloy', input: 'say forbidden' }), (error: unknown) => (error as { error: { code: string } }).error.code === 'guardrail_rejected');
      assert.equal(fake.requests.length, 0);
      await routed('tts').audio.speech.create({ model: 'x', voice: 'alloy', input: 'say hello' });
      assert.equal(fake.requests.length, 1);
    } finally {
      await request(t.app).put('/v1/admin/applications/app/policy').set('x-api-key', TEST_KEYS.admin).send({ mode: 'inspect', processors: {} }).expect(200);
    }
  });
});
