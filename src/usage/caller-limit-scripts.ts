// The Lua scripts of the shared per-minute windows of developer keys and applications: take or add a weight, release one.

/**
 * KEYS[1]: a sorted set of entries `<unique>:<weight>` scored by Redis time in ms; KEYS[2]: the sum of its weights,
 * kept beside it so no call reads the whole window (a call costs the entries that leave the window, each once, not the
 * entries in it). ARGV: limit, window ms, unique member, weight, and `take` or `add`. Drops entries older than the
 * window (taking their weights off the sum), and (take) admits while the sum is below the limit, or (add) logs the
 * weight. A window without its sum (written by an older version, or the sum evicted) is summed once. Returns
 * {admitted, remaining, reset ms}: refused, until the window admits again; admitted, until it is empty (its newest
 * entry leaves it), 0 when it is empty already.
 */
export const WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local weight = tonumber(ARGV[4])
local function weightOf(member) return tonumber(string.match(member, ':(%d+)$')) end
local function keep(total)
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('SET', KEYS[2], total, 'PX', ttl) else redis.call('DEL', KEYS[2]) end
end
local sum = 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  local held = redis.call('GET', KEYS[2])
  if held then
    sum = tonumber(held)
    local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - window)
    for i = 1, #gone do sum = sum - weightOf(gone[i]) end
    if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window) end
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
    local entries = redis.call('ZRANGE', KEYS[1], 0, -1)
    for i = 1, #entries do sum = sum + weightOf(entries[i]) end
  end
  if sum < 0 then sum = 0 end
end
if ARGV[5] == 'take' and sum >= limit then
  keep(sum)
  local left = sum
  local start = 0
  while true do
    local batch = redis.call('ZRANGE', KEYS[1], start, start + 99, 'WITHSCORES')
    if #batch == 0 then break end
    for i = 1, #batch, 2 do
      left = left - weightOf(batch[i])
      if left < limit then return {0, 0, tonumber(batch[i + 1]) + window - now} end
    end
    start = start + 100
  end
  return {0, 0, window}
end
if weight > 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[3] .. ':' .. ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  sum = sum + weight
end
keep(sum)
local remaining = limit - sum
if remaining < 0 then remaining = 0 end
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local reset = 0
if #newest > 0 then reset = tonumber(newest[2]) + window - now end
return {1, remaining, reset}
`;

/**
 * KEYS[1]: the window, KEYS[2]: its sum. ARGV: a logged member (`<unique>:<weight>`) and its weight. Takes the entry
 * out of the window, and its weight off the sum, unless it has left the window already.
 */
export const RELEASE_SCRIPT = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  local held = redis.call('GET', KEYS[2])
  local ttl = redis.call('PTTL', KEYS[2])
  if held and ttl > 0 then
    local total = tonumber(held) - tonumber(ARGV[2])
    if total < 0 then total = 0 end
    redis.call('SET', KEYS[2], total, 'PX', ttl)
  end
end
return 1
`;
