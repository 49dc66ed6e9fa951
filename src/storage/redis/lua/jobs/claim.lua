-- KEYS: job, running by account. ARGV: owner, now. A running job comes back here only after BullMQ found it stalled.
--! include jobs/running
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'queued' and state ~= 'running' then return false end
if state == 'queued' then running(KEYS[2], redis.call('HGET', KEYS[1], 'account'), 1) end
local attempt = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'state', 'running', 'owner', ARGV[1], 'started', ARGV[2])
local row = redis.call('HMGET', KEYS[1], 'account', 'kind', 'request', 'webhook', 'account_webhook')
return { tostring(attempt), row[1], row[2], row[3], row[4] or '', row[5] or '' }
