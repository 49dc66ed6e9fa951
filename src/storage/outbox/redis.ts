// The webhook outbox in Redis, shared by every node: a hash per delivery; per endpoint a sorted
// set of its pending deliveries by due time, and one sorted set of the endpoints by their first
// due time (so a sender skips an endpoint it is already busy with at the cost of one entry, not
// of its backlog); per account the log and the skipped ones. Handing a delivery to a sender
// leases it (its due time moves to the end of the lease) and takes the next attempt number in
// the same script, so two nodes never send the same attempt, and a node that dies mid-send
// leaves the delivery to be retried under a new attempt number once the lease runs out.
import type { RedisKeys } from '../redis/keys.js';
import { LuaScript, type Redis } from '../redis/client.js';
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

// Sets a delivery's due time in its endpoint's set (or takes it out), and the endpoint's place
// among the endpoints to its first due time. Delivery keys and endpoint sets are named by prefix.
const DUE = `
local function place(endpoints, lanePrefix, endpoint)
  local first = redis.call('ZRANGE', lanePrefix .. endpoint, 0, 0, 'WITHSCORES')
  if first[1] then redis.call('ZADD', endpoints, first[2], endpoint) else redis.call('ZREM', endpoints, endpoint) end
end
local function due(endpoints, lanePrefix, endpoint, id, at)
  if at then redis.call('ZADD', lanePrefix .. endpoint, at, id) else redis.call('ZREM', lanePrefix .. endpoint, id) end
  place(endpoints, lanePrefix, endpoint)
end
`;

// KEYS: endpoints. ARGV: now, limit, per endpoint, lease end, delivery prefix, lane prefix, then
// (endpoint, in flight at the caller) pairs. An endpoint at its limit costs one look; each other
// due endpoint yields a delivery or drops a stale entry, so the scan is bounded.
const TAKE_DUE = new LuaScript(`${DUE}
local limit, per = tonumber(ARGV[2]), tonumber(ARGV[3])
local busy, nbusy = {}, 0
for i = 7, #ARGV, 2 do busy[ARGV[i]] = tonumber(ARGV[i + 1]); nbusy = nbusy + 1 end
local taken = {}
local endpoints = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, limit + nbusy)
for _, endpoint in ipairs(endpoints) do
  local room = math.min(per - (busy[endpoint] or 0), limit - #taken)
  if room > 0 then
    local ids = redis.call('ZRANGEBYSCORE', ARGV[6] .. endpoint, '-inf', ARGV[1], 'LIMIT', 0, room)
    for _, id in ipairs(ids) do
      local key = ARGV[5] .. id
      local row = redis.call('HMGET', key, 'state', 'attempts', 'sent')
      if row[1] == 'pending' then
        local sent = math.max(tonumber(row[2]) or 0, tonumber(row[3]) or 0) + 1
        redis.call('HSET', key, 'sent', sent)
        due(KEYS[1], ARGV[6], endpoint, id, ARGV[4])
        table.insert(taken, id)
      else
        due(KEYS[1], ARGV[6], endpoint, id, false)
      end
    end
    if #ids == 0 then place(KEYS[1], ARGV[6], endpoint) end
  end
  if #taken >= limit then break end
end
return taken`);

// KEYS: delivery hash, attempts hash, endpoints, skipped set of its account. ARGV[9]: lane prefix.
// The lease holder reports the attempts really made: a lease given up without a send (skipped) frees its number.
const UPDATE = new LuaScript(`${DUE}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'attempts', ARGV[2], 'sent', ARGV[2], 'next', ARGV[3], 'last_status', ARGV[4], 'last_error', ARGV[5], 'updated', ARGV[6])
due(KEYS[3], ARGV[9], redis.call('HGET', KEYS[1], 'endpoint') or '', ARGV[7], ARGV[1] == 'pending' and ARGV[3])
if ARGV[1] == 'skipped' then redis.call('SADD', KEYS[4], ARGV[7]) else redis.call('SREM', KEYS[4], ARGV[7]) end
if ARGV[1] == 'delivered' or ARGV[1] == 'failed' then
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  redis.call('PEXPIRE', KEYS[2], ARGV[8])
end
return 1`);

// KEYS: delivery hash, attempts hash, endpoints, skipped set. ARGV: account, now, id, lane prefix.
const REDELIVER = new LuaScript(`${DUE}
local row = redis.call('HMGET', KEYS[1], 'account', 'state', 'endpoint')
if row[1] ~= ARGV[1] or row[2] == false or row[2] == 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'next', ARGV[2], 'updated', ARGV[2])
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
due(KEYS[3], ARGV[4], row[3] or '', ARGV[3], ARGV[2])
redis.call('SREM', KEYS[4], ARGV[3])
return 1`);

// KEYS: skipped set, endpoints. ARGV: now, delivery key prefix, lane prefix.
const REPLAY_SKIPPED = new LuaScript(`${DUE}
local ids = redis.call('SMEMBERS', KEYS[1])
local n = 0
for _, id in ipairs(ids) do
  local key = ARGV[2] .. id
  local row = redis.call('HMGET', key, 'state', 'endpoint')
  if row[1] == 'skipped' then
    redis.call('HSET', key, 'state', 'pending', 'next', ARGV[1], 'updated', ARGV[1])
    due(KEYS[2], ARGV[3], row[2] or '', id, ARGV[1])
    n = n + 1
  end
end
redis.call('DEL', KEYS[1])
return n`);

// KEYS: the single due set of earlier versions, endpoints. ARGV: id, its endpoint, delivery prefix, lane prefix.
// Moves one delivery from it to its endpoint's set, due when it was.
const ADOPT = new LuaScript(`${DUE}
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at then return 0 end
redis.call('HSET', ARGV[3] .. ARGV[1], 'endpoint', ARGV[2])
due(KEYS[2], ARGV[4], ARGV[2], ARGV[1], at)
redis.call('ZREM', KEYS[1], ARGV[1])
return 1`);

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
