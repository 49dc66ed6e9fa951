-- KEYS: sequence, unfinished set, the account's job list, account queue, waiting accounts,
-- account turns, turn sequence; job key prefix is ARGV[1], the list's length ARGV[8]. Returns the new id.
--! include jobs/join
local id = redis.call('INCR', KEYS[1])
local key = ARGV[1] .. id
redis.call('HSET', key, 'account', ARGV[2], 'kind', ARGV[3], 'state', 'queued', 'request', ARGV[4], 'attempts', 0, 'created', ARGV[5])
if ARGV[6] ~= '' then redis.call('HSET', key, 'webhook', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', key, 'account_webhook', ARGV[7]) end
redis.call('ZADD', KEYS[2], ARGV[5], id)
redis.call('ZADD', KEYS[3], id, id)
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -1 - tonumber(ARGV[8]))
join(KEYS[4], KEYS[5], KEYS[6], KEYS[7], ARGV[2], id)
return id
