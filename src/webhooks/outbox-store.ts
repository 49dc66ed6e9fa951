// What the delivery loop and the account page need from the outbox, wherever it lives: the
// embedded Outbox (SQLite rows) or RedisOutbox (shared by every node).
import type { AttemptRecord, Delivery, DeliveryState } from './outbox.js';

type Maybe<T> = T | Promise<T>;

/** What the delivery loop can take on now. */
export interface DueRequest {
  /** How many deliveries in all. */
  limit: number;
  /** Most deliveries in flight to one endpoint from this process. */
  perEndpoint: number;
  /** What this process is sending now, by endpoint. */
  inFlight: ReadonlyMap<string, number>;
  /** Deliveries not to hand out: those this process is sending, or holds back. */
  skip: ReadonlySet<string>;
}

export interface OutboxStore {
  /**
   * Due deliveries, oldest first, within the request's limits, each with its next attempt number
   * taken (`attempts + 1` is the one to send). A shared outbox leases what it hands out, so no
   * other node sends the same attempt.
   */
  takeDue(now: number, want: DueRequest): Maybe<Delivery[]>;
  recordAttempt(id: string, attempt: AttemptRecord): Maybe<void>;
  update(id: string, state: DeliveryState, attempts: number, nextAttemptAt: number, status: number | null, error: string | null, now: number): Maybe<void>;
  log(accountId: number, since: number): Maybe<(Delivery & { attemptLog: AttemptRecord[] })[]>;
  redeliver(id: string, accountId: number, now: number): Maybe<boolean>;
  replaySkipped(accountId: number, now: number): Maybe<number>;
}
