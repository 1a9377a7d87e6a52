// Redis for tests: the test Redis URL, a probe, throw-away key prefixes gw_test_<random>: and their clean-up.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { requireService } from './require-service.js';
import { tcpCut, type TcpCut } from './tcp-cut.js';

/** The Redis tests use: `GATEWAY_TEST_REDIS_URL`, default the local server. */
export const TEST_REDIS_URL = process.env.GATEWAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Connects once and sends PING, failing within a few seconds when the server is not there. */
export async function probeRedis(url = TEST_REDIS_URL): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } finally {
    client.disconnect();
  }
}

/** Declares that the enclosing `describe` needs Redis (see {@link requireService}). */
export function requireRedis(url = TEST_REDIS_URL): void {
  requireService('redis', url, () => probeRedis(url));
}

/** A fresh key prefix, `gw_test_<16 hex>:`. */
export function testKeyPrefix(): string {
  return `gw_test_${randomBytes(8).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN, never KEYS). */
export async function deleteKeys(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 500);
      if (keys.length) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** The port of a redis:// URL (6379 by default). */
export function redisPort(url = TEST_REDIS_URL): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) };
}

/**
 * A relay in front of the test Redis that a test can cut ({@link tcpCut}), and the Redis URL that goes through it.
 * @example
 * const { relay, url } = await redisThroughCut();
 * const f = await createTrafficFixture({ redis: { url, keyPrefix } });
 * await relay.cut(); // Redis is now unreachable for that gateway
 */
export async function redisThroughCut(): Promise<{ relay: TcpCut; url: string }> {
  const { host, port } = redisPort();
  const relay = await tcpCut(host, port);
  const url = new URL(TEST_REDIS_URL);
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return { relay, url: url.toString() };
}

/**
 * Waits (polling, 10 s deadline) until the shared rate window of `route` (the sorted set `<keyPrefix>rate:<route>`
 * of the leased route rate limits) holds no slot: each one leased or used has left it, its score (the latest time it
 * may be or was used, on Redis's clock) being over `intervalMs` old, or was given back. A slot's score is lowered to
 * its use only when its replica's settle arrives, so a fixed wait after a burst cannot tell the window is empty on a
 * loaded machine: this reads it.
 */
export async function rateWindowEmpty(keyPrefix: string, route: string, intervalMs: number, url = TEST_REDIS_URL): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    const started = Date.now();
    for (;;) {
      const [seconds, micros] = await client.time();
      const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const held = await client.zcount(`${keyPrefix}rate:${route}`, `(${now - intervalMs}`, '+inf');
      if (held === 0) return;
      if (Date.now() - started > 10_000) throw new Error(`the rate window of ${route} still held ${held} slots after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.disconnect();
  }
}
