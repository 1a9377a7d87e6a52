// Picks the response cache's store (Redis when the gateway has a Redis connection, otherwise in process) and its miss coalescer.
import type { Redis } from 'ioredis';
import type { GatewayOptions } from '../gateway-options.js';
import { RedisResponseCache } from './redis-response-cache.js';
import { MissCoalescer } from './miss-coalescer.js';
import { MemoryResponseCache, type ResponseCacheStore } from './response-cache-store.js';

/** The store for `createGateway(options)`: {@link RedisResponseCache} on the gateway's Redis client when there is one, else {@link MemoryResponseCache}. */
export function createResponseCacheStore(options: Pick<GatewayOptions, 'cache' | 'redis' | 'now'>, redis: Redis | undefined): ResponseCacheStore {
  if (redis) return new RedisResponseCache(redis, { ...options.cache, keyPrefix: options.redis?.keyPrefix, connectTimeoutMs: options.redis?.connectTimeoutMs });
  const now = options.now;
  return new MemoryResponseCache(options.cache, now ? () => now().getTime() : undefined);
}

/** The miss coalescer for `createGateway(options)`, one per gateway process; undefined with `cache.coalescing: false`. */
export function createMissCoalescer(options: Pick<GatewayOptions, 'cache'>): MissCoalescer | undefined {
  const coalescing = options.cache?.coalescing;
  return coalescing === false ? undefined : new MissCoalescer(coalescing);
}
