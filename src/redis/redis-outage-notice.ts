// Tells one outage of a Redis-backed feature once: a warning at its first failed command, an info line when a command is answered again.
import type { GatewayLogger } from '../errors/error-middleware.js';

/** The lines a feature logs: the warning for the error that started an outage, and the line when it is over. */
export interface OutageTexts {
  down(error: Error): [message: string, fields?: Record<string, unknown>];
  up: string;
}

/**
 * The outage state of one Redis-backed feature (shared rate limits, caller limits, budget spend). Each feature keeps
 * its own failure mode (fail open or closed, in-process fallback); this only tracks whether Redis is failing it and
 * logs the change, once each way.
 * @example
 * const outage = new RedisOutageNotice(logger, { down: (e) => ['shared spend is unavailable', { error: e.message }], up: 'shared spend works again' });
 * try { await command(); outage.recovered(); } catch (error) { outage.failed(error); }
 */
export class RedisOutageNotice {
  private failingNow = false;

  constructor(
    private readonly logger: GatewayLogger | undefined,
    private readonly texts: OutageTexts,
  ) {}

  /** Whether the last command failed. */
  get failing(): boolean {
    return this.failingNow;
  }

  /** A command failed: starts an outage (warned once) or continues it. */
  failed(error: unknown): void {
    if (this.failingNow) return;
    this.failingNow = true;
    this.logger?.warn(...this.texts.down(error as Error));
  }

  /** A command was answered: ends an outage (told once), if one was going on. */
  recovered(): void {
    if (!this.failingNow) return;
    this.failingNow = false;
    this.logger?.info(this.texts.up);
  }
}
