-- KEYS: unfinished set, running by account. Jobs queued = unfinished less running.
local n = redis.call('ZCARD', KEYS[1])
for _, running in ipairs(redis.call('HVALS', KEYS[2])) do n = n - tonumber(running) end
return n
