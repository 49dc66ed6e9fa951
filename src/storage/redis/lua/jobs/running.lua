-- Counts a job of an account in or out of running (a count that reaches 0 is removed).
local function running(counts, account, by)
  if redis.call('HINCRBY', counts, account, by) <= 0 then redis.call('HDEL', counts, account) end
end
