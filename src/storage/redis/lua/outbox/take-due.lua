-- KEYS: endpoints. ARGV: now, limit, per endpoint, lease end, delivery prefix, lane prefix, then
-- (endpoint, in flight at the caller) pairs. An endpoint at its limit costs one look; each other
-- due endpoint yields a delivery or drops a stale entry, so the scan is bounded.
--! include outbox/due
local limit, per = tonumber(ARGV[2]), tonumber(ARGV[3])
local busy, nbusy = {}, 0
for i = 7, #ARGV, 2 do busy[ARGV[i]] = tonumber(ARGV[i + 1]); nbusy = nbusy + 1 end
local taken = {}
local endpoints = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, limit + nbusy)
for _, endpoint in ipairs(endpoints) do
  local room = math.min(per - (busy[endpoint] or 0), limit - #taken)
  if room > 0 then
    local ids = redis.call('ZRANGEBYSCORE', ARGV[6] .. endpoint, '-inf', ARGV[1], 'LIMIT', 0, room)
    for _, id in ipairs(ids) do
      local key = ARGV[5] .. id
      local row = redis.call('HMGET', key, 'state', 'attempts', 'sent')
      if row[1] == 'pending' then
        local sent = math.max(tonumber(row[2]) or 0, tonumber(row[3]) or 0) + 1
        redis.call('HSET', key, 'sent', sent)
        due(KEYS[1], ARGV[6], endpoint, id, ARGV[4])
        table.insert(taken, id)
      else
        due(KEYS[1], ARGV[6], endpoint, id, false)
      end
    end
    if #ids == 0 then place(KEYS[1], ARGV[6], endpoint) end
  end
  if #taken >= limit then break end
end
return taken
