// Budget spend per application or developer key and period: in memory and persisted, or shared by replicas through Redis.
import type { Redis } from 'ioredis';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { firstConnection, readyConnection } from '../redis/redis-client.js';
import { RedisOutageNotice } from '../redis/redis-outage-notice.js';
import type { CounterValue } from '../storage/storage-adapter.js';
import { dayOf, periodOf, type BudgetPeriod } from './budget-periods.js';
import type { CounterStore } from './counter-store.js';
import { ownerKeys } from './owner-keys.js';

/** Whose budget: an application's, or one developer key's. */
export type BudgetOwner = 'application' | 'key';

/** One budget's current period. */
export interface BudgetScope {
  owner: BudgetOwner;
  id: string;
  /**
   * The application's incarnation (its `created_at`), for an application's budget: an application deleted and
   * re-created under the same name counts from zero. Absent or empty for a developer key (whose id is never reused).
   */
  incarnation?: string;
  period: BudgetPeriod;
  start: Date;
  end: Date;
}

/** Spend counters, in process or shared. */
export interface SpendCounters {
  /** The USD spent so far in each scope's period. */
  spent(scopes: readonly BudgetScope[]): Promise<number[]>;
  /** Adds `usd` to every scope; resolves each scope's total after the addition. */
  add(scopes: readonly BudgetScope[], usd: number): Promise<number[]>;
  /** Writes what is not persisted yet. */
  flush(): Promise<void>;
  /**
   * Drops the spend of every period and incarnation of one owner, held, persisted and shared (its application was
   * deleted, or the developer key revoked).
   */
  forget(owner: BudgetOwner, id: string): Promise<void>;
}

const bucketOf = (scope: Pick<BudgetScope, 'owner' | 'id'>): string => `spend/${scope.owner}/${scope.id}`;
const itemOf = (scope: BudgetScope): string => `${scope.period}:${dayOf(scope.start)}${scope.incarnation ? `:${scope.incarnation}` : ''}`;
const nameOf = (scope: BudgetScope): string => `${bucketOf(scope)}/${itemOf(scope)}`;
/** The USD of `scope` among counters read from its bucket. */
const usdOf = (values: CounterValue[], scope: BudgetScope): number =>
  values.filter((value) => value.item === itemOf(scope) && value.field === 'usd').reduce((sum, value) => sum + value.amount, 0);

/**
 * Spend held in memory and persisted through the counter store (added to in batches by {@link flush}). A scope is
 * read from storage the first time it is seen, so a restarted gateway keeps the spend of the current period. Without
 * Redis each replica counts its own requests (plus what was stored when it first saw the scope).
 */
export class StoredSpendCounters implements SpendCounters {
  private readonly totals = new Map<string, Promise<number> | number>();
  /**
   * Spend not written yet, one sum per scope (its storage name): bounded by the budgets in use, however long storage
   * is down, and nothing is dropped.
   */
  private pending = new Map<string, CounterValue>();

  constructor(
    private readonly store: CounterStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private total(scope: BudgetScope): Promise<number> | number {
    const name = nameOf(scope);
    let known = this.totals.get(name);
    if (known === undefined) {
      known = this.store.read(bucketOf(scope), bucketOf(scope)).then(
        (values) => {
          const stored = usdOf(values, scope);
          const now = this.totals.get(name);
          // Additions made while the stored value was read are kept on top of it.
          const value = stored + (typeof now === 'number' ? now : 0);
          this.totals.set(name, value);
          return value;
        },
        () => {
          this.totals.delete(name);
          return 0;
        },
      );
      this.totals.set(name, known);
      this.forgetEnded(this.now());
    }
    return known;
  }

  /** Drops totals of periods that ended, so the map holds current periods only. */
  private forgetEnded(now: Date): void {
    if (this.totals.size < 1000) return;
    for (const name of this.totals.keys()) {
      const [period, day] = name.slice(name.lastIndexOf('/') + 1).split(':') as [BudgetPeriod, string];
      if (periodOf(period, new Date(`${day}T00:00:00Z`)).end <= now) this.totals.delete(name);
    }
  }

  async spent(scopes: readonly BudgetScope[]): Promise<number[]> {
    return Promise.all(scopes.map((scope) => this.total(scope)));
  }

  /** The spend of `scope` persisted so far (what every process has flushed), read from storage now. */
  async persisted(scope: BudgetScope): Promise<number> {
    return usdOf(await this.store.read(bucketOf(scope), bucketOf(scope)), scope);
  }

  async add(scopes: readonly BudgetScope[], usd: number): Promise<number[]> {
    const after: number[] = [];
    for (const scope of scopes) {
      const name = nameOf(scope);
      const before = await this.total(scope);
      const current = this.totals.get(name);
      const value = (typeof current === 'number' ? current : before) + usd;
      this.totals.set(name, value);
      this.hold(name, { bucket: bucketOf(scope), item: itemOf(scope), field: 'usd', amount: usd });
      after.push(value);
    }
    return after;
  }

  async forget(owner: BudgetOwner, id: string): Promise<void> {
    const bucket = bucketOf({ owner, id });
    for (const name of this.totals.keys()) if (name.startsWith(`${bucket}/`)) this.totals.delete(name);
    for (const [name, increment] of this.pending) if (increment.bucket === bucket) this.pending.delete(name);
    await this.store.delete(bucket);
  }

  /** Adds an increment to the pending sum of its scope. */
  private hold(name: string, increment: CounterValue): void {
    const held = this.pending.get(name);
    if (held) held.amount += increment.amount;
    else this.pending.set(name, increment);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.store.add([...batch.values()]);
    } catch (error) {
      // Kept whole for the next flush, with what was added meanwhile.
      for (const [name, increment] of batch) this.hold(name, increment);
      throw error;
    }
  }
}

/**
 * KEYS: spend keys. ARGV: for each key, the USD to add and its expiry (epoch ms). Adds to each key that exists and
 * answers its new total; answers nil for a key that is missing (it is seeded from storage first).
 */
const ADD_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then
    out[i] = redis.call('INCRBYFLOAT', key, ARGV[2 * i - 1])
    redis.call('PEXPIREAT', key, ARGV[2 * i])
  else
    out[i] = false
  end
end
return out
`;

interface ScriptedRedis {
  gatewaySpendAdd(keyCount: number, ...keysAndArgs: Array<string | number>): Promise<Array<string | null>>;
}

/**
 * Spend shared by every gateway on one Redis: one key per scope and period, added to with INCRBYFLOAT and set to
 * expire a day after the period ends. Also persisted through `stored` (for the record and for a gateway without
 * Redis later). A key missing in Redis (Redis restarted without persistence, or evicted it) is seeded from the spend
 * persisted in storage before it is read or added to, with SET NX so replicas seeding at once agree. While Redis
 * cannot be reached, the in-process counters answer (one warning per outage), and what this process adds is held
 * and added to the shared keys once Redis answers again (on reconnection, at the next flush, or before this process
 * next reads or adds spend there).
 */
export class RedisSpendCounters implements SpendCounters {
  private readonly prefix: string;
  private readonly connectTimeoutMs: number;
  private readonly outage: RedisOutageNotice;
  /** Spend added while Redis could not be reached, per shared key: bounded by the budgets in use (one entry each). */
  private readonly unshared = new Map<string, { scope: BudgetScope; usd: number }>();
  /** The addition of {@link unshared} under way, shared by the callers that come meanwhile. */
  private sharing: Promise<void> | undefined;

  constructor(
    private readonly client: Redis,
    private readonly stored: StoredSpendCounters,
    options: { keyPrefix?: string; connectTimeoutMs?: number } = {},
    private readonly logger?: GatewayLogger,
  ) {
    this.outage = new RedisOutageNotice(logger, {
      down: (error) => ['shared budget spend is unavailable (Redis); this process counts on its own until Redis answers', { error: error.message }],
      up: 'shared budget spend works again: Redis answers',
    });
    this.prefix = `${options.keyPrefix ?? 'gateway:'}spend:`;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    client.defineCommand('gatewaySpendAdd', { lua: ADD_SCRIPT });
    void firstConnection(client, this.connectTimeoutMs);
    // Spend held during an outage reaches the other replicas as soon as Redis is back, not at this one's next request.
    client.on('ready', () => void this.shareHeld().catch(() => undefined));
  }

  /** `<prefix>spend:application:<name>:<created_at>:<period>:<start day>`, or `…:key:<id>:<period>:<start day>`. */
  private key(scope: BudgetScope): string {
    return `${this.prefix}${scope.owner}:${scope.id}:${scope.incarnation ? `${scope.incarnation}:` : ''}${scope.period}:${dayOf(scope.start)}`;
  }

  private expiry(scope: BudgetScope): number {
    return scope.end.getTime() + 86_400_000;
  }

  /** Waits for the first connection attempt once (requests of the first moments after start), then needs it ready. */
  private ready(): Promise<void> {
    return readyConnection(this.client, this.connectTimeoutMs);
  }

  /** Sets a missing key to the spend persisted in storage (unless another replica set it meanwhile); answers its value. */
  private async seed(scope: BudgetScope): Promise<number> {
    const persisted = await this.stored.persisted(scope);
    const key = this.key(scope);
    const results = (await this.client.multi().set(key, String(persisted), 'NX').pexpireat(key, this.expiry(scope)).get(key).exec()) ?? [];
    const value = results[2]?.[1];
    return typeof value === 'string' ? Number(value) : persisted;
  }

  /** Holds an addition that did not reach Redis, to add it there once Redis answers. */
  private hold(scope: BudgetScope, usd: number): void {
    const key = this.key(scope);
    this.unshared.set(key, { scope, usd: (this.unshared.get(key)?.usd ?? 0) + usd });
  }

  /**
   * Adds the spend held during an outage to the shared keys (one script call). A key Redis no longer holds is left to
   * its seed from storage, which holds what was flushed of it. On failure the spend is held again.
   */
  private shareHeld(): Promise<void> {
    if (this.unshared.size === 0) return Promise.resolve();
    this.sharing ??= (async () => {
      const held = [...this.unshared.entries()];
      this.unshared.clear();
      try {
        const args = held.flatMap(([, { scope, usd }]) => [usd, this.expiry(scope)]);
        await (this.client as unknown as ScriptedRedis).gatewaySpendAdd(held.length, ...held.map(([key]) => key), ...args);
      } catch (error) {
        for (const [, { scope, usd }] of held) this.hold(scope, usd);
        throw error;
      }
    })().finally(() => (this.sharing = undefined));
    return this.sharing;
  }

  async spent(scopes: readonly BudgetScope[]): Promise<number[]> {
    if (scopes.length === 0) return [];
    try {
      await this.ready();
      await this.shareHeld();
      const values = await this.client.mget(scopes.map((scope) => this.key(scope)));
      const totals = await Promise.all(values.map((value, index) => (value === null ? this.seed(scopes[index]!) : Number(value))));
      this.outage.recovered();
      return totals;
    } catch (error) {
      this.outage.failed(error);
      return this.stored.spent(scopes);
    }
  }

  /**
   * Adds to the shared keys (seeding missing ones first); answers each new total. An addition that may not have reached
   * Redis is held, to be added there once Redis answers again: otherwise an outage's spend would never count there.
   */
  private async addShared(scopes: readonly BudgetScope[], usd: number): Promise<number[]> {
    let added: Array<string | null>;
    try {
      await this.ready();
      await this.shareHeld();
      const keys = scopes.map((scope) => this.key(scope));
      added = await (this.client as unknown as ScriptedRedis).gatewaySpendAdd(keys.length, ...keys, ...scopes.flatMap((scope) => [usd, this.expiry(scope)]));
    } catch (error) {
      for (const scope of scopes) this.hold(scope, usd);
      throw error;
    }
    return Promise.all(
      added.map(async (value, index) => {
        if (value !== null) return Number(value);
        const scope = scopes[index]!;
        try {
          await this.seed(scope);
          return Number(await this.client.incrbyfloat(this.key(scope), usd));
        } catch (error) {
          this.hold(scope, usd);
          throw error;
        }
      }),
    );
  }

  async add(scopes: readonly BudgetScope[], usd: number): Promise<number[]> {
    if (scopes.length === 0) return [];
    let shared: number[] | undefined;
    try {
      // Before the addition is queued for storage, so a seed read from storage cannot hold it already.
      shared = await this.addShared(scopes, usd);
      this.outage.recovered();
    } catch (error) {
      this.outage.failed(error);
    }
    const local = await this.stored.add(scopes, usd);
    return shared ?? local;
  }

  /** Writes the pending spend to storage, and adds the spend held during an outage to Redis if it answers now. */
  async flush(): Promise<void> {
    const sharing = this.client.status === 'ready' ? this.shareHeld().catch(() => undefined) : undefined;
    await Promise.all([this.stored.flush(), sharing]);
  }

  /**
   * Drops the persisted spend and the owner's shared keys (every period and incarnation: one SCAN of the owner's key
   * pattern, then UNLINK). While Redis cannot be reached, the shared keys are left to expire a day after their period
   * (one warning); the persisted spend is dropped either way.
   */
  async forget(owner: BudgetOwner, id: string): Promise<void> {
    await this.stored.forget(owner, id);
    const owns = ownerKeys(this.prefix, owner, id, '[a-z]+:\\d{4}-\\d{2}-\\d{2}');
    for (const key of this.unshared.keys()) if (owns(key)) this.unshared.delete(key);
    try {
      await this.ready();
      const pattern = `${`${this.prefix}${owner}:${id}:`.replace(/[*?[\]\\]/g, '\\$&')}*`;
      for await (const found of this.client.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
        const mine = found.filter(owns);
        if (mine.length > 0) await this.client.unlink(...mine);
      }
    } catch (error) {
      this.logger?.warn('the shared budget spend of a deleted owner could not be removed from Redis; its keys expire a day after their period', { error: (error as Error).message });
    }
  }
}
