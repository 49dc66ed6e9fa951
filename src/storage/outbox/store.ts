// What the delivery loop and the account page need from the outbox, wherever it lives: the
// embedded SqliteOutbox (sqlite.ts) or RedisOutbox (redis.ts, shared by every node); and what a
// delivery is.

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'skipped';
export type WebhookEvent = 'job.completed' | 'job.failed';

export interface NewDelivery {
  id: string;
  accountId: number;
  jobId: number;
  event: WebhookEvent;
  url: string;
  /** The account's default URL: health-tracked and disabled on sustained failure. */
  accountDefault: boolean;
  /** The exact bytes to send. */
  body: string;
}

export interface Delivery extends NewDelivery {
  /** Where it goes (endpointOf its URL): deliveries to one endpoint share its concurrency. */
  endpoint: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
}

export interface AttemptRecord {
  attempt: number;
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number;
}

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

/** The host (and port) a URL names: the unit of delivery concurrency. */
export function endpointOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}
