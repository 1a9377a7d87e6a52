// Keeps the state of recent responses in memory, bounded by bytes with LRU eviction, so `previous_response_id` can continue a conversation or an approval.
import { LRUCache } from 'lru-cache';
import type { ChatMessage } from './input-items.js';

/** A tool call waiting for the client's approval. */
export interface PendingApproval {
  approval_request_id: string;
  call_id: string;
  server_label: string;
  tool: string;
  arguments: string;
}

/** What one response adds to its conversation: the messages new in it (the earlier ones live in `parent`), and its pending approvals. */
export interface StoredResponse {
  application: string;
  /** The response this one continued, whose transcript comes before `messages`. */
  parent?: string;
  messages: ChatMessage[];
  pending: PendingApproval[];
}

/** The conversation up to a response, rebuilt from its chain. */
export interface LoadedResponse {
  messages: ChatMessage[];
  pending: PendingApproval[];
}

/** Limits of the response store. */
export interface ResponseStoreOptions {
  /** Total bytes of stored state (UTF-8 JSON) before the least recently used responses are dropped. Default 64 MB. */
  maxBytes?: number;
  /** Largest state of one response; a larger one is not stored (its id cannot be continued). Default a quarter of maxBytes. */
  maxEntryBytes?: number;
  /** How long a response can be continued, in ms. Default one hour. */
  ttlMs?: number;
}

/**
 * Where response states live: in process ({@link ResponseStore}) or in Redis shared by replicas
 * (`RedisResponseStore`). Both answer the same; the Redis one asynchronously.
 */
export interface ResponseStateStore {
  /** Stores a response's state; skipped when larger than the per-entry limit. */
  save(id: string, state: StoredResponse): void | Promise<void>;
  /** The conversation up to the response, or undefined when any link is gone or belongs to another application. */
  load(id: string, application: string): LoadedResponse | undefined | Promise<LoadedResponse | undefined>;
  /** Stores a finished response object for GET /v1/responses/:id, under the same bounds; skipped when too large. */
  saveObject(id: string, application: string, response: Record<string, unknown>): void | Promise<void>;
  /** A finished response object, or undefined when it is gone or belongs to another application. */
  loadObject(id: string, application: string): Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
}

/** The prefix of the entries holding response objects, beside the conversation states; a `previous_response_id` never names one. */
export const RESPONSE_OBJECT_PREFIX = 'object:';

/** A stored response object with its owner. */
export interface StoredResponseObject {
  application: string;
  response: Record<string, unknown>;
}

/** Rebuilds a conversation from its chain of states, newest first; undefined when one belongs to another application. */
export function assembleChain(newestFirst: StoredResponse[], application: string): LoadedResponse | undefined {
  if (newestFirst.length === 0 || newestFirst.some((state) => state.application !== application)) return undefined;
  return { messages: [...newestFirst].reverse().flatMap((state) => state.messages), pending: newestFirst[0]!.pending };
}

/** Default total size of the store: 64 MB. */
export const DEFAULT_RESPONSE_STORE_BYTES = 64 * 1024 * 1024;

/**
 * Recent responses by id (not persisted across restarts). Each entry holds only what its response
 * added, serialized, and points at the response it continued; loading walks the chain. When a link
 * of the chain was evicted, the response can no longer be continued.
 */
export class ResponseStore implements ResponseStateStore {
  private readonly cache: LRUCache<string, Buffer>;

  constructor(options: ResponseStoreOptions = {}) {
    const maxSize = options.maxBytes ?? DEFAULT_RESPONSE_STORE_BYTES;
    this.cache = new LRUCache<string, Buffer>({
      max: 10_000,
      maxSize,
      maxEntrySize: Math.min(maxSize, options.maxEntryBytes ?? Math.floor(maxSize / 4)),
      sizeCalculation: (value) => Math.max(1, value.length),
      ttl: options.ttlMs ?? 3600_000,
    });
  }

  /** Stores a response's state; silently skipped when larger than the per-entry limit. */
  save(id: string, state: StoredResponse): void {
    this.cache.set(id, Buffer.from(JSON.stringify(state)));
  }

  /** The conversation up to the response, when it (and every response it continued) is still stored and belongs to the application. */
  load(id: string, application: string): LoadedResponse | undefined {
    if (id.startsWith(RESPONSE_OBJECT_PREFIX)) return undefined;
    const chain: StoredResponse[] = [];
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined; ) {
      if (seen.has(at)) return undefined;
      seen.add(at);
      const raw = this.cache.get(at);
      if (!raw) return undefined;
      const state = JSON.parse(raw.toString('utf8')) as StoredResponse;
      if (state.application !== application) return undefined;
      chain.push(state);
      at = state.parent;
    }
    return { messages: chain.reverse().flatMap((state) => state.messages), pending: chain.at(-1)!.pending };
  }

  saveObject(id: string, application: string, response: Record<string, unknown>): void {
    this.cache.set(`${RESPONSE_OBJECT_PREFIX}${id}`, Buffer.from(JSON.stringify({ application, response } satisfies StoredResponseObject)));
  }

  loadObject(id: string, application: string): Record<string, unknown> | undefined {
    const raw = this.cache.get(`${RESPONSE_OBJECT_PREFIX}${id}`);
    const stored = raw ? (JSON.parse(raw.toString('utf8')) as StoredResponseObject) : undefined;
    return stored?.application === application ? stored.response : undefined;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }
}
