-- KEYS: the single due set of earlier versions, endpoints. ARGV: id, its endpoint, delivery prefix, lane prefix.
-- Moves one delivery from it to its endpoint's set, due when it was.
--! include outbox/due
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at then return 0 end
redis.call('HSET', ARGV[3] .. ARGV[1], 'endpoint', ARGV[2])
due(KEYS[2], ARGV[4], ARGV[2], ARGV[1], at)
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
