// The Redis key layout: every key kerf writes, by concern, all under one prefix
// (KERF_REDIS_PREFIX), so several deployments or test runs can share a server and be deleted as
// a whole. docs/operations.md has the same layout as a table. Lua scripts that walk ids build
// `account:<id>` and `apikey:<id>` from the prefix they are given (lua/accounts/read.lua,
// lua/api-keys/issue.lua, lua/api-keys/revoke.lua): change those with the methods here.
export class RedisKeys {
  constructor(readonly prefix: string) {}

  // Jobs and the queue.
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

  // The webhook outbox.
  /** Hash per delivery: target, body, state, attempt numbers, times. */
  delivery(id: string) { return `${this.prefix}delivery:${id}`; }
  /** Hash of one delivery's attempts by number (the account page's log). */
  deliveryAttempts(id: string) { return `${this.prefix}delivery:${id}:attempts`; }
  /** Endpoints (hosts) with pending deliveries, by when their first is due (a leased one by the end of its lease). */
  get deliveryEndpoints() { return `${this.prefix}deliveries:endpoints`; }
  /** Before deliveries were kept per endpoint: all pending ones by due time (read once, to move them). */
  get legacyDeliveriesDue() { return `${this.prefix}deliveries:due`; }
  /** One endpoint's pending deliveries by the time they are due. */
  deliveryLane(endpoint: string) { return `${this.prefix}deliveries:due:${endpoint}`; }
  /** One account's deliveries by creation time (the account page's log). */
  accountDeliveries(accountId: number | string) { return `${this.prefix}deliveries:account:${accountId}`; }
  /** One account's deliveries skipped while its endpoint was disabled (replayed on re-enable). */
  skippedDeliveries(accountId: number | string) { return `${this.prefix}deliveries:skipped:${accountId}`; }
  /** Pub/sub channel: a worker finished a job with a delivery, so the API nodes send it now. */
  get deliveriesWake() { return `${this.prefix}deliveries:wake`; }

  // Accounts and API keys (the directory every node keeps a copy of: directory.ts).
  /** INCR counters behind account and key ids: unique across every node. */
  get accountSequence() { return `${this.prefix}account-seq`; }
  get keySequence() { return `${this.prefix}apikey-seq`; }
  /** Ids of every account and every key (the copy each node keeps is read from these). */
  get accountIds() { return `${this.prefix}accounts:ids`; }
  get keyIds() { return `${this.prefix}apikeys:ids`; }
  /** E-mail -> account id (e-mails are unique), and key hash -> key id. */
  get emailIndex() { return `${this.prefix}accounts:email`; }
  get keyHashIndex() { return `${this.prefix}apikeys:hash`; }
  /** Hash per account (plan, hold, webhook, secrets, password hash) and per key (account, hash, prefix, label, times). */
  account(id: number | string) { return `${this.prefix}account:${id}`; }
  apiKey(id: number | string) { return `${this.prefix}apikey:${id}`; }
  /** Bumped by every account or key change; its new value is published on `directoryChanged`. */
  get directoryVersion() { return `${this.prefix}accounts:version`; }
  get directoryChanged() { return `${this.prefix}accounts:changed`; }

  // Account page sessions and sign-in links (expiring).
  session(tokenHash: string) { return `${this.prefix}session:${tokenHash}`; }
  loginLink(tokenHash: string) { return `${this.prefix}login-link:${tokenHash}`; }

  // Webhook endpoint health, per account.
  webhookHealth(accountId: number) { return `${this.prefix}webhook-health:${accountId}`; }

  // Rate limit windows and monthly usage counters.
  /** Calls in one window of one key (by its hash), expiring with the window. */
  rateWindow(keyHash: string, windowStart: number) { return `${this.prefix}rate:${keyHash}:${windowStart}`; }
  /** Hash per account and month: calls and compute. */
  usage(accountId: number, month: string) { return `${this.prefix}usage:${accountId}:${month}`; }
}

/** The queue's name inside BullMQ. */
export const JOB_QUEUE = 'jobs';
