// `npx tsx bench/redis-round-trip.ts`: what one shared rate check costs the gateway (mostly served from a leased slot, leases and settles included), against one script by EVALSHA and a PING, in alternating rounds.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisRouteRateLimits } from '../src/traffic/redis-rate-limiter.js';

const url = process.env.GATEWAY_BENCH_REDIS_URL ?? process.env.GATEWAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const COUNT = Number(process.env.BENCH_REQUESTS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const prefix = `gw_bench_${randomBytes(6).toString('hex')}:`;
const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500 });
await new Promise((resolve) => client.once('ready', resolve));
const limits = new RedisRouteRateLimits(client, { keyPrefix: prefix });
const SCRIPT = "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]) return redis.call('ZCARD', KEYS[1])";
const sha = (await client.script('LOAD', SCRIPT)) as string;

/** Median latency (ms) and CPU per call (µs) of `COUNT` sequential calls, after 500 warm-up calls. */
async function measure(call: (i: number) => Promise<unknown>): Promise<{ p50: number; cpu: number }> {
  for (let i = 0; i < 500; i++) await call(i);
  const latencies: number[] = [];
  const before = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) {
    const started = performance.now();
    await call(i);
    latencies.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(before);
  latencies.sort((a, b) => a - b);
  return { p50: latencies[COUNT >> 1]!, cpu: (cpu.user + cpu.system) / COUNT };
}

const cases: Record<string, (i: number) => Promise<unknown>> = {
  'rate check (RedisRouteRateLimits.take)': () => limits.take('bench', 1_000_000),
  'a small script by EVALSHA': (i) => client.evalsha(sha, 1, `${prefix}evalsha`, i, `m${i % 1000}`),
  PING: () => client.ping(),
};
const results = new Map<string, Array<{ p50: number; cpu: number }>>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, call] of Object.entries(cases)) results.set(name, [...(results.get(name) ?? []), await measure(call)]);
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(`\n| call (one connection, sequential) | p50 ms (median of ${ROUNDS}) | CPU µs/call (median) | CPU per round |`);
console.log('|---|---:|---:|---|');
for (const [name, rounds] of results) {
  console.log(`| ${name} | ${median(rounds.map((r) => r.p50)).toFixed(3)} | ${median(rounds.map((r) => r.cpu)).toFixed(1)} | ${rounds.map((r) => r.cpu.toFixed(0)).join(', ')} |`);
}
await limits.close();
let cursor = '0';
do {
  const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
  if (keys.length) await client.del(...keys);
  cursor = next;
} while (cursor !== '0');
client.disconnect();
