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
  /** Present while a worker process is alive (it renews the key). */
  owner(name: string) { return `${this.prefix}owner:${name}`; }
  /** BullMQ's own keys start with this. */
  get queuePrefix() { return `${this.prefix}bull`; }

  delivery(id: string) { return `${this.prefix}delivery:${id}`; }
  deliveryAttempts(id: string) { return `${this.prefix}delivery:${id}:attempts`; }
  /** Pending deliveries by the time they are due (a leased one by the end of its lease). */
  get deliveriesDue() { return `${this.prefix}deliveries:due`; }
  accountDeliveries(accountId: number | string) { return `${this.prefix}deliveries:account:${accountId}`; }
  skippedDeliveries(accountId: number | string) { return `${this.prefix}deliveries:skipped:${accountId}`; }
  /** Pub/sub channel: a worker finished a job with a delivery, so the API nodes send it now. */
  get deliveriesWake() { return `${this.prefix}deliveries:wake`; }

  rateWindow(keyHash: string, windowStart: number) { return `${this.prefix}rate:${keyHash}:${windowStart}`; }
  usage(accountId: number, month: string) { return `${this.prefix}usage:${accountId}:${month}`; }
}

/** The queue's name inside BullMQ. */
export const JOB_QUEUE = 'jobs';
