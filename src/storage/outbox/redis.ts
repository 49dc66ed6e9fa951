// The webhook outbox in Redis, shared by every node: a hash per delivery; per endpoint a sorted
// set of its pending deliveries by due time, and one sorted set of the endpoints by their first
// due time (so a sender skips an endpoint it is already busy with at the cost of one entry, not
// of its backlog); per account the log and the skipped ones. Handing a delivery to a sender
// leases it (its due time moves to the end of the lease) and takes the next attempt number in
// the same script, so two nodes never send the same attempt, and a node that dies mid-send
// leaves the delivery to be retried under a new attempt number once the lease runs out.
import type { RedisKeys } from '../redis/keys.js';
import type { Redis } from '../redis/client.js';
import { luaScript } from '../redis/lua.js';
import { endpointOf, type AttemptRecord, type Delivery, type DeliveryState, type NewDelivery, type WebhookEvent } from './store.js';
import type { DueRequest, OutboxStore } from './store.js';

/** Longer than any attempt can take (10 s answer budget plus DNS and bookkeeping). */
const LEASE_MS = 120_000;
/** Delivered and failed deliveries stay readable this long (the account page shows 7 days). */
const FINISHED_KEEP_MS = 8 * 24 * 3_600_000;

/** The hash fields of a new delivery, as name/value pairs (the job store writes them with the result). */
export function newDeliveryFields(d: NewDelivery, now: number): string[] {
  return [
    'id', d.id, 'account', String(d.accountId), 'job', String(d.jobId), 'event', d.event, 'url', d.url,
    'account_default', d.accountDefault ? '1' : '0', 'body', d.body, 'endpoint', endpointOf(d.url), 'state', 'pending', 'attempts', '0', 'sent', '0',
    'next', String(now), 'created', String(now), 'updated', String(now),
  ];
}

// The scripts' KEYS and ARGV are described in src/storage/redis/lua/<concern>/<name>.lua.
const TAKE_DUE = luaScript('outbox/take-due');
const UPDATE = luaScript('outbox/update');
const REDELIVER = luaScript('outbox/redeliver');
const REPLAY_SKIPPED = luaScript('outbox/replay-skipped');
const ADOPT = luaScript('outbox/adopt');

const nullable = (value: string | undefined) => (value === undefined || value === '' ? null : value);

function toDelivery(h: Record<string, string>): Delivery {
  return {
    id: h.id, accountId: Number(h.account), jobId: Number(h.job), event: h.event as WebhookEvent, url: h.url,
    accountDefault: h.account_default === '1', body: h.body, endpoint: h.endpoint ?? '', state: h.state as DeliveryState, attempts: Number(h.attempts),
    nextAttemptAt: Number(h.next), lastStatus: nullable(h.last_status) === null ? null : Number(h.last_status),
    lastError: nullable(h.last_error), createdAt: Number(h.created),
  };
}

export class RedisOutbox implements OutboxStore {
  /** When this process last looked for deliveries in the single due set of earlier versions. */
  private lookedForLegacy = Number.NEGATIVE_INFINITY;

  constructor(private readonly redis: Redis, private readonly keys: RedisKeys) {}

  /** Leases what it returns; `skip` needs no filter here, since a leased delivery is not due. */
  async takeDue(now: number, want: DueRequest): Promise<Delivery[]> {
    if (now - this.lookedForLegacy >= 60_000) await this.adoptLegacy(now);
    const busy = [...want.inFlight].flatMap(([endpoint, n]) => [endpoint, n]);
    const ids = await TAKE_DUE.run(this.redis, [this.keys.deliveryEndpoints],
      [now, want.limit, want.perEndpoint, now + LEASE_MS, this.keys.delivery(''), this.keys.deliveryLane(''), ...busy]) as string[];
    const rows = await Promise.all(ids.map((id) => this.redis.hGetAll(this.keys.delivery(id)) as Promise<Record<string, string>>));
    // The deliverer sends attempt `attempts + 1`: the number this lease took.
    return rows.filter((h) => h.id).map((h) => ({ ...toDelivery(h), attempts: Number(h.sent) - 1 }));
  }

  /**
   * Deliveries written by a version with one due set for all endpoints (nodes not yet upgraded,
   * during a rolling upgrade) join their endpoint's set: looked for at most once a minute.
   */
  private async adoptLegacy(now: number): Promise<void> {
    this.lookedForLegacy = now;
    const legacy = this.keys.legacyDeliveriesDue;
    for (const id of await this.redis.zRange(legacy, 0, -1)) {
      const url = await this.redis.hGet(this.keys.delivery(id), 'url');
      if (url === null || url === undefined) await this.redis.zRem(legacy, id);
      else await ADOPT.run(this.redis, [legacy, this.keys.deliveryEndpoints], [id, endpointOf(url), this.keys.delivery(''), this.keys.deliveryLane('')]);
    }
  }

  async recordAttempt(id: string, a: AttemptRecord): Promise<void> {
    await this.redis.hSetNX(this.keys.deliveryAttempts(id), String(a.attempt), JSON.stringify({ ...a, durationMs: Math.round(a.durationMs) }));
  }

  async update(id: string, state: DeliveryState, attempts: number, nextAttemptAt: number, status: number | null, error: string | null, now: number): Promise<void> {
    const accountId = await this.redis.hGet(this.keys.delivery(id), 'account');
    if (accountId === null || accountId === undefined) return;
    await UPDATE.run(this.redis,
      [this.keys.delivery(id), this.keys.deliveryAttempts(id), this.keys.deliveryEndpoints, this.keys.skippedDeliveries(accountId)],
      [state, attempts, nextAttemptAt, status ?? '', error ?? '', now, id, FINISHED_KEEP_MS, this.keys.deliveryLane('')]);
  }

  async log(accountId: number, since: number): Promise<(Delivery & { attemptLog: AttemptRecord[] })[]> {
    const index = this.keys.accountDeliveries(accountId);
    await this.redis.zRemRangeByScore(index, '-inf', since - FINISHED_KEEP_MS);
    const ids = await this.redis.zRange(index, '+inf', since, { BY: 'SCORE', REV: true, LIMIT: { offset: 0, count: 500 } });
    const rows = await Promise.all(ids.map(async (id) => {
      const [h, attempts] = await Promise.all([
        this.redis.hGetAll(this.keys.delivery(id)) as Promise<Record<string, string>>,
        this.redis.hGetAll(this.keys.deliveryAttempts(id)) as Promise<Record<string, string>>,
      ]);
      if (!h.id) return undefined;
      const attemptLog = Object.values(attempts).map((json) => JSON.parse(json) as AttemptRecord).sort((a, b) => a.attempt - b.attempt);
      return { ...toDelivery(h), attemptLog };
    }));
    return rows.filter((row) => row !== undefined);
  }

  async redeliver(id: string, accountId: number, now: number): Promise<boolean> {
    const written = await REDELIVER.run(this.redis,
      [this.keys.delivery(id), this.keys.deliveryAttempts(id), this.keys.deliveryEndpoints, this.keys.skippedDeliveries(accountId)],
      [accountId, now, id, this.keys.deliveryLane('')]);
    return written === 1;
  }

  /** Wakes every API node's delivery loop (their own timers would find the delivery within a second). */
  async announce(): Promise<void> {
    await this.redis.publish(this.keys.deliveriesWake, '1');
  }

  /** Calls `onDue` on each announcement; resolves to a function that stops listening. */
  async listen(onDue: () => void, onError: (error: Error) => void): Promise<() => Promise<void>> {
    const subscriber = this.redis.duplicate();
    subscriber.on('error', onError);
    await subscriber.connect();
    await subscriber.subscribe(this.keys.deliveriesWake, () => onDue());
    return async () => {
      await subscriber.close().catch(() => {});
    };
  }

  async replaySkipped(accountId: number, now: number): Promise<number> {
    return await REPLAY_SKIPPED.run(this.redis, [this.keys.skippedDeliveries(accountId), this.keys.deliveryEndpoints],
      [now, this.keys.delivery(''), this.keys.deliveryLane('')]) as number;
  }
}
