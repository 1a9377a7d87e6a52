// The ioredis client for shared state: no offline queue, bounded command and connect timeouts, a silent connection replaced, reconnection with a capped delay.
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { GatewayLogger } from '../errors/error-middleware.js';
import type { GatewayRedisOptions } from './redis-options.js';

/**
 * Connects to `options.url`. Commands never wait for a connection (`enableOfflineQueue: false`, no retry of a
 * command): while Redis is down they fail at once, so callers apply their failure mode instead of hanging.
 * A connection that stops answering (Redis hung, or the connection dropped silently by a firewall, NAT or load balancer)
 * is destroyed once a command has waited `commandTimeoutMs` without a byte back (`socketTimeout`), whichever feature sent
 * it, so unanswered commands never pile up on it and the client reconnects rather than time out on it for good.
 * The client reconnects by itself, every `maxReconnectDelayMs` at most. Connection errors are logged once per outage.
 */
export function createRedisClient(options: GatewayRedisOptions, logger?: GatewayLogger): Redis {
  const maxDelay = options.maxReconnectDelayMs ?? 1000;
  const commandTimeout = options.commandTimeoutMs ?? 500;
  const connectTimeout = options.connectTimeoutMs ?? 2000;
  // ioredis (about 21 MB of RSS) is loaded only by gateways configured with Redis, not at every start.
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const client = new RedisClient(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout,
    socketTimeout: connectTimeout,
    connectTimeout,
    retryStrategy: (times) => Math.min(times * 100, maxDelay),
    lazyConnect: false,
  });
  // A new connection's handshake (AUTH, SELECT, the ready check) has connectTimeoutMs to answer; once it is ready, a
  // command has commandTimeoutMs. ioredis reads the option at each write, so the bound follows the connection's state.
  client.on('ready', () => (client.options.socketTimeout = commandTimeout));
  client.on('close', () => (client.options.socketTimeout = connectTimeout));
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger?.warn('Redis is unreachable; shared state falls back to its failure mode until it is back', { error: error.message });
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('Redis is reachable again');
  });
  void firstConnection(client, connectTimeout);
  return client;
}

const firstConnections = new WeakMap<Redis, Promise<void>>();

/**
 * Settles once the client is first ready, or its first connection attempt fails, or after `timeoutMs` (never rejects). Callers await it only until it
 * has settled once, so requests of the first moments after start wait for the connection; later ones never wait.
 */
export function firstConnection(client: Redis, timeoutMs = 2000): Promise<void> {
  let pending = firstConnections.get(client);
  if (!pending) {
    pending =
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = (): void => {
              clearTimeout(timer);
              client.off('ready', done);
              client.off('error', done);
              resolve();
            };
            const timer = setTimeout(done, timeoutMs);
            timer.unref();
            client.once('ready', done);
            client.once('error', done);
          });
    firstConnections.set(client, pending);
  }
  return pending;
}

/**
 * Waits for the client's first connection attempt (only requests of the first moments after start wait: later the
 * promise has settled), then throws unless the connection is ready, so a caller applies its failure mode at once.
 */
export async function readyConnection(client: Redis, timeoutMs = 2000): Promise<void> {
  await firstConnection(client, timeoutMs);
  if (client.status !== 'ready') throw new Error(`the connection is ${client.status}`);
}
