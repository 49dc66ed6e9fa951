-- KEYS: delivery hash, attempts hash, endpoints, skipped set of its account. ARGV[9]: lane prefix.
-- The lease holder reports the attempts really made: a lease given up without a send (skipped) frees its number.
--! include outbox/due
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'attempts', ARGV[2], 'sent', ARGV[2], 'next', ARGV[3], 'last_status', ARGV[4], 'last_error', ARGV[5], 'updated', ARGV[6])
due(KEYS[3], ARGV[9], redis.call('HGET', KEYS[1], 'endpoint') or '', ARGV[7], ARGV[1] == 'pending' and ARGV[3])
if ARGV[1] == 'skipped' then redis.call('SADD', KEYS[4], ARGV[7]) else redis.call('SREM', KEYS[4], ARGV[7]) end
if ARGV[1] == 'delivered' or ARGV[1] == 'failed' then
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  redis.call('PEXPIRE', KEYS[2], ARGV[8])
end
return 1
