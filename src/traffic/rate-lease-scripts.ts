// The Lua scripts of the leased route rate limits: lease slots of a route's shared window, settle used ones, return unused ones.

/**
 * A route's window in Redis is a sorted set of slots, each a member `<lease id>:<index>` scored with the latest time
 * (Redis's clock, ms) at which it may be or was used; a slot leaves the window `intervalMs` after its score.
 *
 * LEASE. KEYS[1]: the window. ARGV: amount, interval ms, lease ms, lease id, how many slots are wanted (0 only counts).
 * Drops slots older than the interval, then grants at most the free ones, each scored `now + lease ms` (the holder
 * uses it before then, or returns it). Returns {granted, Redis time in ms, free slots left}.
 */
export const LEASE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local amount = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local lease = tonumber(ARGV[3])
local want = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - interval)
local free = amount - redis.call('ZCARD', KEYS[1])
if free < 0 then free = 0 end
local grant = math.min(want, free)
for i = 0, grant - 1 do
  redis.call('ZADD', KEYS[1], now + lease, ARGV[4] .. ':' .. i)
end
if grant > 0 then redis.call('PEXPIRE', KEYS[1], interval + lease) end
return {grant, now, free - grant}
`;

/**
 * SETTLE. KEYS[1]: the window. ARGV: lease id, first and end (exclusive) index of used slots, their new score (no
 * earlier than their use), first and end index of unused slots to return. Used slots that are still there get the
 * lower score, so they leave the window sooner; returned slots are removed, so other replicas can lease them.
 */
export const SETTLE_SCRIPT = `
local score = tonumber(ARGV[4])
for i = tonumber(ARGV[2]), tonumber(ARGV[3]) - 1 do
  redis.call('ZADD', KEYS[1], 'XX', score, ARGV[1] .. ':' .. i)
end
for i = tonumber(ARGV[5]), tonumber(ARGV[6]) - 1 do
  redis.call('ZREM', KEYS[1], ARGV[1] .. ':' .. i)
end
return 0
`;

/** The scripts as ioredis commands (`defineCommand`). */
export interface LeaseCommands {
  gatewayRateLease(key: string, amount: number, intervalMs: number, leaseMs: number, leaseId: string, want: number): Promise<[number, number, number]>;
  gatewayRateSettle(key: string, leaseId: string, usedFrom: number, usedTo: number, score: number, returnFrom: number, returnTo: number): Promise<number>;
}
