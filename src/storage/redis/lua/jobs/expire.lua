-- KEYS: finished set. ARGV: cutoff, job key prefix, batch size. Keeps a small tombstone (410, not 404).
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, id in ipairs(ids) do
  local key = ARGV[2] .. id
  redis.call('HSET', key, 'state', 'expired', 'request', '{}')
  redis.call('HDEL', key, 'result', 'error', 'webhook', 'account_webhook')
  redis.call('ZREM', KEYS[1], id)
end
return #ids
