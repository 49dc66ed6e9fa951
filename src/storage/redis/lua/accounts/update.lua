-- KEYS: version, account. ARGV: channel, then field/value pairs (an empty value clears the field).
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
for i = 2, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[2], ARGV[i]) else redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
--! include accounts/bump
return 1
