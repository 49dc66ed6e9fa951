-- KEYS: version, e-mail index, account sequence, account ids.
-- ARGV: channel, prefix, email, secret, rate, monthly, created at. 0 when the e-mail is taken.
if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then return 0 end
local id = redis.call('INCR', KEYS[3])
redis.call('HSET', ARGV[2] .. 'account:' .. id, 'email', ARGV[3], 'signingSecret', ARGV[4],
  'ratePerMinute', ARGV[5], 'monthlyCalls', ARGV[6], 'onHold', '0', 'createdAt', ARGV[7])
redis.call('HSET', KEYS[2], ARGV[3], id)
redis.call('SADD', KEYS[4], id)
--! include accounts/bump
return id
