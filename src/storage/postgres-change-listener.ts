// Listens on PostgreSQL's `gateway_changes` channel on one dedicated connection, reconnecting by itself, for the keys other replicas changed.
import type pg from 'pg';

/** How long to wait before listening again after the connection broke, in ms. */
const RECONNECT_DELAY_MS = 1000;

/** How often the listening connection is checked by default, in ms. */
export const DEFAULT_LISTEN_CHECK_MS = 5000;

/**
 * Holds one pool connection in `LISTEN gateway_changes` and calls `onChange` with each key of `schema` that another
 * process changed (notices from this pool's own connections are skipped: the facade saw those writes itself).
 * After the connection broke and came back it calls `onChange(undefined)`: notices sent meanwhile were lost.
 * The connection is checked with `SELECT 1` every `checkMs`: one that does not answer within `checkMs` (dropped silently by a
 * firewall, NAT or load balancer, with no reset ever reaching this side) counts as broken, since it would never
 * deliver a notice again and never report an error either.
 */
export class PostgresChangeListener {
  private client: pg.PoolClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checker: NodeJS.Timeout | undefined;
  private stopped = false;
  private connectedBefore = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    private readonly onChange: (key: string | undefined) => void,
    /** True for a backend process of this adapter's own pool: its writes were already seen here. */
    private readonly isOwnBackend: (pid: number) => boolean = () => false,
    /** How often the listening connection is checked, in ms (each check bounded by the pool's query timeout). */
    private readonly checkMs: number = DEFAULT_LISTEN_CHECK_MS,
  ) {}

  /** Starts listening; resolves once the first LISTEN is in place, or failed (it then retries in the background). */
  async start(): Promise<void> {
    if (this.stopped || this.client) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      client.on('notification', (message) => this.notified(message));
      client.on('error', () => this.broken());
      client.on('end', () => this.broken());
      await client.query('LISTEN gateway_changes');
      if (this.stopped) {
        client.release(true);
        return;
      }
      this.client = client;
      if (this.connectedBefore) this.onChange(undefined);
      this.connectedBefore = true;
      this.scheduleCheck(client);
    } catch {
      client?.release(true);
      this.retry();
    }
  }

  private notified(message: pg.Notification): void {
    if (this.isOwnBackend(message.processId)) return;
    const payload = message.payload ?? '';
    const at = payload.indexOf(':');
    if (at < 0 || payload.slice(0, at) !== this.schema) return;
    this.onChange(payload.slice(at + 1));
  }

  /**
   * Checks `client` once after `checkMs`, and again after each answer, while it is the listening connection. A check
   * that fails, or is not answered within `checkMs` (a pool of your own may have no query timeout), breaks it.
   */
  private scheduleCheck(client: pg.PoolClient): void {
    this.checker = setTimeout(() => {
      this.checker = undefined;
      if (this.client !== client) return;
      let late: NodeJS.Timeout | undefined;
      const unanswered = new Promise<never>((_, reject) => {
        late = setTimeout(() => reject(new Error('the listening connection did not answer')), this.checkMs);
        late.unref();
      });
      Promise.race([client.query('SELECT 1'), unanswered]).then(
        () => {
          clearTimeout(late);
          if (this.client === client) this.scheduleCheck(client);
        },
        () => {
          clearTimeout(late);
          if (this.client === client) this.broken();
        },
      );
    }, this.checkMs);
    this.checker.unref();
  }

  private broken(): void {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    client.release(true);
    this.retry();
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.start();
    }, RECONNECT_DELAY_MS);
    this.timer.unref();
  }

  /** Stops listening and gives the connection back. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.checker) clearTimeout(this.checker);
    const client = this.client;
    this.client = undefined;
    client?.release(true);
  }
}
