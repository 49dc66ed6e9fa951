// The job store on Redis, for API and worker processes on several machines. A job is a hash
// (the record readers see) plus an entry in a BullMQ queue (the dispatch). BullMQ hands each
// job to one free worker, holds a lock that the worker renews, and puts the job back in the
// queue when a worker dies and its lock runs out (stall recovery). The hash is the truth about
// the job: every claim bumps its attempt number, and a result is written only by a script that
// checks the job is still running under that attempt, so a re-run job's result lands once.
// Accounts take turns: a submitted job waits in its account's queue, and a worker with a free
// thread moves the next one by turn (PICK) into BullMQ just before it asks BullMQ for a job.
import crypto from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { connectRedis, type Redis } from '../redis/client.js';
import { luaScript } from '../redis/lua.js';
import { JOB_QUEUE, RedisKeys } from '../redis/keys.js';
import { endpointOf, type NewDelivery } from '../outbox/store.js';
import { newDeliveryFields } from '../outbox/redis.js';
import { RECENT_JOBS, type ClaimedJob, type JobState, type JobStore, type JobSummary, type JobView, type NewJob } from './store.js';

export interface RedisJobStoreOptions {
  url: string;
  prefix: string;
  retentionMs: number;
  /** How long a claim holds without renewal; a dead worker's job is re-run within about twice this. */
  lockMs: number;
  /** This process's worker name, kept alive in Redis while it runs, so recovery elsewhere leaves its jobs alone. */
  owner?: string;
  /** Most jobs of one account running at once across all workers; 0 for no cap. */
  accountThreads?: number;
  onError?: (error: Error) => void;
}

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const SUBMIT = luaScript('jobs/submit');
const REQUEUE_FAIR = luaScript('jobs/requeue-fair');
const PICK = luaScript('jobs/pick');
const DEPTH = luaScript('jobs/depth');
const CLAIM = luaScript('jobs/claim');
const FINISH = luaScript('jobs/finish');
const REQUEUE = luaScript('jobs/requeue');
const EXPIRE = luaScript('jobs/expire');

const EXPIRE_BATCH = 500;
const RECOVER_CHUNK = 200;
const FINISHED_CACHE_SIZE = 100_000;

interface Held {
  job: Job;
  token: string;
}

/** A finished job never changes again except by expiring, which its finish time decides. */
interface Finished {
  accountId: number;
  state: 'done' | 'failed';
  finishedAt: number;
}

export class RedisJobStore implements JobStore {
  private readonly keys: RedisKeys;
  private readonly queue: Queue;
  private worker?: Worker;
  private workerClient?: Redis;
  /** Jobs this process runs, by id and attempt, with the BullMQ lock it renews. */
  private readonly held = new Map<string, Held>();
  private readonly finished = new Map<number, Finished>();
  private readonly renewTimer: NodeJS.Timeout;
  private renewing = false;

  private constructor(private readonly redis: Redis, private readonly queueClient: Redis, private readonly options: RedisJobStoreOptions) {
    this.keys = new RedisKeys(options.prefix);
    this.queue = new Queue(JOB_QUEUE, { connection: queueClient, prefix: this.keys.queuePrefix });
    this.queue.on('error', (error) => options.onError?.(error));
    this.renewTimer = setInterval(() => void this.renew(), Math.max(250, Math.floor(options.lockMs / 3)));
    this.renewTimer.unref();
  }

  static async open(options: RedisJobStoreOptions): Promise<RedisJobStore> {
    const onError = options.onError ?? (() => {});
    const [redis, queueClient] = await Promise.all([connectRedis(options.url, onError), connectRedis(options.url, onError)]);
    const store = new RedisJobStore(redis, queueClient, options);
    await store.renew();
    return store;
  }

  /** The connection the outbox and the counters share with the store. */
  get client(): Redis {
    return this.redis;
  }

  async submit(job: NewJob): Promise<number> {
    return Number(await SUBMIT.run(this.redis, [
      this.keys.jobSequence, this.keys.unfinishedJobs, this.keys.accountJobs(job.accountId), this.keys.accountQueue(job.accountId),
      this.keys.waitingAccounts, this.keys.accountTurns, this.keys.turnSequence,
    ], [this.keys.job(''), job.accountId, job.kind, job.request, Date.now(), job.webhook ?? '', job.accountWebhook ?? '', RECENT_JOBS]));
  }

  /** Adding an id BullMQ already holds is a no-op, so a job handed over twice runs once. */
  private async enqueue(id: number): Promise<void> {
    await this.queue.add('calculate', { id }, { jobId: `job-${id}`, removeOnComplete: true, removeOnFail: true });
  }

  async get(id: number, accountId: number, now = Date.now()): Promise<JobView | undefined> {
    const [account, state, created, finished, result, error] = await this.redis.hmGet(this.keys.job(id), ['account', 'state', 'created', 'finished', 'result', 'error']);
    if (account === null || account === undefined || Number(account) !== accountId) return undefined;
    const finishedAt = finished ? Number(finished) : null;
    const expired = state === 'expired'
      || ((state === 'done' || state === 'failed') && finishedAt !== null && finishedAt + this.options.retentionMs <= now);
    return {
      id,
      accountId,
      state: expired ? 'expired' : state as JobState,
      createdAt: Number(created),
      finishedAt,
      result: expired ? null : result ?? null,
      error: expired ? null : error ?? null,
    };
  }

  async recent(accountId: number, limit: number, now = Date.now()): Promise<JobSummary[]> {
    const ids = await this.redis.zRange(this.keys.accountJobs(accountId), 0, limit - 1, { REV: true });
    const rows = await Promise.all(ids.map((id) => this.redis.hmGet(this.keys.job(id), ['state', 'created', 'finished'])));
    return ids.flatMap((id, i) => {
      const [state, created, finished] = rows[i];
      if (!state) return [];
      const finishedAt = finished ? Number(finished) : null;
      const expired = (state === 'done' || state === 'failed') && finishedAt !== null && finishedAt + this.options.retentionMs <= now;
      return [{ id: Number(id), state: expired ? 'expired' : state as JobState, createdAt: Number(created), finishedAt }];
    });
  }

  state(id: number, accountId: number, now = Date.now()): JobState | undefined | Promise<JobState | undefined> {
    const known = this.finished.get(id);
    return known ? this.finishedState(known, accountId, now) : this.fetchState(id, accountId, now);
  }

  private async fetchState(id: number, accountId: number, now: number): Promise<JobState | undefined> {
    const [account, state, finished] = await this.redis.hmGet(this.keys.job(id), ['account', 'state', 'finished']);
    if (account === null || account === undefined || Number(account) !== accountId) return undefined;
    if (state !== 'done' && state !== 'failed') return state as JobState;
    const known = { accountId, state, finishedAt: Number(finished) } as const;
    if (this.finished.size >= FINISHED_CACHE_SIZE) this.finished.clear();
    this.finished.set(id, known);
    return this.finishedState(known, accountId, now);
  }

  private finishedState(known: { accountId: number; state: 'done' | 'failed'; finishedAt: number }, accountId: number, now: number): JobState | undefined {
    if (known.accountId !== accountId) return undefined;
    return known.finishedAt + this.options.retentionMs <= now ? 'expired' : known.state;
  }

  async claim(owner: string): Promise<ClaimedJob | undefined> {
    const worker = await this.startWorker();
    // The job whose turn it is goes to BullMQ, which hands this worker the oldest it holds: that
    // one, one another worker just moved, or one put back after a stall.
    const next = await PICK.run(this.redis, [this.keys.waitingAccounts, this.keys.accountTurns, this.keys.turnSequence, this.keys.runningByAccount],
      [this.options.accountThreads ?? 0, this.keys.accountQueue('')]) as string | null;
    if (next) await this.enqueue(Number(next));
    for (;;) {
      const token = `${owner}:${crypto.randomUUID()}`;
      const job = await worker.getNextJob(token, { block: false }) as Job | undefined;
      if (!job) return undefined;
      const id = Number((job.data as { id: number }).id);
      const row = await CLAIM.run(this.redis, [this.keys.job(id), this.keys.runningByAccount], [owner, Date.now()]) as string[] | null;
      if (!row) {
        // Finished (or gone) already: a stalled copy of a job whose result was written.
        await job.moveToCompleted(null, token, false).catch(() => {});
        continue;
      }
      const [attempt, account, kind, request, webhook, accountWebhook] = row;
      this.held.set(`${id}:${attempt}`, { job, token });
      // Workers may run where the accounts are not: the default URL travels with the job.
      return {
        id, accountId: Number(account), kind: kind as 'calculate', request, webhook: webhook || null, attempt: Number(attempt),
        accountWebhook: accountWebhook || null,
      };
    }
  }

  /** Workers only: API processes never claim, so they never open the worker connection. */
  private async startWorker(): Promise<Worker> {
    if (this.worker) return this.worker;
    this.workerClient = await connectRedis(this.options.url, this.options.onError ?? (() => {}));
    if (this.worker) return this.worker;
    this.worker = new Worker(JOB_QUEUE, null, {
      connection: this.workerClient,
      prefix: this.keys.queuePrefix,
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.lockMs,
      // Attempts are counted and capped by the dispatcher (KERF_MAX_ATTEMPTS), not by BullMQ.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    });
    this.worker.on('error', (error) => this.options.onError?.(error));
    await this.worker.startStalledCheckTimer();
    return this.worker;
  }

  async complete(id: number, attempt: number, result: string, computeMs: number, delivery?: NewDelivery): Promise<boolean> {
    return this.finish(id, attempt, 'done', 'result', result, computeMs, delivery);
  }

  async fail(id: number, attempt: number, message: string, computeMs: number, delivery?: NewDelivery): Promise<boolean> {
    return this.finish(id, attempt, 'failed', 'error', message, computeMs, delivery);
  }

  private async finish(id: number, attempt: number, state: 'done' | 'failed', field: string, text: string, computeMs: number, delivery?: NewDelivery): Promise<boolean> {
    // Stop renewing first: if the write below fails, the lock runs out and the job is re-run.
    const held = this.take(id, attempt);
    const now = Date.now();
    const deliveryArgs = delivery ? [delivery.id, ...newDeliveryFields(delivery, now)] : [''];
    const written = await FINISH.run(this.redis, [
      this.keys.job(id), this.keys.unfinishedJobs, this.keys.finishedJobs,
      this.keys.delivery(delivery?.id ?? 'none'), this.keys.deliveryLane(delivery ? endpointOf(delivery.url) : ''),
      this.keys.accountDeliveries(delivery?.accountId ?? 0), this.keys.deliveryEndpoints, this.keys.runningByAccount,
    ], [attempt, state, field, text, Math.round(computeMs), now, id, ...deliveryArgs]) === 1;
    // The queue entry is done either way; a stale attempt no longer holds its lock, and then this is refused.
    if (held) await held.job.moveToCompleted(null, held.token, false).catch(() => {});
    return written;
  }

  async release(id: number, attempt: number): Promise<void> {
    await REQUEUE.run(this.redis, [this.keys.job(id), this.keys.runningByAccount], [attempt, 'attempt']);
    const held = this.take(id, attempt);
    if (held) await held.job.moveToWait(held.token).catch(() => {});
  }

  private take(id: number, attempt: number): Held | undefined {
    const key = `${id}:${attempt}`;
    const held = this.held.get(key);
    this.held.delete(key);
    return held;
  }

  /**
   * Marks running jobs of dead owners queued again (BullMQ re-dispatches them once their lock
   * runs out), and puts queued jobs back in their account's queue (in case a claim was cut short
   * between taking one out and handing it to BullMQ; one handed over twice still runs once).
   * An owner is alive when it is listed or its key in Redis is still being renewed.
   */
  async recover(liveOwners: string[]): Promise<number> {
    const live = new Set(liveOwners);
    const ids = await this.redis.zRange(this.keys.unfinishedJobs, 0, -1);
    let requeued = 0;
    const recoverOne = async (id: string) => {
      const [state, owner] = await this.redis.hmGet(this.keys.job(id), ['state', 'owner']);
      if (state === 'queued') {
        await REQUEUE_FAIR.run(this.redis, [this.keys.job(id), this.keys.waitingAccounts, this.keys.accountTurns, this.keys.turnSequence],
          [this.keys.accountQueue(''), id]);
      }
      if (state !== 'running' || !owner || live.has(owner)) return;
      if (await this.redis.exists(this.keys.owner(owner))) return;
      requeued += Number(await REQUEUE.run(this.redis, [this.keys.job(id), this.keys.runningByAccount], [owner, 'owner']));
    };
    // In chunks: the connection pipelines the commands of a chunk.
    for (let at = 0; at < ids.length; at += RECOVER_CHUNK) await Promise.all(ids.slice(at, at + RECOVER_CHUNK).map(recoverOne));
    return requeued;
  }

  async expire(now = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      const n = Number(await EXPIRE.run(this.redis, [this.keys.finishedJobs], [now - this.options.retentionMs, this.keys.job(''), EXPIRE_BATCH]));
      total += n;
      if (n < EXPIRE_BATCH) return total;
    }
  }

  async queueDepth(): Promise<number> {
    return Number(await DEPTH.run(this.redis, [this.keys.unfinishedJobs, this.keys.runningByAccount], []));
  }

  /** Keeps this process's owner key and the locks of the jobs it runs alive. */
  private async renew(): Promise<void> {
    // While Redis is away commands wait; do not pile up renewals behind them.
    if (this.renewing) return;
    this.renewing = true;
    try {
      if (this.options.owner) await this.redis.set(this.keys.owner(this.options.owner), String(process.pid), { PX: this.options.lockMs });
      for (const [key, held] of this.held) {
        if (await held.job.extendLock(held.token, this.options.lockMs) === 0) this.held.delete(key);
      }
    } catch (error) {
      this.options.onError?.(error as Error);
    } finally {
      this.renewing = false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.renewTimer);
    // Jobs still held go back to the queue at once rather than after their lock runs out.
    for (const [key, held] of this.held) {
      const [id, attempt] = key.split(':');
      await REQUEUE.run(this.redis, [this.keys.job(id), this.keys.runningByAccount], [attempt, 'attempt']).catch(() => {});
      await held.job.moveToWait(held.token).catch(() => {});
    }
    this.held.clear();
    await this.worker?.close(true);
    await this.queue.close();
    if (this.options.owner) await this.redis.del(this.keys.owner(this.options.owner)).catch(() => {});
    await Promise.all([this.redis, this.queueClient, this.workerClient].map((client) => client?.close().catch(() => {})));
  }
}
