-- KEYS: delivery hash, attempts hash, endpoints, skipped set. ARGV: account, now, id, lane prefix.
--! include outbox/due
local row = redis.call('HMGET', KEYS[1], 'account', 'state', 'endpoint')
if row[1] ~= ARGV[1] or row[2] == false or row[2] == 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'next', ARGV[2], 'updated', ARGV[2])
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
due(KEYS[3], ARGV[4], row[3] or '', ARGV[3], ARGV[2])
redis.call('SREM', KEYS[4], ARGV[3])
return 1
