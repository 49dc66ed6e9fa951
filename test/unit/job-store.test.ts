// The job store contract, written once for every adapter. Runs against a real SQLite file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/storage/sqlite/db.js';
import { RedisJobStore } from '../../src/storage/jobs/redis.js';
import { SqliteJobStore } from '../../src/storage/jobs/sqlite.js';
import type { JobStore } from '../../src/storage/jobs/store.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

interface Adapter {
  name: string;
  open: (retentionMs: number, accountThreads?: number) => Promise<JobStore>;
  cleanup: () => Promise<void>;
}

function sqliteAdapter(): Adapter {
  let dir = '';
  let db: Db | undefined;
  return {
    name: 'sqlite',
    open: async (retentionMs, accountThreads) => {
      dir ||= fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-store-'));
      db?.close();
      db = openDatabase(dir);
      return new SqliteJobStore(db, { retentionMs, accountThreads });
    },
    cleanup: async () => {
      db?.close();
      db = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
      dir = '';
    },
  };
}

/** Real Redis under a prefix of its own; a reopen is a new connection to the same keys. */
function redisAdapter(): Adapter {
  let prefix = '';
  return {
    name: 'redis',
    open: async (retentionMs, accountThreads) => {
      prefix ||= testPrefix('store');
      return RedisJobStore.open({ url: TEST_REDIS_URL, prefix, retentionMs, lockMs: 30_000, accountThreads });
    },
    cleanup: async () => {
      await dropPrefix(prefix);
      prefix = '';
    },
  };
}

const HOUR = 3_600_000;

for (const adapter of [sqliteAdapter(), redisAdapter()]) {
  describe(`job store contract: ${adapter.name}`, () => {
    let store: JobStore;
    beforeEach(async () => {
      store = await adapter.open(HOUR);
    });
    afterEach(async () => {
      await store.close();
      await adapter.cleanup();
    });

    const job = (accountId = 1) => ({ accountId, kind: 'calculate' as const, request: '{"a":1}' });

    it('gives increasing integer ids and queues jobs in order', async () => {
      const a = await store.submit(job());
      const b = await store.submit(job());
      expect(Number.isInteger(a) && a > 0).toBe(true);
      expect(b).toBeGreaterThan(a);
      expect(await store.queueDepth()).toBe(2);
      expect((await store.claim('w1'))!.id).toBe(a);
      expect((await store.claim('w1'))!.id).toBe(b);
      expect(await store.claim('w1')).toBeUndefined();
      expect(await store.queueDepth()).toBe(0);
    });

    it('lets accounts take turns: the fewest running first, then the longest since its turn', async () => {
      const a = [await store.submit(job(1)), await store.submit(job(1)), await store.submit(job(1)), await store.submit(job(1))];
      const b = await store.submit(job(2));
      const c = [await store.submit(job(3)), await store.submit(job(3))];
      const order: number[] = [];
      for (let i = 0; i < 7; i++) order.push((await store.claim('w1'))!.id);
      expect(order).toEqual([a[0], b, c[0], a[1], c[1], a[2], a[3]]);
      // A finished job frees its account's share: account 1 runs 4, account 3 runs 2; account 3's next job goes first.
      const c2 = await store.submit(job(3));
      const a5 = await store.submit(job(1));
      await store.complete(a[0], 1, '{}', 1);
      expect((await store.claim('w1'))!.id).toBe(c2);
      expect((await store.claim('w1'))!.id).toBe(a5);
      expect(await store.queueDepth()).toBe(0);
    });

    it('holds back an account at its cap while others run', async () => {
      await store.close();
      store = await adapter.open(HOUR, 2);
      const a = [await store.submit(job(1)), await store.submit(job(1)), await store.submit(job(1))];
      const b = await store.submit(job(2));
      expect([(await store.claim('w1'))!.id, (await store.claim('w1'))!.id, (await store.claim('w1'))!.id]).toEqual([a[0], b, a[1]]);
      expect(await store.claim('w1')).toBeUndefined();
      expect(await store.queueDepth()).toBe(1);
      await store.complete(a[0], 1, '{}', 1);
      expect((await store.claim('w1'))!.id).toBe(a[2]);
    });

    it('shows a job only to its own account', async () => {
      const id = await store.submit(job(1));
      expect((await store.get(id, 1))!.state).toBe('queued');
      expect(await store.get(id, 2)).toBeUndefined();
      expect(await store.get(id + 100, 1)).toBeUndefined();
    });

    it('writes a result once: a stale attempt cannot overwrite it', async () => {
      const id = await store.submit(job());
      const first = (await store.claim('w1'))!;
      expect(first.attempt).toBe(1);
      await store.release(id, first.attempt);
      const second = (await store.claim('w2'))!;
      expect(second.attempt).toBe(2);
      expect(await store.complete(id, first.attempt, '{"stale":true}', 5)).toBe(false);
      expect(await store.complete(id, second.attempt, '{"ok":true}', 5)).toBe(true);
      expect(await store.complete(id, second.attempt, '{"again":true}', 5)).toBe(false);
      const view = (await store.get(id, 1))!;
      expect(view.state).toBe('done');
      expect(view.result).toBe('{"ok":true}');
    });

    it('reports the state alone, with the same account rule and expiry', async () => {
      const id = await store.submit(job(1));
      expect(await store.state(id, 1)).toBe('queued');
      const claimed = (await store.claim('w1'))!;
      expect(await store.state(id, 1)).toBe('running');
      await store.complete(id, claimed.attempt, '{}', 1);
      expect(await store.state(id, 1)).toBe('done');
      expect(await store.state(id, 1)).toBe('done');
      expect(await store.state(id, 2)).toBeUndefined();
      expect(await store.state(id, 1, Date.now() + HOUR + 1)).toBe('expired');
      expect(await store.state(id + 1, 1)).toBeUndefined();
    });

    it('lists an account\'s latest jobs, newest first, with their states and expiry', async () => {
      const a = await store.submit(job(1));
      const other = await store.submit(job(2));
      const b = await store.submit(job(1));
      const claimed = (await store.claim('w1'))!;
      expect(claimed.id).toBe(a);
      await store.complete(a, claimed.attempt, '{}', 1);
      expect((await store.recent(1, 10)).map((j) => [j.id, j.state])).toEqual([[b, 'queued'], [a, 'done']]);
      expect((await store.recent(1, 1)).map((j) => j.id)).toEqual([b]);
      expect((await store.recent(2, 10)).map((j) => j.id)).toEqual([other]);
      expect((await store.recent(1, 10, Date.now() + HOUR + 1)).map((j) => j.state)).toEqual(['queued', 'expired']);
      expect(await store.recent(3, 10)).toEqual([]);
    });

    it('records failures with their message', async () => {
      const id = await store.submit(job());
      const claimed = (await store.claim('w1'))!;
      expect(await store.fail(id, claimed.attempt, 'no layout', 3)).toBe(true);
      expect(await store.get(id, 1)).toMatchObject({ state: 'failed', error: 'no layout', result: null });
    });

    it('requeues running jobs whose owner is gone, and keeps those of live owners', async () => {
      const a = await store.submit(job());
      const b = await store.submit(job());
      await store.claim('dead');
      await store.claim('alive');
      expect(await store.recover(['alive'])).toBe(1);
      expect((await store.get(a, 1))!.state).toBe('queued');
      expect((await store.get(b, 1))!.state).toBe('running');
    });

    it('keeps queued and finished jobs across a reopen', async () => {
      const done = await store.submit(job());
      const claimed = (await store.claim('w1'))!;
      await store.complete(done, claimed.attempt, '{"r":1}', 1);
      const queued = await store.submit(job());
      await store.close();
      store = await adapter.open(HOUR);
      expect((await store.get(done, 1))!.result).toBe('{"r":1}');
      expect((await store.get(queued, 1))!.state).toBe('queued');
    });

    it('expires finished jobs after the retention and never reuses their ids', async () => {
      const id = await store.submit(job());
      const claimed = (await store.claim('w1'))!;
      await store.complete(id, claimed.attempt, '{"r":1}', 1);
      const later = Date.now() + HOUR + 1;
      expect((await store.get(id, 1, later))!.state).toBe('expired');
      expect(await store.expire(later)).toBe(1);
      expect(await store.get(id, 1)).toMatchObject({ state: 'expired', result: null });
      expect(await store.submit(job())).toBeGreaterThan(id);
    });
  });
}
