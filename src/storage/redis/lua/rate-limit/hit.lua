-- KEYS: current window, previous window. ARGV: limit, overlap of the previous window (0..1), ttl ms.
-- Returns {1} when counted, else {0, current, previous} for the retry time.
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if current + previous * tonumber(ARGV[2]) + 1 > tonumber(ARGV[1]) then return { 0, current, previous } end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return { 1 }
