// Where cached answers live: the store contract, its options, and the in-process store (lru-cache bounded by bytes).
import { LRUCache } from 'lru-cache';
import type { MissCoalescingOptions } from './miss-coalescer.js';

/** Options of the response cache (`createGateway({ cache })`). */
export interface ResponseCacheOptions {
  /** Bytes of cached answers held in process before the least recently used are dropped. Default 32 MiB. Not used with Redis. */
  maxBytes?: number;
  /** Largest answer stored, in bytes of JSON; a larger one is answered but not cached. Default 1 MiB (at most `maxBytes`). */
  maxEntryBytes?: number;
  /** Concurrent misses of one key wait for the first one's answer, within one process (see MissCoalescer); `false` turns it off. */
  coalescing?: MissCoalescingOptions | false;
}

/** Default in-process bound: 32 MiB. */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** Default per-answer bound: 1 MiB. */
export const DEFAULT_CACHE_ENTRY_BYTES = 1024 * 1024;

/** A store of cached answers (UTF-8 JSON in OpenAI's format) by key, each with its own time to live. */
export interface ResponseCacheStore {
  /** The answer stored under `key`, or undefined when there is none or it expired. */
  get(key: string): Promise<Buffer | undefined>;
  /** Stores an answer for `ttlMs`; an answer over the per-entry bound is not stored. */
  set(key: string, answer: Buffer, ttlMs: number): Promise<void>;
  /** Answers held (in process) or undefined where the store cannot tell cheaply (Redis). */
  readonly size?: number;
}

/**
 * Cached answers in process: lru-cache bounded by `maxBytes` (the key's and the answer's bytes), each entry expiring
 * after its route's TTL. `now` (ms) replaces the clock, for tests.
 */
export class MemoryResponseCache implements ResponseCacheStore {
  private readonly cache: LRUCache<string, Buffer>;

  constructor(options: ResponseCacheOptions = {}, now?: () => number) {
    const maxSize = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.cache = new LRUCache<string, Buffer>({
      maxSize,
      maxEntrySize: Math.min(maxSize, options.maxEntryBytes ?? DEFAULT_CACHE_ENTRY_BYTES),
      sizeCalculation: (value, key) => value.length + key.length,
      ttlAutopurge: false,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  get(key: string): Promise<Buffer | undefined> {
    return Promise.resolve(this.cache.get(key));
  }

  set(key: string, answer: Buffer, ttlMs: number): Promise<void> {
    this.cache.set(key, answer, { ttl: ttlMs });
    return Promise.resolve();
  }

  get size(): number {
    return this.cache.size;
  }
}
