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
