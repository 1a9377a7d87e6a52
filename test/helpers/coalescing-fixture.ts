// A gateway with a cached chat route on loopback and a fake upstream that holds chosen answers: for the miss-coalescing tests.
import assert from 'node:assert/strict';
import request from 'supertest';
import { eventually } from './eventually.js';
import { listenOnLoopback, type LoopbackServer } from './loopback-server.js';
import { TEST_KEYS } from './test-gateway.js';
import { createTrafficFixture, type TrafficFixture } from './traffic-fixture.js';
import type { FakeRequest } from './fake-provider.js';
import type { GatewayOptions, MissCoalescer } from '../../src/index.js';

/** A cached chat route without retries, so an upstream failure is the answer. */
const CACHED_ROUTE = { name: 'cached', type: 'chat', models: [{ name: 'gpt-4o-mini', provider: 'fake' }], config: { settings: { retries: 0 }, cache: { ttl_seconds: 60 } } };

/** A gateway with the cached route on a loopback server, and a fake upstream that can hold an answer until released. */
export interface Coalescing {
  f: TrafficFixture;
  server: LoopbackServer;
  /** The next upstream request asking `content` is held until the returned function is called, then answered `answer`. */
  holdNext(content: string, answer?: { text?: string; fail?: { status: number } }): () => void;
  /** POSTs a chat request for `content` to the cached route over real HTTP. */
  ask(content: string, options?: { stream?: boolean; headers?: Record<string, string>; signal?: AbortSignal }): Promise<Response>;
  coalescer(): MissCoalescer;
  /**
   * Waits until `count` requests sent after the upstream had seen `seen` are in: waiting as followers or, were they not
   * coalesced, seen upstream. Then asserts the upstream still has seen only `seen`: they are all waiting.
   */
  followersIn(count: number, seen: number): Promise<void>;
  close(): Promise<void>;
}

/** {@link eventually} with a deadline that a loaded machine does not reach: these waits are for requests in flight on loopback. */
export const until = <T>(check: () => T | Promise<T>): Promise<T> => eventually(check, 15_000);

const contentOf = (request: FakeRequest): unknown => (request.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages?.[0]?.content;

/**
 * Starts the gateway (with `options`), its cached route `cached` (no retries) and a loopback server; the fake upstream
 * answers "Fresh." at once unless {@link Coalescing.holdNext} holds the next request for a content.
 * @example
 * const c = await coalescing();
 * const release = c.holdNext('Hi');
 * const leader = c.ask('Hi');
 */
export async function coalescing(options: GatewayOptions = {}): Promise<Coalescing> {
  const f = await createTrafficFixture(options);
  await f.create('/v1/admin/routes', CACHED_ROUTE);
  const server = await listenOnLoopback(f.app);
  const held = new Map<string, { hold: Promise<void>; text?: string; fail?: { status: number } }>();
  const releases: Array<() => void> = [];
  const coalescer = (): MissCoalescer => {
    assert.ok(f.gateway.cacheCoalescer, 'the gateway has a miss coalescer');
    return f.gateway.cacheCoalescer;
  };
  // Held answers are one-shot; any other request is answered at once with "Fresh." (so a second upstream call shows).
  f.fake.script((req) => {
    const content = String(contentOf(req));
    const answer = held.get(content);
    held.delete(content);
    return answer ?? { text: 'Fresh.' };
  });
  return {
    f,
    server,
    holdNext(content, answer = { text: 'From the leader.' }) {
      let release!: () => void;
      held.set(content, { hold: new Promise<void>((resolve) => (release = resolve)), ...answer });
      releases.push(release);
      return release;
    },
    ask: (content, { stream = false, headers = {}, signal } = {}) =>
      fetch(`${server.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gateway-apikey': f.developerKey, 'x-gateway-route': 'cached', ...headers },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], stream }),
        signal,
      }),
    coalescer,
    async followersIn(count, seen) {
      await until(() => assert.ok((f.gateway.cacheCoalescer?.waiting ?? 0) + f.fake.requests.length - seen >= count, `waiting ${f.gateway.cacheCoalescer?.waiting}, upstream ${f.fake.requests.length}`));
      assert.equal(f.fake.requests.length, seen, 'the followers wait: none went upstream');
      assert.equal(coalescer().waiting, count);
    },
    async close() {
      for (const release of releases) release();
      server.server.closeAllConnections();
      server.close();
      await f.close();
    },
  };
}

/** An answer's status, cache header and JSON body. */
export async function read(answer: Response | Promise<Response>): Promise<{ status: number; cache: string | null; body: { choices: Array<{ message: { content: string } }> } }> {
  const response = await answer;
  return { status: response.status, cache: response.headers.get('x-gateway-cache'), body: (await response.json()) as never };
}

/** The text of an SSE answer, its deltas joined; asserts it ends with [DONE]. */
export async function streamedText(response: Response): Promise<string> {
  const payloads = (await response.text()).split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
  assert.equal(payloads.at(-1), '[DONE]');
  return payloads.slice(0, -1).map((payload) => (JSON.parse(payload) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content ?? '').join('');
}

/** The application's last `count` Chronicles entries, once there are that many. */
export async function chronicles(f: TrafficFixture, count: number): Promise<Array<Record<string, unknown>>> {
  return until(async () => {
    const list = await request(f.app).get(`/v1/admin/applications/app/chronicles?limit=${count}`).set('x-api-key', TEST_KEYS.viewer).expect(200);
    assert.equal(list.body.data.length, count);
    return list.body.data as Array<Record<string, unknown>>;
  });
}

