-- KEYS: version, account. ARGV: channel, new secret, previous secret signs until.
local old = redis.call('HGET', KEYS[2], 'signingSecret')
if not old then return 0 end
redis.call('HSET', KEYS[2], 'previousSecret', old, 'previousSecretUntil', ARGV[3], 'signingSecret', ARGV[2])
--! include accounts/bump
return 1
