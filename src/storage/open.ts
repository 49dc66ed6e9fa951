// The one place the adapters are chosen, for the server (src/main.ts) and the CLI
// (src/cli/kerf.ts): the embedded SQLite database in the data directory, or, with
// KERF_REDIS_URL, everything nodes share in Redis (job store and queue, webhook outbox, rate
// limit and usage counters, accounts, API keys, sessions, endpoint health). The data directory's
// database is opened either way (it also holds the local files' index).
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { RedisAccountStore } from './accounts/redis.js';
import { SqliteAccountStore } from './accounts/sqlite.js';
import type { AccountStore } from './accounts/store.js';
import { RedisApiKeyStore } from './api-keys/redis.js';
import { SqliteApiKeyStore } from './api-keys/sqlite.js';
import type { ApiKeyStore } from './api-keys/store.js';
import { RedisEndpointHealth } from './health/redis.js';
import { SqliteEndpointHealth } from './health/sqlite.js';
import type { EndpointHealth } from './health/store.js';
import { RedisJobStore } from './jobs/redis.js';
import { SqliteJobStore } from './jobs/sqlite.js';
import type { JobStore, NewJob } from './jobs/store.js';
import { RedisMetering } from './metering/redis.js';
import { SqliteMetering } from './metering/sqlite.js';
import type { UsageMeter } from './metering/store.js';
import { RedisOutbox } from './outbox/redis.js';
import { SqliteOutbox } from './outbox/sqlite.js';
import type { OutboxStore } from './outbox/store.js';
import { MemoryRateLimiter } from './rate-limit/memory.js';
import { RedisRateLimiter } from './rate-limit/redis.js';
import type { RateLimiter } from './rate-limit/store.js';
import { connectRedis, type Redis } from './redis/client.js';
import { RedisDirectory } from './redis/directory.js';
import { RedisKeys } from './redis/keys.js';
import { RedisSessions } from './sessions/redis.js';
import { SqliteSessions } from './sessions/sqlite.js';
import type { Sessions } from './sessions/store.js';
import { openDatabase, type Db } from './sqlite/db.js';

export interface Storage {
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  sessions: Sessions;
  health: EndpointHealth;
  metering: UsageMeter;
  outbox: OutboxStore;
  limiter: RateLimiter;
  /** Nodes share Redis: a worker announces a finished job's delivery to the API nodes' loops. */
  deliveryWakeups?: Pick<RedisOutbox, 'announce' | 'listen'>;
  /** Closes every connection and the database. */
  close(): Promise<void>;
}

export interface ServerStorage extends Storage {
  jobs: JobStore;
  /**
   * Queues an accepted job and counts its call against the account's month. On SQLite both are
   * one transaction (one commit instead of two, and never a job without its call counted); on
   * Redis the job, then the count.
   */
  acceptJob(job: NewJob): Promise<number>;
}

export interface StorageOptions {
  /** Connection errors go here (repeats of one message are dropped). */
  log?: Logger;
  /** The server opens the job store (and claims jobs as `owner` unless KERF_ROLE=api). */
  jobs?: { owner: string };
}

/** acceptJob on SQLite: the job and its call's count in one immediate transaction, one commit. */
function acceptInOneCommit(db: Db, jobs: SqliteJobStore, metering: SqliteMetering): (job: NewJob) => Promise<number> {
  const accept = db.transaction((job: NewJob) => {
    const id = jobs.insert(job);
    metering.countCall(job.accountId);
    return id;
  });
  return async (job) => accept.immediate(job);
}

export async function openStorage(config: Config, options: StorageOptions & { jobs: { owner: string } }): Promise<ServerStorage>;
export async function openStorage(config: Config, options?: StorageOptions): Promise<Storage>;
export async function openStorage(config: Config, options: StorageOptions = {}): Promise<Storage | ServerStorage> {
  const db = openDatabase(config.dataDir);
  const defaults = { ratePerMinute: config.defaultRatePerMinute, monthlyCalls: config.defaultMonthlyCalls };
  const thresholds = { warnAfterMs: config.webhookWarnAfterMs, disableAfterMs: config.webhookDisableAfterMs };
  if (!config.redisUrl) {
    const outbox = new SqliteOutbox(db);
    const apiKeys = new SqliteApiKeyStore(db);
    const metering = new SqliteMetering(db);
    const jobs = options.jobs ? new SqliteJobStore(db, { retentionMs: config.retentionMs, outbox, accountThreads: config.accountThreads }) : undefined;
    return {
      // The key lookup caches accounts: a change to one drops them.
      accounts: new SqliteAccountStore(db, defaults, () => apiKeys.refresh()),
      apiKeys,
      sessions: new SqliteSessions(db),
      health: new SqliteEndpointHealth(db, thresholds),
      metering,
      outbox,
      limiter: new MemoryRateLimiter(config.rateWindowMs),
      ...(jobs ? { jobs, acceptJob: acceptInOneCommit(db, jobs, metering) } : {}),
      close: async () => {
        db.close();
      },
    };
  }

  // Connection errors repeat while Redis is away; one line per distinct message is enough.
  let lastError = '';
  const onError = (error: Error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    options.log?.error({ err: error }, 'redis connection error (retrying)');
  };
  // The job store opens the shared connection (and BullMQ's); the CLI needs only the connection.
  const jobs = options.jobs ? await RedisJobStore.open({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    retentionMs: config.retentionMs,
    lockMs: config.redisLockMs,
    accountThreads: config.accountThreads,
    owner: config.role === 'api' ? undefined : options.jobs.owner,
    onError,
  }) : undefined;
  const redis: Redis = jobs?.client ?? await connectRedis(config.redisUrl, onError);
  const keys = new RedisKeys(config.redisPrefix);
  // A server follows other nodes' account and key changes; a one-shot CLI run reads once.
  const directory = await RedisDirectory.open(redis, keys, { watch: Boolean(options.jobs), onError });
  const outbox = new RedisOutbox(redis, keys);
  const metering = new RedisMetering(redis, keys);
  return {
    accounts: new RedisAccountStore(directory, defaults),
    apiKeys: new RedisApiKeyStore(directory),
    sessions: new RedisSessions(redis, keys),
    health: new RedisEndpointHealth(redis, keys, thresholds),
    metering,
    outbox,
    limiter: new RedisRateLimiter(redis, keys, config.rateWindowMs),
    deliveryWakeups: outbox,
    ...(jobs ? { jobs, acceptJob: async (job: NewJob) => {
      const id = await jobs.submit(job);
      await metering.countCall(job.accountId);
      return id;
    } } : {}),
    close: async () => {
      await directory.close();
      if (jobs) await jobs.close();
      else await redis.close();
      db.close();
    },
  };
}
