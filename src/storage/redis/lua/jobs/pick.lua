-- KEYS: waiting accounts, account turns, turn sequence, running by account. ARGV: most running
-- per account (0: no cap), account queue prefix. The account whose turn it is: fewest jobs
-- running, then the longest since its last turn; takes its oldest queued job and a new turn.
local cap = tonumber(ARGV[1])
local waiting = redis.call('ZRANGE', KEYS[1], 0, -1)
local best, fewest
for _, account in ipairs(waiting) do
  local running = tonumber(redis.call('HGET', KEYS[4], account) or '0')
  if (cap == 0 or running < cap) and (not best or running < fewest) then best, fewest = account, running end
  if fewest == 0 then break end
end
if not best then return false end
local queue = ARGV[2] .. best
local oldest = redis.call('ZPOPMIN', queue)
local turn = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[2], best, turn)
if redis.call('ZCARD', queue) == 0 then redis.call('ZREM', KEYS[1], best) else redis.call('ZADD', KEYS[1], turn, best) end
return oldest[1] or false
