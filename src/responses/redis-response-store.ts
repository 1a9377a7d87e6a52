// The store behind previous_response_id in Redis, shared by replicas: per-response hashes with a TTL, a byte bound kept by one Lua script per save.
import type { Redis } from 'ioredis';
import { Errors } from '../errors/error-registry.js';
import { firstConnection } from '../redis/redis-client.js';
import { assembleChain, DEFAULT_RESPONSE_STORE_BYTES, RESPONSE_OBJECT_PREFIX, type StoredResponseObject, type LoadedResponse, type ResponseStateStore, type ResponseStoreOptions, type StoredResponse } from './response-store.js';

/**
 * KEYS: the entry hash, the index (sorted set id → save time), the sizes hash, the byte total, the recency set
 * (sorted set id → last save or load). ARGV: id, parent ('' for none), state JSON, TTL ms, byte bound, entry key prefix.
 * Drops expired index entries (up to 1000 per save), stores the entry, then drops the least recently used entries
 * until the total fits.
 */
const SAVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id, ttl, max = ARGV[1], tonumber(ARGV[4]), tonumber(ARGV[5])
local function drop(old)
  local size = tonumber(redis.call('HGET', KEYS[3], old) or '0')
  redis.call('HDEL', KEYS[3], old)
  redis.call('ZREM', KEYS[2], old)
  redis.call('ZREM', KEYS[5], old)
  redis.call('DEL', ARGV[6] .. old)
  redis.call('DECRBY', KEYS[4], size)
end
if redis.call('HEXISTS', KEYS[3], id) == 1 then drop(id) end
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl, 'LIMIT', 0, 1000)) do drop(old) end
local total = redis.call('INCRBY', KEYS[4], string.len(ARGV[3]))
redis.call('HSET', KEYS[3], id, string.len(ARGV[3]))
redis.call('ZADD', KEYS[2], now, id)
redis.call('ZADD', KEYS[5], now, id)
redis.call('HSET', KEYS[1], 'p', ARGV[2], 's', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
while total > max do
  local oldest = redis.call('ZRANGE', KEYS[5], 0, 0)[1]
  if not oldest or oldest == id then break end
  drop(oldest)
  total = tonumber(redis.call('GET', KEYS[4]))
end
for i = 2, 5 do redis.call('PEXPIRE', KEYS[i], ttl) end
return total
`;

/**
 * KEYS: the entry key prefix, the recency set. ARGV: id, most links. Returns the states of the chain, newest first,
 * or nil when a link is gone. Every link read counts as used (its recency is now), so a conversation still being
 * continued is not the first evicted.
 */
const LOAD_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
local at = ARGV[1]
for i = 1, tonumber(ARGV[2]) do
  local entry = redis.call('HMGET', KEYS[1] .. at, 's', 'p')
  if not entry[1] then return nil end
  redis.call('ZADD', KEYS[2], 'XX', now, at)
  out[#out + 1] = entry[1]
  if not entry[2] or entry[2] == '' then return out end
  at = entry[2]
end
return nil
`;

interface ScriptedRedis {
  gatewayResponseSave(entry: string, index: string, sizes: string, total: string, recency: string, id: string, parent: string, json: string, ttlMs: number, maxBytes: number, entryPrefix: string): Promise<number>;
  gatewayResponseLoad(entryPrefix: string, recency: string, id: string, maxLinks: number): Promise<string[] | null>;
}

/** Longest chain walked: conversations longer than this cannot be continued. */
const MAX_LINKS = 10_000;

/**
 * Response states in Redis (standalone Redis; the scripts name entry keys they build), so a conversation or an
 * approval started on one replica continues on another. Each entry expires after `ttlMs`; the entries' bytes
 * are bounded by `maxBytes`, the least recently used (saved or loaded) dropped first, as in the in-process store; a
 * state over `maxEntryBytes` is not stored.
 * While Redis is unreachable, saving or loading answers 503 `storage_unavailable`, at once or after the command timeout.
 */
export class RedisResponseStore implements ResponseStateStore {
  private readonly prefix: string;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  private readonly ttlMs: number;
  private readonly connectTimeoutMs: number;

  constructor(
    private readonly client: Redis,
    options: ResponseStoreOptions & { keyPrefix?: string; connectTimeoutMs?: number } = {},
  ) {
    this.prefix = `${options.keyPrefix ?? 'gateway:'}response:`;
    this.maxBytes = options.maxBytes ?? DEFAULT_RESPONSE_STORE_BYTES;
    this.maxEntryBytes = Math.min(this.maxBytes, options.maxEntryBytes ?? Math.floor(this.maxBytes / 4));
    this.ttlMs = options.ttlMs ?? 3600_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    client.defineCommand('gatewayResponseSave', { numberOfKeys: 5, lua: SAVE_SCRIPT });
    client.defineCommand('gatewayResponseLoad', { numberOfKeys: 2, lua: LOAD_SCRIPT });
  }

  private connected = false;

  /** The client with the scripts, once its first connection is made (or given up: then commands fail at once). */
  private async scripted(): Promise<ScriptedRedis> {
    if (!this.connected) {
      await firstConnection(this.client, this.connectTimeoutMs);
      this.connected = true;
    }
    return this.client as unknown as ScriptedRedis;
  }

  async save(id: string, state: StoredResponse): Promise<void> {
    await this.saveEntry(id, state.parent ?? '', JSON.stringify(state));
  }

  private async saveEntry(id: string, parent: string, json: string): Promise<void> {
    if (Buffer.byteLength(json) > this.maxEntryBytes) return;
    const p = this.prefix;
    try {
      await (await this.scripted()).gatewayResponseSave(`${p}e:${id}`, `${p}index`, `${p}sizes`, `${p}bytes`, `${p}recency`, id, parent, json, this.ttlMs, this.maxBytes, `${p}e:`);
    } catch (error) {
      throw Errors.storageUnavailable(['redis'], { cause: error });
    }
  }

  async saveObject(id: string, application: string, response: Record<string, unknown>): Promise<void> {
    await this.saveEntry(`${RESPONSE_OBJECT_PREFIX}${id}`, '', JSON.stringify({ application, response } satisfies StoredResponseObject));
  }

  async loadObject(id: string, application: string): Promise<Record<string, unknown> | undefined> {
    let json: string | null;
    try {
      await this.scripted();
      json = await this.client.hget(`${this.prefix}e:${RESPONSE_OBJECT_PREFIX}${id}`, 's');
    } catch (error) {
      throw Errors.storageUnavailable(['redis'], { cause: error });
    }
    const stored = json ? (JSON.parse(json) as StoredResponseObject) : undefined;
    return stored?.application === application ? stored.response : undefined;
  }

  async load(id: string, application: string): Promise<LoadedResponse | undefined> {
    if (id.startsWith(RESPONSE_OBJECT_PREFIX)) return undefined;
    let chain: string[] | null;
    try {
      chain = await (await this.scripted()).gatewayResponseLoad(`${this.prefix}e:`, `${this.prefix}recency`, id, MAX_LINKS);
    } catch (error) {
      throw Errors.storageUnavailable(['redis'], { cause: error });
    }
    return chain ? assembleChain(chain.map((json) => JSON.parse(json) as StoredResponse), application) : undefined;
  }

  /** Bytes held now across all replicas. */
  async bytes(): Promise<number> {
    return Number((await this.client.get(`${this.prefix}bytes`)) ?? 0);
  }
}
