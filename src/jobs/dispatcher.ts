// Moves queued jobs onto free pool threads and writes what comes back. A job is claimed only
// when a thread is free; a worker that dies puts its job back in the queue (at-least-once),
// and the attempt number makes sure only one result is ever written.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { AccountStore } from '../storage/accounts/store.js';
import type { UsageMeter } from '../storage/metering/store.js';
import type { Metrics } from '../metrics.js';
import { BudgetExceeded, type EnginePool } from '../pool/pool.js';
import type { NewDelivery, WebhookEvent } from '../storage/outbox/store.js';
import type { ClaimedJob, JobStore } from '../storage/jobs/store.js';

export interface DispatcherOptions {
  owner: string;
  budgetMs: number;
  /** Ceiling on the default search (KERF_DEFAULT_SEARCH_MS); absent: the engine facades' default. */
  defaultSearchMs?: number;
  minOffcut: number;
  maxAttempts: number;
  pollMs?: number;
  /** Called after a finish that queued a webhook delivery, so it goes out at once. */
  onDelivery?: () => void;
}

export class Dispatcher {
  private timer?: NodeJS.Timeout;
  private filling = false;
  private stopping = false;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly store: JobStore,
    private readonly pool: EnginePool,
    private readonly metering: UsageMeter,
    private readonly accounts: AccountStore,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  async start(): Promise<void> {
    const recovered = await this.store.recover([this.options.owner]);
    if (recovered) this.log.warn({ recovered }, 'requeued jobs left running by a stopped process');
    this.timer = setInterval(() => void this.kick(), this.options.pollMs ?? 250);
    this.timer.unref();
    void this.kick();
  }

  /** Claims jobs while threads are free. Called on submit, on each finish and on a timer. */
  async kick(): Promise<void> {
    if (this.filling || this.stopping) return;
    this.filling = true;
    try {
      while (this.pool.free > 0 && !this.stopping) {
        const job = await this.store.claim(this.options.owner);
        if (!job) break;
        // A store write can fail (Redis unreachable); the job is then re-run once its claim lapses.
        const execution = this.execute(job).catch((error) => this.log.error({ err: error, jobId: job.id }, 'job bookkeeping failed')).finally(() => {
          this.running.delete(execution);
          void this.kick();
        });
        this.running.add(execution);
      }
    } catch (error) {
      this.log.error({ err: error }, 'dispatch failed');
    } finally {
      this.filling = false;
      this.metrics.poolBusy.set(this.pool.busy);
    }
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const log = this.log.child({ jobId: job.id, attempt: job.attempt });
    const started = Date.now();
    if (job.attempt > this.options.maxAttempts) {
      // Each earlier attempt died with its whole process (recovered on restart or by another node): stop here.
      const message = `the calculation failed after ${job.attempt - 1} attempts`;
      log.error('job failed: its process died on every attempt');
      if (await this.store.fail(job.id, job.attempt, message, 0, this.delivery(job, 'job.failed', failedBody(message)))) this.options.onDelivery?.();
      return;
    }
    try {
      const outcome = await this.pool.run({
        kind: 'calculate',
        jobId: job.id,
        attempt: job.attempt,
        request: job.request,
        budgetMs: this.options.budgetMs,
        ...(this.options.defaultSearchMs !== undefined ? { defaultSearchMs: this.options.defaultSearchMs } : {}),
        minOffcut: this.options.minOffcut,
      });
      const written = outcome.ok
        ? await this.store.complete(job.id, job.attempt, outcome.result, outcome.computeMs, this.delivery(job, 'job.completed', outcome.result))
        : await this.store.fail(job.id, job.attempt, outcome.message, outcome.computeMs, this.delivery(job, 'job.failed', failedBody(outcome.message)));
      // The service's own fault (an engine threw): the line names what reproduces it.
      if (!outcome.ok && outcome.internal) log.error({ message: outcome.message, violations: outcome.violations, ...reproduction(job.request) }, 'job failed: internal error');
      if (written) {
        this.options.onDelivery?.();
        await this.metering.addCompute(job.accountId, outcome.computeMs);
        this.metrics.jobDuration.labels(outcome.ok ? 'done' : 'failed').observe(outcome.computeMs / 1000);
        log.info({ ms: Math.round(outcome.computeMs), outcome: outcome.ok ? 'done' : 'failed' }, 'job finished');
      }
    } catch (error) {
      const elapsed = Date.now() - started;
      if (error instanceof BudgetExceeded || job.attempt >= this.options.maxAttempts) {
        const message = error instanceof BudgetExceeded ? error.message : `the calculation failed after ${job.attempt} attempts`;
        log.error({ err: error }, 'job failed');
        if (await this.store.fail(job.id, job.attempt, message, elapsed, this.delivery(job, 'job.failed', failedBody(message)))) {
          this.options.onDelivery?.();
          await this.metering.addCompute(job.accountId, elapsed);
          this.metrics.jobDuration.labels('failed').observe(elapsed / 1000);
        }
      } else {
        log.warn({ err: error }, 'worker died; job goes back to the queue');
        this.metrics.jobRetries.inc();
        await this.store.release(job.id, job.attempt);
      }
    }
  }

  /** The webhook delivery announcing a finished job: the request's URL wins over the account default. */
  private delivery(job: ClaimedJob, event: WebhookEvent, body: string): NewDelivery | undefined {
    const accountDefault = job.accountWebhook !== undefined ? job.accountWebhook : this.accounts.get(job.accountId)?.webhookUrl;
    const url = job.webhook ?? accountDefault ?? null;
    if (!url) return undefined;
    return { id: crypto.randomUUID(), accountId: job.accountId, jobId: job.id, event, url, accountDefault: job.webhook === null, body };
  }

  /** Stops claiming and waits for the jobs in hand. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.running]);
  }
}

/** The job.failed body; GET /v3/result answers the same plus the version. */
function failedBody(message: string): string {
  return JSON.stringify({ statusCode: 422, message });
}

/** What reproduces a job: the hash of its canonical request (stored with the job) and its seed. */
export function reproduction(request: string): { requestSha256: string; seed: unknown } {
  let seed: unknown;
  try {
    seed = (JSON.parse(request) as { saw?: { options?: { seed?: unknown } } }).saw?.options?.seed;
  } catch {
    seed = undefined;
  }
  return { requestSha256: crypto.createHash('sha256').update(request).digest('hex'), seed };
}
