// Usage totals per day, application incarnation, developer key, route and model: added to as requests end, summed by the usage API.
import { Errors } from '../errors/error-registry.js';
import type { CounterValue } from '../storage/storage-adapter.js';
import type { CounterStore } from './counter-store.js';
import type { TokenUsage } from './usage-extractor.js';

/** What the usage API groups by. */
export const USAGE_GROUPS = ['application', 'key', 'route', 'model', 'day'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** One row of the usage API (grouped by application, it also names the incarnation: `application_created_at`). */
export interface UsageRow {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** Input written to the provider's prompt cache (Anthropic's cache writes, billed above `input`); 0 in totals stored before it was counted. */
  cache_write_tokens: number;
  total_tokens: number;
  cost_usd: number;
  /** Requests whose answer reported usage but whose model has no price: their cost is unknown, not in `cost_usd`. */
  unpriced_requests: number;
}

const FIELDS = ['requests', 'prompt_tokens', 'completion_tokens', 'cached_tokens', 'cache_write_tokens', 'cost_usd', 'unpriced_requests'] as const;
const BUCKET = 'usage/';
/**
 * At most this many (day, application, key, route, model) rows wait for a flush by default (a long storage outage,
 * or very many routes and models); beyond it, a new row is folded into its (day, application, key) row of
 * {@link OTHER_ROUTE_OR_MODEL}.
 */
const MAX_PENDING_ROWS = 50_000;
/** The route and model of usage folded together once the pending rows reach their bound: counted, not broken down. */
export const OTHER_ROUTE_OR_MODEL = '(other)';

const emptyRow = (): UsageRow => ({ requests: 0, prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, total_tokens: 0, cost_usd: 0, unpriced_requests: 0 });

/**
 * Usage totals kept in the counter store, one bucket per UTC day (`usage/2026-11-25`) and one item per application,
 * developer key, route, model and application incarnation (its `created_at`; items written before it have four parts). Requests add to pending totals in memory; {@link flush} adds them to storage in one
 * write (PostgreSQL: one atomic upsert, so replicas add up). Reads never scan the request log.
 */
export class UsageTotals {
  private pending = new Map<string, { bucket: string; item: string; row: Record<(typeof FIELDS)[number], number> }>();

  /** @param maxPendingRows how many rows may wait for a flush before new ones are folded (default 50,000). */
  constructor(
    private readonly store: CounterStore,
    private readonly maxPendingRows = MAX_PENDING_ROWS,
  ) {}

  /**
   * Adds one finished request of UTC day `day` (`YYYY-MM-DD`) of the application's incarnation `incarnation`. Once
   * `maxPendingRows` rows wait, a request of a new row counts under route and model {@link OTHER_ROUTE_OR_MODEL} of
   * its day, application and key instead (rows bounded by those, which only admins create): nothing is dropped.
   * `costUsd` null: the answer has usage but its model no price (counted in `unpriced_requests`, not in `cost_usd`).
   */
  record(day: string, application: string, incarnation: string, key: string, route: string, model: string, usage: TokenUsage | null, costUsd: number | null): void {
    let id = `${day}\u0000${application}\u0000${incarnation}\u0000${key}\u0000${route}\u0000${model}`;
    let pending = this.pending.get(id);
    if (!pending && this.pending.size >= this.maxPendingRows) {
      [route, model] = [OTHER_ROUTE_OR_MODEL, OTHER_ROUTE_OR_MODEL];
      id = `${day}\u0000${application}\u0000${incarnation}\u0000${key}\u0000${route}\u0000${model}`;
      pending = this.pending.get(id);
    }
    if (!pending) {
      const row = { requests: 0, prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0, unpriced_requests: 0 };
      pending = { bucket: BUCKET + day, item: JSON.stringify([application, key, route, model, incarnation]), row };
      this.pending.set(id, pending);
    }
    pending.row.requests += 1;
    pending.row.prompt_tokens += usage?.prompt_tokens ?? 0;
    pending.row.completion_tokens += usage?.completion_tokens ?? 0;
    pending.row.cached_tokens += usage?.cached_tokens ?? 0;
    pending.row.cache_write_tokens += usage?.cache_write_tokens ?? 0;
    if (costUsd === null) pending.row.unpriced_requests += 1;
    else pending.row.cost_usd += costUsd;
  }

  /** Adds the pending totals to storage; on failure they are kept for the next flush. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const increments: CounterValue[] = [];
    for (const { bucket, item, row } of batch.values()) {
      for (const field of FIELDS) if (row[field] !== 0) increments.push({ bucket, item, field, amount: row[field] });
    }
    try {
      await this.store.add(increments);
    } catch (error) {
      for (const [id, waiting] of batch) {
        const newer = this.pending.get(id);
        if (newer) for (const field of FIELDS) newer.row[field] += waiting.row[field];
        else this.pending.set(id, waiting);
      }
      throw error;
    }
  }

  /**
   * Totals of the UTC days `from` to `to` (inclusive, `YYYY-MM-DD`), one row per value of `groupBy`, largest cost first.
   * By application, one row per incarnation: an application deleted and re-created under its name has two rows, each
   * with its `application_created_at` (null for totals written before incarnations were recorded).
   */
  async query(groupBy: UsageGroup, from: string, to: string): Promise<Array<{ [group: string]: string | number | null } & UsageRow>> {
    if (from > to) throw Errors.validation(["The parameter 'from' must not be after 'to'."], { param: 'from' });
    const groups = new Map<string, UsageRow & { incarnation?: string | null }>();
    for (const { bucket, item, field, amount } of await this.store.read(BUCKET + from, BUCKET + to)) {
      if (!(FIELDS as readonly string[]).includes(field)) continue;
      let dimensions: string[];
      try {
        dimensions = JSON.parse(item) as string[];
      } catch {
        continue;
      }
      const [application, key, route, model, incarnation] = dimensions;
      const name = { application, key, route, model, day: bucket.slice(BUCKET.length) }[groupBy] ?? '';
      const id = groupBy === 'application' ? `${name}\u0000${incarnation ?? ''}` : name;
      let row = groups.get(id);
      if (!row) {
        row = groupBy === 'application' ? { ...emptyRow(), incarnation: incarnation || null } : emptyRow();
        groups.set(id, row);
      }
      row[field as (typeof FIELDS)[number]] += amount;
    }
    return [...groups.entries()]
      .sort(([idA, a], [idB, b]) => b.cost_usd - a.cost_usd || (idA < idB ? -1 : idA > idB ? 1 : 0))
      .map(([id, { incarnation, ...row }]) => ({
        [groupBy]: groupBy === 'application' ? id.slice(0, id.indexOf('\u0000')) : id,
        ...(incarnation !== undefined ? { application_created_at: incarnation } : {}),
        ...row,
        total_tokens: row.prompt_tokens + row.completion_tokens,
        cost_usd: Math.round(row.cost_usd * 1e8) / 1e8,
      }));
  }
}
