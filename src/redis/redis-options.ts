// Options of the Redis connection shared by replicas: its URL, key prefix, timeouts and the rate limits' failure mode.

/** `createGateway({ redis })`: state shared by several replicas through one Redis. */
export interface GatewayRedisOptions {
  /** The Redis URL, e.g. `redis://127.0.0.1:6379` or `rediss://user:pass@host:6380/0` (GATEWAY_REDIS_URL). */
  url: string;
  /** Prefix of every key the gateway writes. Replicas that share state use the same prefix. Default `gateway:`. */
  keyPrefix?: string;
  /** A command without an answer within this many ms fails (then the failure mode applies). Default 500. */
  commandTimeoutMs?: number;
  /** Longest wait for a (re)connection, in ms; requests meanwhile do not wait for Redis. Default 2000. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts while Redis is down, in ms. Default 1000. */
  maxReconnectDelayMs?: number;
  /**
   * What rate-limited routes do while Redis is unreachable: `open` admits requests (with one logged warning
   * per outage), `closed` refuses them with 503 `rate_limiter_unavailable`. Default `open`.
   */
  rateLimitFailure?: 'open' | 'closed';
}
