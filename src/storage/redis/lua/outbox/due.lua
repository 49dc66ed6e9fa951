-- Sets a delivery's due time in its endpoint's set (or takes it out), and the endpoint's place
-- among the endpoints to its first due time. Delivery keys and endpoint sets are named by prefix.
local function place(endpoints, lanePrefix, endpoint)
  local first = redis.call('ZRANGE', lanePrefix .. endpoint, 0, 0, 'WITHSCORES')
  if first[1] then redis.call('ZADD', endpoints, first[2], endpoint) else redis.call('ZREM', endpoints, endpoint) end
end
local function due(endpoints, lanePrefix, endpoint, id, at)
  if at then redis.call('ZADD', lanePrefix .. endpoint, at, id) else redis.call('ZREM', lanePrefix .. endpoint, id) end
  place(endpoints, lanePrefix, endpoint)
end
