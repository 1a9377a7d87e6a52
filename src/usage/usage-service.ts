// Usage, cost, budgets and per-minute limits of model requests: checked before the provider call, counted when the answer ends.
import type { RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { DeveloperKeyRecord } from '../admin/developer-key-store.js';
import type { ChronicleEntry } from '../chronicles/chronicle-entry.js';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { GatewayRedisOptions } from '../redis/redis-options.js';
import type { Storage } from '../storage/storage-facade.js';
import { modelContextOf, type ModelRequestContext } from '../traffic/model-request-context.js';
import { periodOf } from './budget-periods.js';
import { MemoryCallerLimits, RedisCallerLimits, type CallerLimits } from './caller-limits.js';
import { CounterStore } from './counter-store.js';
import { costOf, PriceTable, type ModelPrice } from './price-table.js';
import { MINUTE_MS, takeMinuteLimits, windowKey, windowsOf, type Controls } from './minute-limits.js';
import { RedisSpendCounters, StoredSpendCounters, type BudgetOwner, type BudgetScope, type SpendCounters } from './spend-counters.js';
import { normalizeUsage } from './usage-extractor.js';
import type { Budget, CallerLimitSettings } from './usage-schemas.js';
import { UsageModelNames } from './usage-model-names.js';
import { UsageTotals } from './usage-totals.js';

/** Options of the usage service. */
export interface UsageServiceOptions {
  storage: Storage;
  redis?: Redis;
  redisOptions?: GatewayRedisOptions;
  logger?: GatewayLogger;
  now?: () => Date;
  /** How often usage totals and spend are added to storage, in ms. Default 1000. */
  flushIntervalMs?: number;
  /** Told when a budget crosses its alert threshold (after the warning is logged); for metrics. */
  onBudgetAlert?: (state: BudgetState) => void;
  /** Told when a request is refused for a budget or a per-minute limit; for metrics. */
  onRejection?: (reason: 'budget' | 'requests' | 'tokens', owner: BudgetOwner) => void;
}

/** What a budget stands at, as GET /v1/admin/budgets shows it. */
export interface BudgetState {
  owner: BudgetOwner;
  id: string;
  application: string;
  amount_usd: number;
  period: Budget['period'];
  alert_threshold: number;
  spent_usd: number;
  alert: boolean;
  exceeded: boolean;
  resets_at: string;
}

const keyRecordKey = (application: string, id: string): string => `application-keys/${application}/${id}`;

/**
 * Prices answers, keeps usage totals and budget spend, and enforces budgets and per-minute limits of applications
 * and developer keys. `admit` runs before the provider call (after the route's rate limit); `meter` runs when the
 * answer has ended, before the request log entry is queued, and sets the entry's `cost`.
 */
export class UsageService {
  readonly prices: PriceTable;
  readonly totals: UsageTotals;
  readonly spend: SpendCounters;
  private readonly limits: CallerLimits;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => Date;
  private readonly accounting = new Set<Promise<void>>();
  private readonly admitted = new WeakMap<ModelRequestContext, Controls[]>();
  /** Bounds the caller-chosen model names the totals keep per day. */
  private readonly modelNames = new UsageModelNames();
  /** How many finished requests were metered (counted in usage totals). */
  metered = 0;

  constructor(private readonly options: UsageServiceOptions) {
    const counters = new CounterStore(options.storage);
    this.now = options.now ?? (() => new Date());
    this.prices = new PriceTable(options.storage);
    this.totals = new UsageTotals(counters);
    const stored = new StoredSpendCounters(counters, this.now);
    const redisOptions = { keyPrefix: options.redisOptions?.keyPrefix, connectTimeoutMs: options.redisOptions?.connectTimeoutMs };
    this.spend = options.redis ? new RedisSpendCounters(options.redis, stored, redisOptions, options.logger) : stored;
    this.limits = options.redis ? new RedisCallerLimits(options.redis, redisOptions, options.logger) : new MemoryCallerLimits();
    this.timer = setInterval(() => void this.flush().catch((error: Error) => options.logger?.error('usage totals could not be written; they are kept for the next flush', { error: error.message })), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /**
   * True when the application's and the developer key's records are cached and set neither a budget nor a limit:
   * such a request is admitted without a promise (most requests, on the hot path).
   */
  private surelyUncontrolled(application: string, keyId: string): boolean {
    const app = this.options.storage.peekCached<{ budget?: Budget; limits?: CallerLimitSettings }>(`applications/${application}`);
    const key = this.options.storage.peekCached<{ budget?: Budget; limits?: CallerLimitSettings }>(keyRecordKey(application, keyId));
    return app !== undefined && key !== undefined && !app.value?.budget && !app.value?.limits && !key.value?.budget && !key.value?.limits;
  }

  /** The application's and the developer key's budgets and limits (records read through the storage cache). */
  private async controlsOf(application: string, keyId: string): Promise<Controls[]> {
    const [app, key] = await Promise.all([
      this.options.storage.getCached<{ created_at?: string; budget?: Budget; limits?: CallerLimitSettings }>(`applications/${application}`),
      this.options.storage.getCached<DeveloperKeyRecord & { budget?: Budget; limits?: CallerLimitSettings }>(keyRecordKey(application, keyId)),
    ]);
    return [
      { owner: 'key', id: keyId, label: `developer key ${keyId}`, budget: key?.budget, limits: key?.limits },
      { owner: 'application', id: application, incarnation: app?.created_at, label: `application ${application}`, budget: app?.budget, limits: app?.limits },
    ];
  }

  private scopeOf(controls: Controls & { budget: Budget }): BudgetScope {
    return { owner: controls.owner, id: controls.id, incarnation: controls.incarnation, period: controls.budget.period, ...periodOf(controls.budget.period, this.now()) };
  }

  /**
   * Refuses a request whose application or developer key has spent its budget (429 `budget_exceeded`, with
   * `Retry-After` and `x-gateway-budget-reset`), or is over its requests or tokens per minute (429
   * `rate_limit_exceeded` with `Retry-After`); sets OpenAI's `x-ratelimit-*` headers of the tightest limit.
   */
  async admit(res: Response, context: ModelRequestContext): Promise<void> {
    const controls = await this.controlsOf(context.application, context.developerKeyId);
    // Kept for the meter: the spend and tokens of the answer go to the budgets and limits the request was admitted under.
    if (controls.some((item) => item.budget !== undefined || item.limits?.tokens_per_minute !== undefined)) this.admitted.set(context, controls);
    const budgeted = controls.filter((item): item is Controls & { budget: Budget } => item.budget !== undefined);
    if (budgeted.length > 0) {
      const scopes = budgeted.map((item) => this.scopeOf(item));
      const spent = await this.spend.spent(scopes);
      budgeted.forEach((item, index) => {
        if (spent[index]! < item.budget.amount_usd) return;
        const resets = scopes[index]!.end;
        this.options.onRejection?.('budget', item.owner);
        const retryAfter = String(Math.max(1, Math.ceil((resets.getTime() - this.now().getTime()) / 1000)));
        throw Errors.budgetExceeded([item.label, item.budget.amount_usd, item.budget.period, resets.toISOString()], {
          headers: { 'retry-after': retryAfter, 'x-gateway-budget-reset': resets.toISOString() },
          details: { resets_at: resets.toISOString() },
        });
      });
    }
    await takeMinuteLimits(this.limits, controls, res, this.options.onRejection);
  }

  /** The request-path step of the model endpoints: admits the resolved request or throws 429. */
  admitHandler(): RequestHandler {
    const service = this;
    return function admitWithinBudgetAndLimits(req, res, next) {
      const context = modelContextOf(req);
      if (!context || service.surelyUncontrolled(context.application, context.developerKeyId)) {
        next();
        return;
      }
      service.admit(res, context).then(() => next(), next);
    };
  }

  /**
   * Prices a finished request's usage and sets `entry.cost`; then, in the background, adds it to the usage totals,
   * the budgets' spend (logging a warning when a budget crosses its alert threshold) and the tokens per minute.
   * Answers a promise only when the price must be read from storage; undefined when the entry is priced at once.
   */
  meter(entry: ChronicleEntry, context: ModelRequestContext | undefined): Promise<void> | undefined {
    // A response-cache hit called no provider: it costs nothing and uses no tokens of a budget or limit.
    if (entry.cache === 'hit') {
      entry.cost = { usd: 0, input_usd: 0, output_usd: 0, cached_input_usd: 0, cache_write_input_usd: 0 };
      if (context) this.totals.record(entry.timestamp.slice(0, 10), entry.application, context.incarnation, context.developerKeyId, entry.route ?? '', this.totalsModel(entry, context), null, 0);
      this.metered++;
      return undefined;
    }
    const usage = normalizeUsage(entry.usage);
    const type = context?.candidates.find((candidate) => candidate.provider.name === entry.provider)?.provider.type;
    if (!usage || !type || !entry.model) {
      this.count(entry, context, usage, undefined);
      return undefined;
    }
    // Priced at once when the type's overrides are cached (the usual case): no promise on the request's end.
    const cached = this.prices.cachedPriceOf(type, entry.model);
    if (cached) {
      this.count(entry, context, usage, cached.price);
      return undefined;
    }
    return this.prices.priceOf(type, entry.model).then((price) => this.count(entry, context, usage, price));
  }

  /** The model name the entry's usage is totalled under (a caller-chosen one bounded per day, see {@link UsageModelNames}). */
  private totalsModel(entry: ChronicleEntry, context: ModelRequestContext): string {
    return this.modelNames.of(entry.timestamp.slice(0, 10), entry.model ?? '', entry.provider, context);
  }

  /** Sets the entry's cost from `price`, and counts its usage and spend. */
  private count(entry: ChronicleEntry, context: ModelRequestContext | undefined, usage: ReturnType<typeof normalizeUsage>, price: ModelPrice | undefined): void {
    const cost = usage && price ? costOf(usage, price) : null;
    entry.cost = cost;
    const keyId = context?.developerKeyId;
    if (!keyId) return;
    // Usage without a price is counted as unpriced, not as free: its cost is unknown.
    this.totals.record(entry.timestamp.slice(0, 10), entry.application, context.incarnation, keyId, entry.route ?? '', this.totalsModel(entry, context), usage, cost ? cost.usd : usage ? null : 0);
    this.metered++;
    const controls = this.admitted.get(context);
    if (!controls) return;
    const task = this.account(controls, entry.application, usage?.total_tokens ?? 0, cost?.usd ?? 0)
      .catch((error: Error) => this.options.logger?.error('budget spend or token limits could not be updated', { request_id: context.requestId, error: error.message }))
      .finally(() => this.accounting.delete(task));
    this.accounting.add(task);
  }

  /** Settles once the spend and token counts of every request that has ended so far are added. */
  async idle(): Promise<void> {
    while (this.accounting.size > 0) await Promise.all([...this.accounting]);
  }

  private async account(controls: Controls[], application: string, tokens: number, usd: number): Promise<void> {
    for (const item of controls) {
      if (item.limits?.tokens_per_minute !== undefined && tokens > 0) await this.limits.add(windowKey(item, 'tokens'), MINUTE_MS, tokens);
    }
    const budgeted = controls.filter((item): item is Controls & { budget: Budget } => item.budget !== undefined);
    if (budgeted.length === 0 || usd <= 0) return;
    const after = await this.spend.add(budgeted.map((item) => this.scopeOf(item)), usd);
    budgeted.forEach((item, index) => {
      const threshold = (item.budget.alert_threshold ?? 0.8) * item.budget.amount_usd;
      const total = after[index]!;
      if (total - usd < threshold && total >= threshold) {
        const state = this.stateOf(item, application, total);
        this.options.logger?.warn('a budget crossed its alert threshold', { ...state });
        this.options.onBudgetAlert?.(state);
      }
    });
  }

  private stateOf(item: Controls & { budget: Budget }, application: string, spent: number): BudgetState {
    const threshold = item.budget.alert_threshold ?? 0.8;
    return {
      owner: item.owner,
      id: item.id,
      application,
      amount_usd: item.budget.amount_usd,
      period: item.budget.period,
      alert_threshold: threshold,
      spent_usd: Math.round(spent * 1e8) / 1e8,
      alert: spent >= threshold * item.budget.amount_usd,
      exceeded: spent >= item.budget.amount_usd,
      resets_at: this.scopeOf(item).end.toISOString(),
    };
  }

  /** The state of every budget of `applications` and their developer keys. */
  async budgetStates(applications: Array<{ name: string; created_at?: string; budget?: Budget }>, keysOf: (application: string) => Promise<Array<{ id: string; budget?: Budget }>>): Promise<BudgetState[]> {
    const states: BudgetState[] = [];
    for (const application of applications) {
      const owners: Array<Controls & { budget: Budget }> = [];
      if (application.budget) owners.push({ owner: 'application', id: application.name, incarnation: application.created_at, label: '', budget: application.budget });
      for (const key of await keysOf(application.name)) if (key.budget) owners.push({ owner: 'key', id: key.id, label: '', budget: key.budget });
      const spent = await this.spend.spent(owners.map((item) => this.scopeOf(item)));
      owners.forEach((item, index) => states.push(this.stateOf(item, application.name, spent[index]!)));
    }
    return states;
  }

  /**
   * Drops what is kept for a deleted application (an application delete hook): its budget spend, persisted and held,
   * and its per-minute windows held in process. Spend and counts of a re-created application of the name are kept
   * apart anyway (per incarnation); this leaves no garbage behind. Usage totals are history and are kept.
   */
  async forget(application: string): Promise<void> {
    this.limits.forget(windowsOf('application', application));
    await this.spend.forget('application', application);
  }

  /**
   * Drops what is kept for a revoked developer key (a key revocation hook, also run for each key of a deleted
   * application): its budget spend, persisted, held and shared, and its per-minute windows held in process.
   */
  async forgetKey(id: string): Promise<void> {
    this.limits.forget(windowsOf('key', id));
    await this.spend.forget('key', id);
  }

  /** Adds pending usage totals and spend to storage. */
  async flush(): Promise<void> {
    await Promise.all([this.totals.flush(), this.spend.flush()]);
  }

  /** Stops the flush timer, waits for the spend and token counts of requests that ended, and writes what is pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.idle();
    await this.flush().catch((error: Error) => this.options.logger?.error('usage totals could not be written at close', { error: error.message }));
  }
}
