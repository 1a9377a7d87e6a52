// Helpers of the usage tests: requests through a traffic fixture, SSE parsing, and waiting until usage is counted.
import assert from 'node:assert/strict';
import request from 'supertest';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { chatBody, type TrafficFixture } from '../helpers/traffic-fixture.js';

/** A chat request on route `chat` with the fixture's developer key (or `key`). */
export const chat = (f: TrafficFixture, extra: Record<string, unknown> = {}, key = f.developerKey) =>
  request(f.app).post('/v1/chat/completions').set({ 'x-gateway-apikey': key, 'x-gateway-route': 'chat' }).send(chatBody(extra));

/** An admin request as super_admin. */
export const admin = (f: TrafficFixture, method: 'get' | 'put' | 'post' | 'delete', path: string, role: keyof typeof TEST_KEYS = 'superAdmin') =>
  request(f.app)[method](path).set('x-api-key', TEST_KEYS[role]);

/** The `data:` payloads of an SSE answer body. */
export function ssePayloads(text: string): string[] {
  return text
    .split(/\n\n/)
    .flatMap((event) => event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)))
    .filter((data) => data !== '');
}

/** Waits (polling, 10 s deadline) until `count` requests were metered, then until their spend and tokens are added. */
export async function metered(f: Pick<TrafficFixture, 'gateway'>, count: number): Promise<void> {
  const started = Date.now();
  while (f.gateway.usage.metered < count) {
    assert.ok(Date.now() - started < 10_000, `${count} requests were metered within 10 s (got ${f.gateway.usage.metered})`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await f.gateway.usage.idle();
}

/** Sets prices of the openai type so that every fake answer (10 prompt, 5 completion tokens) costs exactly 1 USD. */
export async function oneDollarPerAnswer(f: TrafficFixture): Promise<void> {
  await admin(f, 'put', '/v1/admin/prices/openai').send({ models: { 'gpt-4o-mini': { input: 50_000, output: 100_000 } } }).expect(200);
}
