// What the delivery loop and the account page need from the outbox, wherever it lives: the
// embedded Outbox (SQLite rows) or RedisOutbox (shared by every node).
import type { AttemptRecord, Delivery, DeliveryState } from './outbox.js';

type Maybe<T> = T | Promise<T>;

export interface OutboxStore {
  /**
   * Up to `limit` deliveries due now, none of `skip` (those this process is already sending).
   * A shared outbox leases what it hands out, so no other node sends the same attempt.
   */
  takeDue(now: number, limit: number, skip: ReadonlySet<string>): Maybe<Delivery[]>;
  recordAttempt(id: string, attempt: AttemptRecord): Maybe<void>;
  update(id: string, state: DeliveryState, attempts: number, nextAttemptAt: number, status: number | null, error: string | null, now: number): Maybe<void>;
  log(accountId: number, since: number): Maybe<(Delivery & { attemptLog: AttemptRecord[] })[]>;
  redeliver(id: string, accountId: number, now: number): Maybe<boolean>;
  replaySkipped(accountId: number, now: number): Maybe<number>;
}
