// The webhook outbox: one durable row per delivery, written in the same transaction as the job's
// result, so a restart loses nothing; the delivery loop reads what is due from here. Handing a
// delivery out takes its next attempt number in the row, so a send cut short by a restart is
// sent again under a new number.
import type { Db } from '../sqlite/db.js';
import { endpointOf, type AttemptRecord, type Delivery, type DeliveryState, type DueRequest, type NewDelivery, type OutboxStore, type WebhookEvent } from './store.js';


interface Row {
  id: string; account_id: number; job_id: number; event: WebhookEvent; url: string; account_default: number; body: string; endpoint: string;
  state: DeliveryState; attempts: number; next_attempt_at: number; last_status: number | null; last_error: string | null; created_at: number;
}

const toDelivery = (r: Row): Delivery => ({
  id: r.id, accountId: r.account_id, jobId: r.job_id, event: r.event, url: r.url, accountDefault: r.account_default === 1,
  body: r.body, endpoint: r.endpoint, state: r.state, attempts: r.attempts, nextAttemptAt: r.next_attempt_at, lastStatus: r.last_status,
  lastError: r.last_error, createdAt: r.created_at,
});

export class SqliteOutbox implements OutboxStore {
  private readonly s;
  /** Built once: each db.transaction call makes a new wrapper, and the delivery loop takes after every job. */
  private readonly takeInTransaction;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(`INSERT INTO deliveries (id, account_id, job_id, event, url, account_default, body, endpoint, state, next_attempt_at, created_at, updated_at)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`),
      // Oldest due first, leaving out endpoints already at their concurrency (a JSON array).
      due: db.prepare(`SELECT id, endpoint FROM deliveries WHERE state = 'pending' AND next_attempt_at <= ?
                       AND endpoint NOT IN (SELECT value FROM json_each(?)) ORDER BY next_attempt_at, id`),
      take: db.prepare(`UPDATE deliveries SET sent = max(attempts, sent) + 1 WHERE id = ? RETURNING *`),
      get: db.prepare(`SELECT * FROM deliveries WHERE id = ?`),
      attempt: db.prepare(`INSERT OR IGNORE INTO delivery_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)`),
      update: db.prepare(`UPDATE deliveries SET state = ?, attempts = ?, sent = ?, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ?`),
      log: db.prepare(`SELECT * FROM deliveries WHERE account_id = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 500`),
      attempts: db.prepare(`SELECT attempt, at, status, error, duration_ms AS durationMs FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt`),
      requeue: db.prepare(`UPDATE deliveries SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE id = ? AND account_id = ? AND state != 'pending'`),
      replay: db.prepare(`UPDATE deliveries SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE account_id = ? AND state = 'skipped'`),
    };
    this.takeInTransaction = db.transaction((now: number, want: DueRequest, full: string[]) => this.take(now, want, full));
    // Rows written before endpoints were recorded get theirs once.
    const unnamed = db.prepare(`SELECT id, url FROM deliveries WHERE endpoint = ''`).all() as { id: string; url: string }[];
    const name = db.prepare(`UPDATE deliveries SET endpoint = ? WHERE id = ?`);
    db.transaction(() => unnamed.forEach((row) => name.run(endpointOf(row.url), row.id)))();
  }

  insert(d: NewDelivery, now: number): void {
    this.s.insert.run(d.id, d.accountId, d.jobId, d.event, d.url, d.accountDefault ? 1 : 0, d.body, endpointOf(d.url), now, now, now);
  }

  /**
   * This process is the only sender: `skip` names what it is sending, and a delivery handed out
   * takes its attempt number in the row, so a restart mid-send moves on to the next one.
   */
  takeDue(now: number, want: DueRequest): Delivery[] {
    const full = [...want.inFlight].filter(([, n]) => n >= want.perEndpoint).map(([endpoint]) => endpoint);
    return this.takeInTransaction.immediate(now, want, full);
  }

  /** The due deliveries `want` has room for, each taking its attempt number (inside takeInTransaction). */
  private take(now: number, want: DueRequest, full: string[]): Delivery[] {
    const picked: string[] = [];
    const taking = new Map<string, number>();
    for (const row of this.s.due.iterate(now, JSON.stringify(full)) as Iterable<{ id: string; endpoint: string }>) {
      if (picked.length >= want.limit) break;
      const busy = (want.inFlight.get(row.endpoint) ?? 0) + (taking.get(row.endpoint) ?? 0);
      if (want.skip.has(row.id) || busy >= want.perEndpoint) continue;
      picked.push(row.id);
      taking.set(row.endpoint, (taking.get(row.endpoint) ?? 0) + 1);
    }
    // The row's `sent` is the number this send takes; the deliverer sends `attempts + 1`.
    return picked.map((id) => {
      const row = this.s.take.get(id) as Row & { sent: number };
      return { ...toDelivery(row), attempts: row.sent - 1 };
    });
  }

  get(id: string): Delivery | undefined {
    const row = this.s.get.get(id) as Row | undefined;
    return row && toDelivery(row);
  }

  recordAttempt(id: string, a: AttemptRecord): void {
    this.s.attempt.run(id, a.attempt, a.at, a.status, a.error, Math.round(a.durationMs));
  }

  /** Moves a delivery on after an attempt: the next due time while pending. Attempts given up unsent (skipped) free their number. */
  update(id: string, state: DeliveryState, attempts: number, nextAttemptAt: number, status: number | null, error: string | null, now: number): void {
    this.s.update.run(state, attempts, attempts, nextAttemptAt, status, error, now, id);
  }

  /** The account's deliveries since a time, newest first, with their attempts. */
  log(accountId: number, since: number): (Delivery & { attemptLog: AttemptRecord[] })[] {
    return (this.s.log.all(accountId, since) as Row[]).map((row) => ({
      ...toDelivery(row),
      attemptLog: this.s.attempts.all(row.id) as AttemptRecord[],
    }));
  }

  /** Sends a finished delivery again, same id; attempts keep counting. */
  redeliver(id: string, accountId: number, now: number): boolean {
    return this.s.requeue.run(now, now, id, accountId).changes === 1;
  }

  /** After a re-enable: everything skipped while the endpoint was disabled goes out again. */
  replaySkipped(accountId: number, now: number): number {
    return this.s.replay.run(now, now, accountId).changes;
  }
}
