// The webhook outbox in Redis, shared by every node: a hash per delivery, a sorted set of what
// is due when, and per account the log and the skipped ones. Handing a delivery to a sender
// leases it (its due time moves to the end of the lease) and takes the next attempt number in
// the same script, so two nodes never send the same attempt, and a node that dies mid-send
// leaves the delivery to be retried under a new attempt number once the lease runs out.
import type { RedisKeys } from '../queue/redis-keys.js';
import { LuaScript, type Redis } from '../queue/redis-client.js';
import type { AttemptRecord, Delivery, DeliveryState, NewDelivery, WebhookEvent } from './outbox.js';
import type { OutboxStore } from './outbox-store.js';

/** Longer than any attempt can take (10 s answer budget plus DNS and bookkeeping). */
const LEASE_MS = 120_000;
/** Delivered and failed deliveries stay readable this long (the account page shows 7 days). */
const FINISHED_KEEP_MS = 8 * 24 * 3_600_000;

/** The hash fields of a new delivery, as name/value pairs (the job store writes them with the result). */
export function newDeliveryFields(d: NewDelivery, now: number): string[] {
  return [
    'id', d.id, 'account', String(d.accountId), 'job', String(d.jobId), 'event', d.event, 'url', d.url,
    'account_default', d.accountDefault ? '1' : '0', 'body', d.body, 'state', 'pending', 'attempts', '0', 'sent', '0',
    'next', String(now), 'created', String(now), 'updated', String(now),
  ];
}

// KEYS: due set, then one delivery hash per id handed out is looked up by prefix (ARGV[4]).
const TAKE_DUE = new LuaScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local taken = {}
for _, id in ipairs(ids) do
  local key = ARGV[4] .. id
  local row = redis.call('HMGET', key, 'state', 'attempts', 'sent')
  if row[1] == 'pending' then
    local sent = math.max(tonumber(row[2]) or 0, tonumber(row[3]) or 0) + 1
    redis.call('HSET', key, 'sent', sent)
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    table.insert(taken, id)
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return taken`);

// KEYS: delivery hash, attempts hash, due set, skipped set of its account. The lease holder
// reports the attempts really made: a lease given up without a send (skipped) frees its number.
const UPDATE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'attempts', ARGV[2], 'sent', ARGV[2], 'next', ARGV[3], 'last_status', ARGV[4], 'last_error', ARGV[5], 'updated', ARGV[6])
if ARGV[1] == 'pending' then redis.call('ZADD', KEYS[3], ARGV[3], ARGV[7]) else redis.call('ZREM', KEYS[3], ARGV[7]) end
if ARGV[1] == 'skipped' then redis.call('SADD', KEYS[4], ARGV[7]) else redis.call('SREM', KEYS[4], ARGV[7]) end
if ARGV[1] == 'delivered' or ARGV[1] == 'failed' then
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
  redis.call('PEXPIRE', KEYS[2], ARGV[8])
end
return 1`);

// KEYS: delivery hash, attempts hash, due set, skipped set. ARGV: account, now, id.
const REDELIVER = new LuaScript(`
local row = redis.call('HMGET', KEYS[1], 'account', 'state')
if row[1] ~= ARGV[1] or row[2] == false or row[2] == 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'next', ARGV[2], 'updated', ARGV[2])
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
redis.call('SREM', KEYS[4], ARGV[3])
return 1`);

// KEYS: skipped set, due set. ARGV: now, delivery key prefix.
const REPLAY_SKIPPED = new LuaScript(`
local ids = redis.call('SMEMBERS', KEYS[1])
local n = 0
for _, id in ipairs(ids) do
  local key = ARGV[2] .. id
  if redis.call('HGET', key, 'state') == 'skipped' then
    redis.call('HSET', key, 'state', 'pending', 'next', ARGV[1], 'updated', ARGV[1])
    redis.call('ZADD', KEYS[2], ARGV[1], id)
    n = n + 1
  end
end
redis.call('DEL', KEYS[1])
return n`);

const nullable = (value: string | undefined) => (value === undefined || value === '' ? null : value);

function toDelivery(h: Record<string, string>): Delivery {
  return {
    id: h.id, accountId: Number(h.account), jobId: Number(h.job), event: h.event as WebhookEvent, url: h.url,
    accountDefault: h.account_default === '1', body: h.body, state: h.state as DeliveryState, attempts: Number(h.attempts),
    nextAttemptAt: Number(h.next), lastStatus: nullable(h.last_status) === null ? null : Number(h.last_status),
    lastError: nullable(h.last_error), createdAt: Number(h.created),
  };
}

export class RedisOutbox implements OutboxStore {
  constructor(private readonly redis: Redis, private readonly keys: RedisKeys) {}

  /** Leases what it returns; `skip` needs no filter here, since a leased delivery is not due. */
  async takeDue(now: number, limit: number): Promise<Delivery[]> {
    const ids = await TAKE_DUE.run(this.redis, [this.keys.deliveriesDue], [now, limit, now + LEASE_MS, this.keys.delivery('')]) as string[];
    const rows = await Promise.all(ids.map((id) => this.redis.hGetAll(this.keys.delivery(id)) as Promise<Record<string, string>>));
    // The deliverer sends attempt `attempts + 1`: the number this lease took.
    return rows.filter((h) => h.id).map((h) => ({ ...toDelivery(h), attempts: Number(h.sent) - 1 }));
  }

  async recordAttempt(id: string, a: AttemptRecord): Promise<void> {
    await this.redis.hSetNX(this.keys.deliveryAttempts(id), String(a.attempt), JSON.stringify({ ...a, durationMs: Math.round(a.durationMs) }));
  }

  async update(id: string, state: DeliveryState, attempts: number, nextAttemptAt: number, status: number | null, error: string | null, now: number): Promise<void> {
    const accountId = await this.redis.hGet(this.keys.delivery(id), 'account');
    if (accountId === null || accountId === undefined) return;
    await UPDATE.run(this.redis,
      [this.keys.delivery(id), this.keys.deliveryAttempts(id), this.keys.deliveriesDue, this.keys.skippedDeliveries(accountId)],
      [state, attempts, nextAttemptAt, status ?? '', error ?? '', now, id, FINISHED_KEEP_MS]);
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
      [this.keys.delivery(id), this.keys.deliveryAttempts(id), this.keys.deliveriesDue, this.keys.skippedDeliveries(accountId)],
      [accountId, now, id]);
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
    return await REPLAY_SKIPPED.run(this.redis, [this.keys.skippedDeliveries(accountId), this.keys.deliveriesDue], [now, this.keys.delivery('')]) as number;
  }
}
