// The parts that move to Redis when KERF_REDIS_URL is set: job store and queue, webhook outbox,
// rate-limit and metering counters, accounts and keys, sessions, endpoint health. They share
// one connection (BullMQ opens its own; the accounts' change feed one more).
import type { Logger } from 'pino';
import { AccountKeys } from './account-keys.js';
import { RedisAccountStore } from '../accounts/redis.js';
import { RedisMetering } from '../metering/redis.js';
import { RedisSessions } from '../sessions/redis.js';
import { RedisRateLimiter } from '../rate-limit/redis.js';
import type { Config } from '../../config.js';
import { RedisJobStore } from '../jobs/redis.js';
import { RedisEndpointHealth } from '../health/redis.js';
import { RedisOutbox } from '../outbox/redis.js';
import { RedisKeys } from './keys.js';

export interface RedisServices {
  jobs: RedisJobStore;
  outbox: RedisOutbox;
  limiter: RedisRateLimiter;
  metering: RedisMetering;
  accounts: RedisAccountStore;
  sessions: RedisSessions;
  health: RedisEndpointHealth;
}

export async function openRedisServices(config: Config & { redisUrl: string }, owner: string, log: Logger): Promise<RedisServices> {
  // Connection errors repeat while Redis is away; one line per distinct message is enough.
  let lastError = '';
  const onError = (error: Error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    log.error({ err: error }, 'redis connection error (retrying)');
  };
  const jobs = await RedisJobStore.open({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    retentionMs: config.retentionMs,
    lockMs: config.redisLockMs,
    accountThreads: config.accountThreads,
    owner: config.role === 'api' ? undefined : owner,
    onError,
  });
  const keys = new RedisKeys(config.redisPrefix);
  const accountKeys = new AccountKeys(config.redisPrefix);
  const accounts = await RedisAccountStore.open(jobs.client, accountKeys, {
    defaults: { ratePerMinute: config.defaultRatePerMinute, monthlyCalls: config.defaultMonthlyCalls },
    watch: true,
    onError,
  });
  return {
    accounts,
    sessions: new RedisSessions(jobs.client, accountKeys),
    health: new RedisEndpointHealth(jobs.client, accountKeys, { warnAfterMs: config.webhookWarnAfterMs, disableAfterMs: config.webhookDisableAfterMs }),
    jobs,
    outbox: new RedisOutbox(jobs.client, keys),
    limiter: new RedisRateLimiter(jobs.client, keys, config.rateWindowMs),
    metering: new RedisMetering(jobs.client, keys),
  };
}
