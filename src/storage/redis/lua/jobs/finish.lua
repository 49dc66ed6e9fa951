-- KEYS: job, unfinished, finished, delivery, its endpoint's due set, account deliveries, delivery endpoints, running by account.
-- ARGV: attempt, state, 'result' or 'error', its text, compute ms, now, id, delivery id or '', delivery fields...
--! include jobs/running
local row = redis.call('HMGET', KEYS[1], 'state', 'attempts', 'account')
if row[1] ~= 'running' or row[2] ~= ARGV[1] then return 0 end
running(KEYS[8], row[3], -1)
redis.call('HSET', KEYS[1], 'state', ARGV[2], ARGV[3], ARGV[4], 'compute_ms', ARGV[5], 'finished', ARGV[6])
redis.call('HDEL', KEYS[1], 'owner')
redis.call('ZREM', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[7])
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[4], unpack(ARGV, 9))
  redis.call('ZADD', KEYS[5], ARGV[6], ARGV[8])
  redis.call('ZADD', KEYS[7], 'LT', ARGV[6], redis.call('HGET', KEYS[4], 'endpoint'))
  redis.call('ZADD', KEYS[6], ARGV[6], ARGV[8])
  -- The account's delivery log lists 7 days; older entries point at expired deliveries.
  redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', tonumber(ARGV[6]) - 8 * 86400000)
end
return 1
