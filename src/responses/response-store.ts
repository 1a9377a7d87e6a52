// Keeps the state of recent responses in memory, so `previous_response_id` can continue a conversation or an approval.
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

/** What a later request needs of an earlier response. */
export interface StoredResponse {
  application: string;
  messages: ChatMessage[];
  pending: PendingApproval[];
}

/** Recent responses, by id, for one hour and at most 10,000 (not persisted across restarts). */
export class ResponseStore {
  private readonly cache = new LRUCache<string, StoredResponse>({ max: 10_000, ttl: 3600_000 });

  save(id: string, state: StoredResponse): void {
    this.cache.set(id, state);
  }

  /** The stored state, when it exists and belongs to the application. */
  load(id: string, application: string): StoredResponse | undefined {
    const state = this.cache.get(id);
    return state?.application === application ? state : undefined;
  }
}
