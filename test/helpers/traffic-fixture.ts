// Sets up model traffic for tests: a fake provider, a test gateway, an application with a developer key.
import request from 'supertest';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from './test-gateway.js';
import type { GatewayOptions } from '../../src/index.js';
import { listenJsonUpstream, listenOnLoopback, type JsonUpstreamAnswer, type LoopbackServer, type RawLoopbackServer } from './loopback-server.js';

/** A gateway in front of a fake provider, with one application and its developer key. */
export interface TrafficFixture extends TestGateway {
  fake: FakeProvider;
  developerKey: string;
  /** Creates an admin resource as super_admin; fails the test on any error. */
  create(path: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<void>;
}

/** Quick retries for tests: 5 ms steps. */
export const FAST_RETRIES: GatewayOptions['retryTiming'] = { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 };

/**
 * Starts a fake provider and a gateway with provider `fake` (type openai) pointing at it,
 * application `app` and a developer key.
 */
export async function createTrafficFixture(options: GatewayOptions = {}): Promise<TrafficFixture> {
  const fake = await startFakeProvider();
  const t = await createTestGateway({ retryTiming: FAST_RETRIES, ...options });
  const create = async (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<void> => {
    const res = await request(t.app).post(path).set('x-api-key', TEST_KEYS.superAdmin).set(headers).send(body);
    if (res.status !== 201) throw new Error(`creating ${path} failed: ${res.status} ${res.text}`);
  };
  await create('/v1/admin/providers', {
    name: 'fake',
    type: 'openai',
    config: { api_base: `${fake.url}/v1`, models: ['gpt-4o-mini', 'text-embedding-3-small'] },
    api_keys: [{ api_key_secret_name: 'main', api_key: 'sk-stored-provider-key-0001' }],
  });
  await create('/v1/admin/applications', { name: 'app' });
  const key = await request(t.app).post('/v1/admin/applications/app/keys').set('x-api-key', TEST_KEYS.superAdmin).send({});
  return {
    ...t,
    fake,
    developerKey: key.body.key as string,
    create,
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

/** A minimal chat body. */
export const chatBody = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Hello' }],
  ...extra,
});

/**
 * Adds providers `claude` (Anthropic format) and `gem` (Gemini format) on `upstream` (default: the fixture's fake
 * upstream), and chat routes `via-anthropic` and `via-gemini` to them, for tests of the translating adapters. With
 * `openai`, also provider `oai` (OpenAI format, `{upstream}/v1`) and route `via-openai` to its model `gpt-x`.
 */
export async function addTranslatedRoutes(f: TrafficFixture, upstream = f.fake.url, options: { openai?: boolean } = {}): Promise<void> {
  if (options.openai) {
    await f.create('/v1/admin/providers', { name: 'oai', type: 'openai', config: { api_base: `${upstream}/v1` }, api_keys: [{ api_key: 'sk-oai-provider-key-000001' }] });
    await f.create('/v1/admin/routes', { name: 'via-openai', type: 'chat', models: [{ name: 'gpt-x', provider: 'oai' }] });
  }
  await f.create('/v1/admin/providers', { name: 'claude', type: 'anthropic', config: { api_base: upstream }, api_keys: [{ api_key: 'sk-ant-provider-key-000001' }] });
  await f.create('/v1/admin/providers', { name: 'gem', type: 'gemini', config: { api_base: upstream }, api_keys: [{ api_key: 'gemini-provider-key-000001' }] });
  await f.create('/v1/admin/routes', { name: 'via-anthropic', type: 'chat', models: [{ name: 'claude-x', provider: 'claude' }] });
  await f.create('/v1/admin/routes', { name: 'via-gemini', type: 'chat', models: [{ name: 'gemini-x', provider: 'gem' }] });
}

/** A gateway with the translated routes of {@link addTranslatedRoutes} in front of one scripted upstream, listening on loopback. */
export interface TranslatedGateway {
  f: TrafficFixture;
  /** The scripted upstream every translated provider points at. */
  upstream: RawLoopbackServer;
  /** The gateway's own loopback server (clients use `server.base`). */
  server: LoopbackServer;
  /** Closes the server, the gateway and the upstream. */
  close(): Promise<void>;
}

/**
 * Starts an upstream that answers with `answer` (its JSON body parsed), a traffic fixture with `gateway` options and
 * the translated routes on that upstream (`via-openai` too unless `openai` is false), served on loopback.
 */
export async function startTranslatedGateway(answer: JsonUpstreamAnswer, options: { gateway?: GatewayOptions; openai?: boolean } = {}): Promise<TranslatedGateway> {
  const upstream = await listenJsonUpstream(answer);
  const f = await createTrafficFixture(options.gateway);
  await addTranslatedRoutes(f, upstream.url, { openai: options.openai ?? true });
  const server = await listenOnLoopback(f.app);
  return {
    f,
    upstream,
    server,
    close: async () => {
      server.close();
      await f.close();
      await upstream.close();
    },
  };
}

/** "Done." as a Chat Completions answer and as a Messages answer. */
const DONE_ANSWERS: Record<'openai' | 'anthropic', Record<string, unknown>> = {
  anthropic: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 2 } },
  openai: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } },
};

/**
 * {@link startTranslatedGateway} with `gateway` options, in front of an upstream that answers "Done." in the format
 * each request came in (OpenAI's chat, or Anthropic's), and pushes every body it receives to `received`.
 */
export function startDoneGateway(received: Array<Record<string, unknown>>, gateway?: GatewayOptions): Promise<TranslatedGateway> {
  return startTranslatedGateway((res, body, req) => {
    received.push(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(DONE_ANSWERS[req.url?.endsWith('/chat/completions') ? 'openai' : 'anthropic']));
  }, { gateway });
}
