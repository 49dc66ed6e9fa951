-- KEYS: job, running by account. ARGV: attempt, or owner when ARGV[2] is 'owner'. Back to queued if that attempt (owner) still runs it.
--! include jobs/running
local row = redis.call('HMGET', KEYS[1], 'state', 'attempts', 'owner', 'account')
if row[1] ~= 'running' then return 0 end
if ARGV[2] == 'owner' then
  if row[3] ~= ARGV[1] then return 0 end
elseif row[2] ~= ARGV[1] then return 0 end
running(KEYS[2], row[4], -1)
redis.call('HSET', KEYS[1], 'state', 'queued')
redis.call('HDEL', KEYS[1], 'owner')
return 1
