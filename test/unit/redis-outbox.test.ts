// The webhook outbox on Redis (real Redis, own key prefix, deleted after): deliveries are
// written with the job's result, handed out leased with a fresh attempt number, logged for the
// account page, and sent again on request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisJobStore } from '../../src/storage/jobs/redis.js';
import { RedisKeys } from '../../src/storage/redis/keys.js';
import { RedisOutbox } from '../../src/storage/outbox/redis.js';
import type { NewDelivery } from '../../src/storage/outbox/store.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

let prefix: string;
let store: RedisJobStore;
let outbox: RedisOutbox;

beforeEach(async () => {
  prefix = testPrefix('outbox');
  store = await RedisJobStore.open({ url: TEST_REDIS_URL, prefix, retentionMs: 3_600_000, lockMs: 30_000 });
  outbox = new RedisOutbox(store.client, new RedisKeys(prefix));
});

afterEach(async () => {
  await store.close();
  await dropPrefix(prefix);
});

/** Runs a job to completion with a delivery, the only way a delivery enters the outbox. */
async function finishedJobWithDelivery(id: string, accountId = 7, url = 'https://example.com/hook'): Promise<NewDelivery> {
  const jobId = await store.submit({ accountId, kind: 'calculate', request: '{}' });
  const claimed = (await store.claim('w1'))!;
  const delivery: NewDelivery = { id, accountId, jobId, event: 'job.completed', url, accountDefault: false, body: '{"r":1}' };
  expect(await store.complete(jobId, claimed.attempt, '{"r":1}', 5, delivery)).toBe(true);
  return delivery;
}

/** What the delivery loop would take, with nothing in flight and no per-endpoint limit in the way. */
const take = (now: number, limit = 10) => outbox.takeDue(now, { limit, perEndpoint: 10, inFlight: new Map(), skip: new Set() });

describe('webhook outbox: redis', () => {
  it('hands a due delivery to one sender at a time, each with its own attempt number', async () => {
    await finishedJobWithDelivery('d1');
    const now = Date.now();
    const first = await take(now);
    expect(first.map((d) => [d.id, d.attempts, d.body])).toEqual([['d1', 0, '{"r":1}']]);
    // Leased: another node asking now gets nothing.
    expect(await take(now)).toEqual([]);
    // The lease runs out (the sender died): the next sender gets the next attempt number.
    const afterLease = await take(now + 10 * 60_000);
    expect(afterLease.map((d) => [d.id, d.attempts])).toEqual([['d1', 1]]);
  });

  it('schedules retries, logs attempts and closes a delivered one', async () => {
    await finishedJobWithDelivery('d2');
    const now = Date.now();
    await take(now);
    await outbox.recordAttempt('d2', { attempt: 1, at: now, status: 503, error: null, durationMs: 12 });
    await outbox.update('d2', 'pending', 1, now + 5_000, 503, 'HTTP 503', now);
    expect(await take(now + 1_000)).toEqual([]);
    const retry = await take(now + 5_000);
    expect(retry.map((d) => [d.attempts, d.lastStatus, d.lastError])).toEqual([[1, 503, 'HTTP 503']]);
    await outbox.recordAttempt('d2', { attempt: 2, at: now + 5_000, status: 204, error: null, durationMs: 9 });
    await outbox.update('d2', 'delivered', 2, now + 5_000, 204, null, now + 5_000);
    expect(await take(now + 3_600_000)).toEqual([]);

    const [logged] = await outbox.log(7, now - 60_000);
    expect(logged).toMatchObject({ id: 'd2', state: 'delivered', attempts: 2, lastStatus: 204, lastError: null });
    expect(logged.attemptLog.map((a) => [a.attempt, a.status])).toEqual([[1, 503], [2, 204]]);
    expect(await outbox.log(8, now - 60_000)).toEqual([]);
  });

  it('sends a finished delivery again on request, only for its own account', async () => {
    await finishedJobWithDelivery('d3');
    const now = Date.now();
    await take(now);
    await outbox.update('d3', 'failed', 1, now, 400, 'HTTP 400', now);
    expect(await outbox.redeliver('d3', 8, now)).toBe(false);
    expect(await outbox.redeliver('nope', 7, now)).toBe(false);
    expect(await outbox.redeliver('d3', 7, now)).toBe(true);
    expect(await outbox.redeliver('d3', 7, now)).toBe(false);
    expect((await take(now)).map((d) => [d.id, d.attempts])).toEqual([['d3', 1]]);
  });

  it('replays what was skipped while the endpoint was disabled', async () => {
    await finishedJobWithDelivery('d4');
    await finishedJobWithDelivery('d5');
    const now = Date.now();
    await take(now);
    await outbox.update('d4', 'skipped', 0, now, null, 'endpoint disabled', now);
    await outbox.update('d5', 'skipped', 0, now, null, 'endpoint disabled', now);
    expect(await outbox.replaySkipped(8, now)).toBe(0);
    expect(await outbox.replaySkipped(7, now)).toBe(2);
    // Nothing was sent before, so the replay sends attempt 1 (the deliverer sends attempts + 1).
    expect((await take(now)).map((d) => [d.id, d.attempts]).sort()).toEqual([['d4', 0], ['d5', 0]]);
    expect(await outbox.replaySkipped(7, now)).toBe(0);
  });

  it('hands out at most the per-endpoint limit, and skips an endpoint the sender is busy with whatever its backlog', async () => {
    for (let i = 0; i < 6; i++) await finishedJobWithDelivery(`slow-${i}`, 7, 'https://slow.example.com/hook');
    await finishedJobWithDelivery('quick', 7, 'https://quick.example.com:8443/hook');
    const now = Date.now();
    const first = await outbox.takeDue(now, { limit: 10, perEndpoint: 2, inFlight: new Map(), skip: new Set() });
    expect(first.map((d) => [d.id, d.endpoint])).toEqual([
      ['slow-0', 'slow.example.com'], ['slow-1', 'slow.example.com'], ['quick', 'quick.example.com:8443'],
    ]);
    // Two in flight to the slow endpoint: its backlog stays; a new quick delivery goes out.
    await finishedJobWithDelivery('quick-2', 7, 'https://quick.example.com:8443/hook');
    const busy = new Map([['slow.example.com', 2], ['quick.example.com:8443', 1]]);
    const later = Date.now();
    expect((await outbox.takeDue(later, { limit: 10, perEndpoint: 2, inFlight: busy, skip: new Set() })).map((d) => d.id)).toEqual(['quick-2']);
    // One slow send finished: one more of its backlog.
    await outbox.update('slow-0', 'delivered', 1, later, 204, null, later);
    const freed = new Map([['slow.example.com', 1]]);
    expect((await outbox.takeDue(later, { limit: 10, perEndpoint: 2, inFlight: freed, skip: new Set() })).map((d) => d.id)).toEqual(['slow-2']);
  });

  it('takes over deliveries an earlier version left in its single due set', async () => {
    const keys = new RedisKeys(prefix);
    const now = Date.now();
    await store.client.hSet(keys.delivery('old'), {
      id: 'old', account: '7', job: '1', event: 'job.completed', url: 'https://Old.Example.com/hook', account_default: '0', body: '{}',
      state: 'pending', attempts: '1', sent: '1', next: String(now), created: String(now), updated: String(now),
    });
    await store.client.zAdd(keys.legacyDeliveriesDue, { score: now, value: 'old' });
    expect((await take(now)).map((d) => [d.id, d.endpoint, d.attempts])).toEqual([['old', 'old.example.com', 1]]);
    expect(await store.client.exists(keys.legacyDeliveriesDue)).toBe(0);
  });
});
