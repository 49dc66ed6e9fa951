// Where everything lives in Redis, under one prefix (KERF_REDIS_PREFIX), so several
// deployments or test runs can share a server and be deleted as a whole.
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** INCR counter behind job ids: unique across every node, never reused. */
  get jobSequence() { return `${this.prefix}job-seq`; }
  /** Hash per job: account, state, request, attempts, owner, times, result or error. */
  job(id: number | string) { return `${this.prefix}job:${id}`; }
  /** Ids of queued and running jobs by submit time (recovery looks only here). */
  get unfinishedJobs() { return `${this.prefix}jobs:unfinished`; }
  /** Ids of done and failed jobs by finish time (the retention sweep looks only here). */
  get finishedJobs() { return `${this.prefix}jobs:finished`; }
  /** The account's latest job ids (the account page's list), scored by id. */
  accountJobs(accountId: number | string) { return `${this.prefix}jobs:account:${accountId}`; }
  /** One account's queued jobs not yet handed to BullMQ, by id (oldest first). */
  accountQueue(accountId: number | string) { return `${this.prefix}jobs:queued:${accountId}`; }
  /** Accounts with queued jobs, by their last turn: the order they take turns in. */
  get waitingAccounts() { return `${this.prefix}jobs:waiting`; }
  /** Every account's last turn (a number from turnSequence), kept while it has nothing queued. */
  get accountTurns() { return `${this.prefix}jobs:turns`; }
  get turnSequence() { return `${this.prefix}jobs:turn-seq`; }
  /** How many jobs of each account are running, on any worker. */
  get runningByAccount() { return `${this.prefix}jobs:running`; }
  /** Present while a worker process is alive (it renews the key). */
  owner(name: string) { return `${this.prefix}owner:${name}`; }
  /** BullMQ's own keys start with this. */
  get queuePrefix() { return `${this.prefix}bull`; }

  delivery(id: string) { return `${this.prefix}delivery:${id}`; }
  deliveryAttempts(id: string) { return `${this.prefix}delivery:${id}:attempts`; }
  /** Endpoints (hosts) with pending deliveries, by when their first is due (a leased one by the end of its lease). */
  get deliveryEndpoints() { return `${this.prefix}deliveries:endpoints`; }
  /** Before deliveries were kept per endpoint: all pending ones by due time (read once, to move them). */
  get legacyDeliveriesDue() { return `${this.prefix}deliveries:due`; }
  /** One endpoint's pending deliveries by the time they are due. */
  deliveryLane(endpoint: string) { return `${this.prefix}deliveries:due:${endpoint}`; }
  accountDeliveries(accountId: number | string) { return `${this.prefix}deliveries:account:${accountId}`; }
  skippedDeliveries(accountId: number | string) { return `${this.prefix}deliveries:skipped:${accountId}`; }
  /** Pub/sub channel: a worker finished a job with a delivery, so the API nodes send it now. */
  get deliveriesWake() { return `${this.prefix}deliveries:wake`; }

  rateWindow(keyHash: string, windowStart: number) { return `${this.prefix}rate:${keyHash}:${windowStart}`; }
  usage(accountId: number, month: string) { return `${this.prefix}usage:${accountId}:${month}`; }
}

/** The queue's name inside BullMQ. */
export const JOB_QUEUE = 'jobs';
