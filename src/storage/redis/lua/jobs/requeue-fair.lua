-- KEYS: job, waiting accounts, account turns, turn sequence. ARGV: account queue prefix.
-- Puts a queued job back in its account's queue (recovery: a submit cut short before BullMQ had it).
--! include jobs/join
local row = redis.call('HMGET', KEYS[1], 'state', 'account')
if row[1] ~= 'queued' then return 0 end
join(ARGV[1] .. row[2], KEYS[2], KEYS[3], KEYS[4], row[2], ARGV[2])
return 1
