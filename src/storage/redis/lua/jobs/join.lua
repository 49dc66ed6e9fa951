-- Puts a queued job in its account's queue; an account that had nothing queued joins the
-- turns at its last turn (a new one at a fresh turn, after everyone waiting).
local function join(queue, waiting, turns, sequence, account, id)
  redis.call('ZADD', queue, 'NX', id, id)
  if redis.call('ZSCORE', waiting, account) then return end
  local turn = redis.call('HGET', turns, account)
  if not turn then
    turn = redis.call('INCR', sequence)
    redis.call('HSET', turns, account, turn)
  end
  redis.call('ZADD', waiting, turn, account)
end
