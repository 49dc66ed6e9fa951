-- KEYS: version, key-hash index, key sequence, key ids.
-- ARGV: channel, prefix, account id, hash, key prefix, label, created at.
-- 0 for an unknown account; minus the existing id when the key is known already (imposed keys).
if redis.call('EXISTS', ARGV[2] .. 'account:' .. ARGV[3]) == 0 then return 0 end
local existing = redis.call('HGET', KEYS[2], ARGV[4])
if existing then return -tonumber(existing) end
local id = redis.call('INCR', KEYS[3])
redis.call('HSET', ARGV[2] .. 'apikey:' .. id, 'accountId', ARGV[3], 'hash', ARGV[4], 'prefix', ARGV[5],
  'label', ARGV[6], 'createdAt', ARGV[7])
redis.call('HSET', KEYS[2], ARGV[4], id)
redis.call('SADD', KEYS[4], id)
--! include accounts/bump
return id
