// Transcriptions with the form field stream=true: relayed byte for byte, recorded as streams, with a time to first token.
import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import OpenAI, { toFile } from 'openai';
import request from 'supertest';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { startFakeMediaProvider, type FakeMediaProvider } from '../helpers/fake-media-provider.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { scrapeUntil } from '../helpers/prometheus-scrape.js';
import { eventually } from '../helpers/eventually.js';

describe('streamed transcriptions (stream=true in the upload form)', function () {
  this.timeout(30_000);
  let t: TestGateway;
  let fake: FakeMediaProvider;
  let server: LoopbackServer;
  let client: OpenAI;
  const admin = (path: string, body: object) => request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).send(body).expect(201);
  const metricsApp = (): Express => express().use(t.gateway.metrics);
  const lastEntry = () =>
    eventually(async () => {
      const entry = (await request(t.app).get('/v1/admin/applications/app/chronicles?limit=1').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data[0];
      assert.equal(entry?.endpoint, '/v1/audio/transcriptions');
      return entry;
    });

  before(async () => {
    fake = await startFakeMediaProvider();
    t = await createTestGateway({ metrics: {} });
    await admin('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${fake.url}/v1` }, api_keys: [{ api_key: 'sk-transcription-streams-01' }] });
    await admin('/v1/admin/routes', { name: 'stt', type: 'transcriptions', models: [{ name: 'gpt-4o-mini-transcribe', provider: 'oai' }] });
    await admin('/v1/admin/applications', { name: 'app' });
    const developerKey = (await request(t.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({}).expect(201)).body.key;
    server = await listenOnLoopback(t.app);
    client = new OpenAI({ apiKey: developerKey, baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'stt' } });
  });
  after(async () => {
    server.close();
    await t.close();
    await fake.close();
  });

  const file = async () => toFile(Buffer.alloc(2048, 7), 'talk.mp3', { type: 'audio/mpeg' });

  it('the events reach the client as the provider sent them, and the request log records stream: true', async () => {
    const stream = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe', stream: true });
    const events: Array<{ type: string }> = [];
    for await (const event of stream) events.push(event as { type: string });
    assert.deepEqual(events.map((event) => event.type), ['transcript.text.delta', 'transcript.text.done']);
    assert.equal(fake.requests.at(-1)?.body.stream, 'true');
    assert.equal((await lastEntry()).stream, true);
  });

  it("the request log records a streamed transcription's text and usage, read from the relayed events, as it records a JSON one's", async () => {
    // Each entry is found by the request id its answer carries, so an earlier entry is never read instead.
    const entryOf = (id: string | null) =>
      eventually(async () => {
        const entries = (await request(t.app).get('/v1/admin/applications/app/chronicles?limit=10').set('x-api-key', TEST_KEYS.admin).expect(200)).body.data as Array<{ id: string; stream: boolean; output: unknown; usage: unknown }>;
        const entry = entries.find((candidate) => candidate.id === id);
        assert.ok(entry, `no entry ${id}`);
        return entry;
      });
    const { data: stream, response } = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe', stream: true }).withResponse();
    for await (const _event of stream) void _event;
    const streamed = await entryOf(response.headers.get('x-gateway-request-id'));
    assert.equal(streamed.stream, true);
    assert.equal(streamed.output, 'heard 2048 bytes');
    assert.deepEqual(streamed.usage, { type: 'tokens', input_tokens: 5, output_tokens: 3, total_tokens: 8 });
    const plain = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe' }).withResponse();
    const json = await entryOf(plain.response.headers.get('x-gateway-request-id'));
    assert.equal(json.stream, false);
    assert.equal(json.output, 'heard 2048 bytes');
    assert.deepEqual(json.usage, { type: 'duration', seconds: 3 });
  });

  it('a streamed transcription is measured for time to first token; an unstreamed one is recorded with stream: false', async () => {
    await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe' });
    assert.equal((await lastEntry()).stream, false);
    const before = await scrapeUntil(metricsApp(), () => undefined);
    const counted = before.count('gen_ai_server_time_to_first_token_seconds', { gen_ai_request_model: 'gpt-4o-mini-transcribe' });
    const stream = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-mini-transcribe', stream: true });
    for await (const _event of stream) void _event;
    await scrapeUntil(metricsApp(), (m) => assert.equal(m.count('gen_ai_server_time_to_first_token_seconds', { gen_ai_request_model: 'gpt-4o-mini-transcribe' }), counted + 1));
  });
});
