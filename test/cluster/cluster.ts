// A cluster of example-server processes on one PostgreSQL schema and one Redis key prefix, reached through cuttable TCP relays, for the multi-replica tests.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { startExampleServer, type ExampleServer } from '../helpers/example-server-process.js';
import { dropSchema, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { deleteKeys, redisPort, testKeyPrefix } from '../helpers/redis-test.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';

export const CLUSTER_ADMIN_KEY = 'cluster-admin-key-0123456789abcdef';
/** How long a replica may take to start: three start at once, and a busy machine compiles slowly. */
const START_TIMEOUT_MS = 120_000;

/** One replica: its name (A, B, C…) and the running process. */
export interface Replica extends ExampleServer {
  name: string;
}

/** Replicas sharing one schema and one key prefix, with the relays they reach PostgreSQL and Redis through. */
export interface Cluster {
  replicas: Replica[];
  schema: string;
  keyPrefix: string;
  postgres: TcpCut;
  redis: TcpCut;
  /** Kills every replica still running, closes the relays, drops the schema and deletes the keys. */
  close(): Promise<void>;
}

/**
 * Starts `count` example servers at once. Every replica reaches PostgreSQL and Redis through the same two relays,
 * so a test can take either service away from all of them (the real services keep running for other tests).
 * `extraEnv(i)` adds variables to replica `i`.
 */
export async function startCluster(count: number, extraEnv: (index: number) => Record<string, string> = () => ({})): Promise<Cluster> {
  const schema = testSchemaName();
  const keyPrefix = testKeyPrefix();
  const database = new URL(TEST_DATABASE_URL);
  const postgres = await tcpCut(database.hostname, Number(database.port || 5432));
  database.port = String(postgres.port);
  const target = redisPort();
  const redis = await tcpCut(target.host, target.port);
  const env = {
    GATEWAY_ADMIN_KEY: CLUSTER_ADMIN_KEY,
    GATEWAY_SECRET: 'cluster-shared-secret-0123456789',
    GATEWAY_DATA_DIR: '/nonexistent/never-used',
    GATEWAY_DATABASE_URL: database.toString(),
    GATEWAY_DATABASE_SCHEMA: schema,
    GATEWAY_REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    GATEWAY_REDIS_KEY_PREFIX: keyPrefix,
  };
  const started = await Promise.allSettled(Array.from({ length: count }, (_, i) => startExampleServer({ ...env, ...extraEnv(i) }, START_TIMEOUT_MS)));
  const replicas = started.flatMap((result, i) => (result.status === 'fulfilled' ? [{ ...result.value, name: String.fromCharCode(65 + i) }] : []));
  const cluster: Cluster = {
    replicas,
    schema,
    keyPrefix,
    postgres,
    redis,
    async close() {
      await Promise.all(replicas.map((replica) => killReplica(replica)));
      await postgres.close();
      await redis.close();
      await dropSchema(schema);
      await deleteKeys(keyPrefix);
    },
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await cluster.close();
    throw (failed as PromiseRejectedResult).reason;
  }
  return cluster;
}

/** Sends SIGKILL (kill -9) and waits for the exit; nothing is flushed. */
export async function killReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
  const exited = once(replica.child, 'exit');
  replica.child.kill('SIGKILL');
  await exited;
}

/** An admin call with the cluster's admin key; answers status and parsed body. */
export async function admin(replica: Replica, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${replica.base}/v1/admin${path}`, {
    method,
    headers: { 'x-api-key': CLUSTER_ADMIN_KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** An admin write that must succeed (201 for POST, 200 otherwise). */
export async function adminOk(replica: Replica, method: string, path: string, body?: unknown): Promise<any> {
  const res = await admin(replica, method, path, body);
  assert.equal(res.status, method === 'POST' ? 201 : 200, `${method} ${path} on ${replica.name}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The answer of one chat request: status, the request id the gateway gave it, and when it ended (performance.now()). */
export interface ChatResult {
  replica: string;
  status: number;
  id?: string;
  endedAt: number;
}

/** One chat completion on `route` with `key`; a connection failure answers status 0 (the request was not answered). */
export async function chat(replica: Replica, key: string, route: string): Promise<ChatResult> {
  try {
    const res = await fetch(`${replica.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-gateway-apikey': key, 'x-gateway-route': route, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    await res.arrayBuffer();
    return { replica: replica.name, status: res.status, id: res.headers.get('x-gateway-request-id') ?? undefined, endedAt: performance.now() };
  } catch {
    return { replica: replica.name, status: 0, endedAt: performance.now() };
  }
}

/** Every Chronicles entry of `application` read through `replica`, newest first, following `next_cursor` pages of 100. */
export async function allChronicles(replica: Replica, application: string): Promise<Array<{ id: string; timestamp: string; status: number }>> {
  const entries: Array<{ id: string; timestamp: string; status: number }> = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { body } = await admin(replica, 'GET', `/applications/${application}/chronicles?${query}`);
    entries.push(...(body.data as typeof entries));
    cursor = body.next_cursor ?? undefined;
    if (!cursor) return entries;
  }
  throw new Error('more than 1000 pages');
}

/** Polls `check` every 20 ms until it holds, and answers the ms it took; fails after `deadlineMs`. */
export async function within(deadlineMs: number, check: () => Promise<boolean>, what = 'the condition'): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > deadlineMs) assert.fail(`${what} did not hold within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
