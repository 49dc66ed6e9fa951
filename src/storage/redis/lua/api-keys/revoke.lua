-- KEYS: version. ARGV: channel, prefix, account id, key id, now. 1 when an active key was revoked.
local key = ARGV[2] .. 'apikey:' .. ARGV[4]
if redis.call('HGET', key, 'accountId') ~= ARGV[3] or redis.call('HEXISTS', key, 'revokedAt') == 1 then return 0 end
redis.call('HSET', key, 'revokedAt', ARGV[5])
--! include accounts/bump
return 1
