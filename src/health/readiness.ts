// Readiness of a gateway: plugins set up, storage reachable, Redis reachable when configured, and not draining.
import type { Redis } from 'ioredis';
import type { StorageAdapter } from '../storage/storage-adapter.js';

/** The outcome of one readiness check. */
export interface CheckResult {
  ok: boolean;
  /** Why the check failed, naming the dependency and the kind of failure only (`storage failed`): what `/readyz` answers. */
  error?: string;
  /** The failure's own text (at most 200 characters), which may name internal hosts: for the log, never answered. */
  detail?: string;
}

/** What `/readyz` reports: each check by name, and the first reason the gateway is not ready. */
export interface ReadinessReport {
  ready: boolean;
  reason?: string;
  checks: Record<string, CheckResult>;
  /** Not ready only because storage and plugins are still loading at start (every other check passes): an expected 503. */
  starting?: boolean;
}

/** What the readiness checks look at. */
export interface ReadinessSources {
  /** True once storage is loaded and every plugin is set up; the start-up error otherwise. */
  started: () => { ok: true } | { ok: false; error?: string };
  /** The storage adapter: one read of a key that does not exist shows the backend answers. */
  storage: StorageAdapter;
  /** The Redis client, when one is configured. */
  redis?: Redis;
  /** How long one check may take before it counts as failed, in ms. Default 2000. */
  timeoutMs?: number;
}

/** The key read to probe storage; it is never written. */
const PROBE_KEY = 'readiness/probe';

/** The first 200 characters of an error's message, without its closing dots. */
function errorText(error: unknown): string {
  return String((error as Error)?.message ?? error).slice(0, 200).replace(/\.+$/, '');
}

function withTimeout(check: Promise<unknown>, timeoutMs: number, what: string): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `${what} did not answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const outcome = check.then(
    (): CheckResult => ({ ok: true }),
    (error: unknown): CheckResult => ({ ok: false, error: `${what} failed`, detail: errorText(error) }),
  );
  return Promise.race([outcome, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Tracks whether a gateway should receive traffic. `drain()` turns it not ready for good (after SIGTERM);
 * `check()` runs the checks, in parallel and each bounded by a timeout, so an outage answers quickly.
 */
export class Readiness {
  private drainingSince: Date | undefined;
  /** Start-up work the host asked to wait for ({@link waitFor}), by check name. */
  private readonly held = new Map<string, CheckResult & { pending: boolean }>();

  constructor(private readonly sources: ReadinessSources) {}

  /**
   * Keeps the gateway not ready until `work` settles: `/readyz` shows a check `name` that fails while it is pending
   * (an expected 503, as while storage loads) and for good when it rejects. For work the host does after start, such
   * as creating the configured routes, so no load balancer sends traffic before it is done.
   * @example
   * gateway.readiness.waitFor('config', seedFromConfig(file, url, key, log));
   */
  waitFor(name: string, work: Promise<unknown>): void {
    const entry = { ok: false, pending: true, error: `${name} is still being applied` };
    this.held.set(name, entry);
    work.then(
      () => this.held.set(name, { ok: true, pending: false }),
      (error: unknown) => this.held.set(name, { ok: false, pending: false, error: `${name} failed`, detail: errorText(error) }),
    );
  }

  /** Marks the gateway as draining: `/readyz` answers 503 from now on, while requests in flight finish. */
  drain(): void {
    this.drainingSince ??= new Date();
  }

  /** True once {@link drain} was called. */
  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Runs every check. */
  async check(): Promise<ReadinessReport> {
    const timeoutMs = this.sources.timeoutMs ?? 2000;
    const started = this.sources.started();
    const checks: Record<string, CheckResult> = {
      plugins: started.ok
        ? { ok: true }
        : started.error
          ? { ok: false, error: 'start-up failed', detail: started.error.slice(0, 200) }
          : { ok: false, error: 'storage and plugins are still loading' },
    };
    const [storage, redis] = await Promise.all([
      withTimeout(this.sources.storage.get(PROBE_KEY), timeoutMs, 'storage'),
      this.sources.redis ? withTimeout(this.sources.redis.ping(), timeoutMs, 'Redis') : undefined,
    ]);
    checks.storage = storage;
    if (redis) checks.redis = redis;
    for (const [name, { ok, error, detail }] of this.held) checks[name] = ok ? { ok } : { ok, error, ...(detail === undefined ? {} : { detail }) };
    if (this.draining) return { ready: false, reason: 'the gateway is draining before it stops', checks };
    const failed = Object.entries(checks).filter(([, result]) => !result.ok);
    if (failed.length === 0) return { ready: true, checks };
    const [name, first] = failed[0]!;
    // Expected: every failing check is start-up work still under way (storage and plugins loading, held work pending).
    const starting = failed.every(([check]) => (check === 'plugins' ? !started.ok && started.error === undefined : this.held.get(check)?.pending === true));
    return { ready: false, reason: first.error ?? `${name} is not ready`, checks, ...(starting ? { starting } : {}) };
  }
}
