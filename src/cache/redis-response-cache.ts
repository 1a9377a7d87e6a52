// Cached answers in Redis, shared by replicas: one string key per answer with a PX expiry, answers over the entry bound not stored.
import type { Redis } from 'ioredis';
import { firstConnection } from '../redis/redis-client.js';
import { DEFAULT_CACHE_ENTRY_BYTES, type ResponseCacheOptions, type ResponseCacheStore } from './response-cache-store.js';

/**
 * Stores each answer under `<keyPrefix>cache:<application>:<hash>` with `SET … PX <ttl>`, so Redis drops it when its
 * route's TTL passes. Only `maxEntryBytes` bounds an answer; the total is bounded by Redis's own `maxmemory` policy.
 * Commands fail fast while Redis is down (the shared client has no offline queue): the caller treats that as a miss.
 */
export class RedisResponseCache implements ResponseCacheStore {
  private readonly prefix: string;
  private readonly maxEntryBytes: number;
  private readonly connectTimeoutMs: number;
  private connected = false;

  constructor(
    private readonly client: Redis,
    options: ResponseCacheOptions & { keyPrefix?: string; connectTimeoutMs?: number } = {},
  ) {
    this.prefix = `${options.keyPrefix ?? 'gateway:'}cache:`;
    this.maxEntryBytes = options.maxEntryBytes ?? DEFAULT_CACHE_ENTRY_BYTES;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  }

  /** Waits for the first connection once, so the first requests after start do not fail for want of it. */
  private async ready(): Promise<Redis> {
    if (!this.connected) {
      await firstConnection(this.client, this.connectTimeoutMs);
      this.connected = true;
    }
    return this.client;
  }

  async get(key: string): Promise<Buffer | undefined> {
    return (await (await this.ready()).getBuffer(this.prefix + key)) ?? undefined;
  }

  async set(key: string, answer: Buffer, ttlMs: number): Promise<void> {
    if (answer.length > this.maxEntryBytes) return;
    await (await this.ready()).set(this.prefix + key, answer, 'PX', ttlMs);
  }
}
