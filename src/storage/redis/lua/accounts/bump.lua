-- Every write script ends here: KEYS[1] is the version counter, ARGV[1] the channel.
redis.call('PUBLISH', ARGV[1], redis.call('INCR', KEYS[1]))
