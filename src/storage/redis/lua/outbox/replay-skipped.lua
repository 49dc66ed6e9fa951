-- KEYS: skipped set, endpoints. ARGV: now, delivery key prefix, lane prefix.
--! include outbox/due
local ids = redis.call('SMEMBERS', KEYS[1])
local n = 0
for _, id in ipairs(ids) do
  local key = ARGV[2] .. id
  local row = redis.call('HMGET', key, 'state', 'endpoint')
  if row[1] == 'skipped' then
    redis.call('HSET', key, 'state', 'pending', 'next', ARGV[1], 'updated', ARGV[1])
    due(KEYS[2], ARGV[3], row[2] or '', id, ARGV[1])
    n = n + 1
  end
end
redis.call('DEL', KEYS[1])
return n
