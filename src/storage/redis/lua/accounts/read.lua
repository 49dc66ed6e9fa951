-- KEYS: version, account ids, key ids. ARGV: prefix. The whole directory in one consistent read:
-- { version, { id, { field, value, ... } }..., { id, { field, value, ... } }... }.
local accounts = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  table.insert(accounts, id)
  table.insert(accounts, redis.call('HGETALL', ARGV[1] .. 'account:' .. id))
end
local keys = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  table.insert(keys, id)
  table.insert(keys, redis.call('HGETALL', ARGV[1] .. 'apikey:' .. id))
end
return { redis.call('GET', KEYS[1]) or '0', accounts, keys }
