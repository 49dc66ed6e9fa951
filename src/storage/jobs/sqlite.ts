// The embedded job store: jobs are rows in the service's SQLite file, so queued and finished
// jobs survive a restart. AUTOINCREMENT keeps ids unique and never reused. Accounts take turns
// at the pool (claim); whose turn was when is kept in memory, since a restart may forget it.
import type { Db } from '../sqlite/db.js';
import type { SqliteOutbox } from '../outbox/sqlite.js';
import type { NewDelivery } from '../outbox/store.js';
import type { ClaimedJob, JobState, JobStore, JobSummary, JobView, NewJob } from './store.js';

interface JobRow {
  id: number;
  account_id: number;
  kind: 'calculate';
  state: JobState;
  request: string;
  webhook: string | null;
  attempts: number;
  created_at: number;
  finished_at: number | null;
  result: string | null;
  error: string | null;
}

/** A finished job never changes again except by expiring, which its finish time decides. */
interface Finished {
  accountId: number;
  state: 'done' | 'failed';
  finishedAt: number;
}

const FINISHED_CACHE_SIZE = 100_000;

export interface SqliteJobStoreOptions {
  retentionMs: number;
  /** Where webhook deliveries are written with the result. */
  outbox?: SqliteOutbox;
  /** Most jobs of one account running at once; 0 for no cap. */
  accountThreads?: number;
}

export class SqliteJobStore implements JobStore {
  private readonly statements;
  private readonly claimInTransaction;
  private readonly finishInTransaction;
  private readonly finished = new Map<number, Finished>();
  private readonly retentionMs: number;
  private readonly outbox?: SqliteOutbox;
  /** Each account's last turn: when it entered the queue or was last served (a counter). */
  private readonly turns = new Map<number, number>();
  private turn = 0;

  constructor(private readonly db: Db, options: SqliteJobStoreOptions) {
    this.retentionMs = options.retentionMs;
    this.outbox = options.outbox;
    const cap = options.accountThreads || Number.MAX_SAFE_INTEGER;
    this.statements = {
      insert: db.prepare(`INSERT INTO jobs (account_id, kind, state, request, webhook, created_at) VALUES (?, ?, 'queued', ?, ?, ?)`),
      get: db.prepare(`SELECT id, account_id, state, created_at, finished_at, result, error FROM jobs WHERE id = ? AND account_id = ?`),
      recent: db.prepare(`SELECT id, state, created_at, finished_at FROM jobs WHERE account_id = ? ORDER BY id DESC LIMIT ?`),
      // Per account with queued jobs: its oldest one and how many of its jobs run.
      waiting: db.prepare(`SELECT q.account_id AS accountId, MIN(q.id) AS oldest,
                             (SELECT COUNT(*) FROM jobs r WHERE r.state = 'running' AND r.account_id = q.account_id) AS running
                           FROM jobs q WHERE q.state = 'queued' GROUP BY q.account_id HAVING running < ${cap}`),
      next: db.prepare(`SELECT id, account_id, kind, request, webhook, attempts FROM jobs WHERE id = ?`),
      take: db.prepare(`UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, started_at = ? WHERE id = ? AND state = 'queued'`),
      finish: db.prepare(`UPDATE jobs SET state = ?, result = ?, error = ?, compute_ms = ?, finished_at = ?, lease_owner = NULL
                          WHERE id = ? AND state = 'running' AND attempts = ?`),
      release: db.prepare(`UPDATE jobs SET state = 'queued', lease_owner = NULL WHERE id = ? AND state = 'running' AND attempts = ?`),
      expire: db.prepare(`UPDATE jobs SET state = 'expired', result = NULL, request = '{}' WHERE state IN ('done', 'failed') AND finished_at <= ?`),
      depth: db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'queued'`),
    };
    // Built once: each db.transaction call makes a new wrapper, and these run for every job.
    this.claimInTransaction = db.transaction((owner: string) => this.claimNext(owner));
    this.finishInTransaction = db.transaction((...args: Parameters<SqliteJobStore['finish']>) => this.finish(...args));
  }

  async submit(job: NewJob): Promise<number> {
    return this.insert(job);
  }

  /** submit without the promise, for a caller that writes more in the same transaction (open.ts acceptJob). */
  insert(job: NewJob): number {
    const info = this.statements.insert.run(job.accountId, job.kind, job.request, job.webhook ?? null, Date.now());
    if (!this.turns.has(job.accountId)) this.turns.set(job.accountId, ++this.turn);
    return Number(info.lastInsertRowid);
  }

  async get(id: number, accountId: number, now = Date.now()): Promise<JobView | undefined> {
    return this.view(id, accountId, now);
  }

  private view(id: number, accountId: number, now: number): JobView | undefined {
    const row = this.statements.get.get(id, accountId) as JobRow | undefined;
    if (!row) return undefined;
    const expired = row.state === 'expired'
      || ((row.state === 'done' || row.state === 'failed') && row.finished_at !== null && row.finished_at + this.retentionMs <= now);
    return {
      id: row.id,
      accountId: row.account_id,
      state: expired ? 'expired' : row.state,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
      result: expired ? null : row.result,
      error: expired ? null : row.error,
    };
  }

  async recent(accountId: number, limit: number, now = Date.now()): Promise<JobSummary[]> {
    const rows = this.statements.recent.all(accountId, limit) as Pick<JobRow, 'id' | 'state' | 'created_at' | 'finished_at'>[];
    return rows.map((row) => ({
      id: row.id,
      state: (row.state === 'done' || row.state === 'failed') && row.finished_at !== null && row.finished_at + this.retentionMs <= now ? 'expired' : row.state,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    }));
  }

  state(id: number, accountId: number, now = Date.now()): JobState | undefined {
    let known = this.finished.get(id);
    if (!known) {
      const view = this.view(id, accountId, now);
      if (!view || (view.state !== 'done' && view.state !== 'failed')) return view?.state;
      known = { accountId: view.accountId, state: view.state, finishedAt: view.finishedAt! };
      if (this.finished.size >= FINISHED_CACHE_SIZE) this.finished.clear();
      this.finished.set(id, known);
    }
    if (known.accountId !== accountId) return undefined;
    return known.finishedAt + this.retentionMs <= now ? 'expired' : known.state;
  }

  async claim(owner: string): Promise<ClaimedJob | undefined> {
    return this.claimInTransaction.immediate(owner);
  }

  /** The next job by turn, marked running (inside claimInTransaction). */
  private claimNext(owner: string): ClaimedJob | undefined {
    const waiting = this.statements.waiting.all() as { accountId: number; oldest: number; running: number }[];
    const turnOf = (accountId: number) => this.turns.get(accountId) ?? 0;
    // Fewer running first, then the longest since its last turn, then the older job.
    const [next] = waiting.sort((a, b) => a.running - b.running || turnOf(a.accountId) - turnOf(b.accountId) || a.oldest - b.oldest);
    if (!next) return undefined;
    this.turns.set(next.accountId, ++this.turn);
    const row = this.statements.next.get(next.oldest) as Pick<JobRow, 'id' | 'account_id' | 'kind' | 'request' | 'webhook' | 'attempts'>;
    this.statements.take.run(owner, Date.now(), row.id);
    return { id: row.id, accountId: row.account_id, kind: row.kind, request: row.request, webhook: row.webhook, attempt: row.attempts + 1 };
  }

  async complete(id: number, attempt: number, result: string, computeMs: number, delivery?: NewDelivery): Promise<boolean> {
    return this.finishInTransaction.immediate(id, attempt, 'done', result, null, computeMs, delivery);
  }

  async fail(id: number, attempt: number, message: string, computeMs: number, delivery?: NewDelivery): Promise<boolean> {
    return this.finishInTransaction.immediate(id, attempt, 'failed', null, message, computeMs, delivery);
  }

  /** Writes the outcome and, with its delivery, the webhook to send, in one transaction (finishInTransaction). */
  private finish(id: number, attempt: number, state: 'done' | 'failed', result: string | null, error: string | null, computeMs: number, delivery?: NewDelivery): boolean {
    const now = Date.now();
    const written = this.statements.finish.run(state, result, error, Math.round(computeMs), now, id, attempt).changes === 1;
    if (written && delivery) {
      if (!this.outbox) throw new Error('this job store has no outbox for webhook deliveries');
      this.outbox.insert(delivery, now);
    }
    return written;
  }

  async release(id: number, attempt: number): Promise<void> {
    this.statements.release.run(id, attempt);
  }

  async recover(liveOwners: string[]): Promise<number> {
    const placeholders = liveOwners.map(() => '?').join(', ');
    const sql = liveOwners.length
      ? `UPDATE jobs SET state = 'queued', lease_owner = NULL WHERE state = 'running' AND (lease_owner IS NULL OR lease_owner NOT IN (${placeholders}))`
      : `UPDATE jobs SET state = 'queued', lease_owner = NULL WHERE state = 'running'`;
    return this.db.prepare(sql).run(...liveOwners).changes;
  }

  async expire(now = Date.now()): Promise<number> {
    return this.statements.expire.run(now - this.retentionMs).changes;
  }

  async queueDepth(): Promise<number> {
    return (this.statements.depth.get() as { n: number }).n;
  }

  async close(): Promise<void> {}
}
