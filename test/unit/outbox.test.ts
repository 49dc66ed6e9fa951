// The webhook outbox contract, written once and run through the factory (src/storage/open.ts)
// against both adapters: a real SQLite file in a temporary data directory, and real Redis at
// 127.0.0.1:6379 under a key prefix of its own, deleted after. Deliveries are written with the
// job's result, handed out with a fresh attempt number within the per-endpoint limit, logged for
// the account page, and sent again on request. What only a shared outbox does (leases between
// nodes, taking over an earlier version's keys) is at the end, for Redis alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStorage, type ServerStorage } from '../../src/storage/open.js';
import type { DueRequest, NewDelivery } from '../../src/storage/outbox/store.js';
import { RedisKeys } from '../../src/storage/redis/keys.js';
import { connectRedis } from '../../src/storage/redis/client.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

const MINUTE = 60_000;

for (const adapter of ['sqlite', 'redis'] as const) {
  describe(`webhook outbox contract: ${adapter}`, () => {
    let dataDir = '';
    let prefix = '';
    let storage: ServerStorage;

    beforeEach(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-outbox-'));
      prefix = testPrefix('outbox');
      const env: NodeJS.ProcessEnv = {
        KERF_DATA_DIR: dataDir,
        ...(adapter === 'redis' ? { KERF_REDIS_URL: TEST_REDIS_URL, KERF_REDIS_PREFIX: prefix } : {}),
      };
      storage = await openStorage(loadConfig(env), { jobs: { owner: 'w1' } });
    });

    afterEach(async () => {
      await storage?.close();
      if (adapter === 'redis') await dropPrefix(prefix);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** Runs a job to completion with a delivery, the only way a delivery enters the outbox. */
    async function finishedJobWithDelivery(id: string, accountId = 7, url = 'https://example.com/hook'): Promise<NewDelivery> {
      const { jobs } = storage;
      const jobId = await jobs.submit({ accountId, kind: 'calculate', request: '{}' });
      const claimed = (await jobs.claim('w1'))!;
      const delivery: NewDelivery = { id, accountId, jobId, event: 'job.completed', url, accountDefault: false, body: '{"r":1}' };
      expect(await jobs.complete(jobId, claimed.attempt, '{"r":1}', 5, delivery)).toBe(true);
      return delivery;
    }

    /** What the delivery loop takes: `sending` is what this process is sending now (it never takes those again). */
    const take = async (now: number, sending: string[] = [], want: Partial<DueRequest> = {}) =>
      storage.outbox.takeDue(now, { limit: 10, perEndpoint: 10, inFlight: new Map(), skip: new Set(sending), ...want });

    it('hands a due delivery out once to this process, and with the next attempt number to a sender after a restart', async () => {
      await finishedJobWithDelivery('d1');
      const now = Date.now();
      const first = await take(now);
      expect(first.map((d) => [d.id, d.attempts, d.body, d.endpoint, d.url, d.state])).toEqual([['d1', 0, '{"r":1}', 'example.com', 'https://example.com/hook', 'pending']]);
      // While this process sends it, it is not handed out again.
      expect(await take(now, ['d1'])).toEqual([]);
      // The sender died mid-send: ten minutes on it goes out again, under the next attempt number.
      expect((await take(now + 10 * MINUTE)).map((d) => [d.id, d.attempts])).toEqual([['d1', 1]]);
    });

    it('schedules retries, logs attempts and closes a delivered one', async () => {
      await finishedJobWithDelivery('d2');
      const now = Date.now();
      await take(now);
      const { outbox } = storage;
      await outbox.recordAttempt('d2', { attempt: 1, at: now, status: 503, error: null, durationMs: 12 });
      await outbox.update('d2', 'pending', 1, now + 5_000, 503, 'HTTP 503', now);
      expect(await take(now + 1_000)).toEqual([]);
      const retry = await take(now + 5_000);
      expect(retry.map((d) => [d.attempts, d.lastStatus, d.lastError])).toEqual([[1, 503, 'HTTP 503']]);
      await outbox.recordAttempt('d2', { attempt: 2, at: now + 5_000, status: 204, error: null, durationMs: 9 });
      await outbox.update('d2', 'delivered', 2, now + 5_000, 204, null, now + 5_000);
      expect(await take(now + 3_600_000)).toEqual([]);

      const [logged] = await outbox.log(7, now - MINUTE);
      expect(logged).toMatchObject({ id: 'd2', state: 'delivered', attempts: 2, lastStatus: 204, lastError: null });
      expect(logged.attemptLog.map((a) => [a.attempt, a.status])).toEqual([[1, 503], [2, 204]]);
      expect(await outbox.log(8, now - MINUTE)).toEqual([]);
    });

    it('sends a finished delivery again on request, only for its own account', async () => {
      await finishedJobWithDelivery('d3');
      const now = Date.now();
      await take(now);
      const { outbox } = storage;
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
      const { outbox } = storage;
      await outbox.update('d4', 'skipped', 0, now, null, 'endpoint disabled', now);
      await outbox.update('d5', 'skipped', 0, now, null, 'endpoint disabled', now);
      expect(await take(now)).toEqual([]);
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
      const first = await take(now, [], { perEndpoint: 2 });
      expect(first.map((d) => [d.id, d.endpoint]).sort()).toEqual([
        ['quick', 'quick.example.com:8443'], ['slow-0', 'slow.example.com'], ['slow-1', 'slow.example.com'],
      ]);
      // Two in flight to the slow endpoint: its backlog stays; a new quick delivery goes out.
      await finishedJobWithDelivery('quick-2', 7, 'https://quick.example.com:8443/hook');
      const busy = new Map([['slow.example.com', 2], ['quick.example.com:8443', 1]]);
      const later = Date.now();
      expect((await take(later, ['slow-0', 'slow-1', 'quick'], { perEndpoint: 2, inFlight: busy })).map((d) => d.id)).toEqual(['quick-2']);
      // One slow send finished: one more of its backlog.
      await storage.outbox.update('slow-0', 'delivered', 1, later, 204, null, later);
      const freed = new Map([['slow.example.com', 1], ['quick.example.com:8443', 2]]);
      expect((await take(later, ['slow-1', 'quick', 'quick-2'], { perEndpoint: 2, inFlight: freed })).map((d) => d.id)).toEqual(['slow-2']);
    });

    it('hands out at most the limit, and the rest on the next take', async () => {
      for (let i = 0; i < 3; i++) await finishedJobWithDelivery(`n-${i}`, 7, `https://host-${i}.example.com/hook`);
      const now = Date.now();
      const first = await take(now, [], { limit: 2 });
      expect(first).toHaveLength(2);
      const rest = await take(now, first.map((d) => d.id), { limit: 2 });
      expect([...first, ...rest].map((d) => d.id).sort()).toEqual(['n-0', 'n-1', 'n-2']);
    });

    if (adapter !== 'redis') return;

    it('redis: leases what it hands out, so another node asking before the lease ends gets nothing', async () => {
      await finishedJobWithDelivery('shared');
      const now = Date.now();
      expect((await take(now)).map((d) => [d.id, d.attempts])).toEqual([['shared', 0]]);
      // Another node knows nothing of this process's sends.
      expect(await take(now + 1_000)).toEqual([]);
      expect((await take(now + 10 * MINUTE)).map((d) => [d.id, d.attempts])).toEqual([['shared', 1]]);
    });

    it('redis: takes over deliveries an earlier version left in its single due set', async () => {
      const keys = new RedisKeys(prefix);
      const client = await connectRedis(TEST_REDIS_URL, () => {});
      const now = Date.now();
      try {
        await client.hSet(keys.delivery('old'), {
          id: 'old', account: '7', job: '1', event: 'job.completed', url: 'https://Old.Example.com/hook', account_default: '0', body: '{}',
          state: 'pending', attempts: '1', sent: '1', next: String(now), created: String(now), updated: String(now),
        });
        await client.zAdd(keys.legacyDeliveriesDue, { score: now, value: 'old' });
        expect((await take(now)).map((d) => [d.id, d.endpoint, d.attempts])).toEqual([['old', 'old.example.com', 1]]);
        expect(await client.exists(keys.legacyDeliveriesDue)).toBe(0);
      } finally {
        await client.close();
      }
    });
  });
}
