-- KEYS: the account's health hash. ARGV: now, warn after ms, disable after ms. Returns the events.
redis.call('HSETNX', KEYS[1], 'failingSince', ARGV[1])
local failingFor = tonumber(ARGV[1]) - tonumber(redis.call('HGET', KEYS[1], 'failingSince'))
local events = {}
if redis.call('HEXISTS', KEYS[1], 'warnedAt') == 0 and failingFor >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'warnedAt', ARGV[1])
  table.insert(events, 'warn')
end
if redis.call('HEXISTS', KEYS[1], 'disabledAt') == 0 and failingFor >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'disabledAt', ARGV[1])
  table.insert(events, 'disable')
end
return events
