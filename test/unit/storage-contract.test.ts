// The storage contracts of accounts, API keys, sessions, metering, the rate limit and endpoint
// health, written once and run through the factory (src/storage/open.ts) against both
// adapters: a real SQLite file in a temporary data directory, and real Redis at 127.0.0.1:6379
// under a key prefix of its own, deleted after. (The job store and the webhook outbox have
// suites of their own, run the same way: job-store.test.ts, outbox.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStorage, type Storage } from '../../src/storage/open.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

const HOUR = 3_600_000;
/** A fixed clock well inside one calendar month (UTC). */
const T0 = Date.UTC(2026, 4, 10, 12);

for (const adapter of ['sqlite', 'redis'] as const) {
  describe(`storage contract: ${adapter}`, () => {
    let dataDir = '';
    const prefix = testPrefix('storage');
    let storage: Storage;

    /** The same data directory or Redis prefix: another store opened on it is another process (the CLI, a node). */
    const env = (): NodeJS.ProcessEnv => ({
      KERF_DATA_DIR: dataDir, KERF_WEBHOOK_WARN_HOURS: '1', KERF_WEBHOOK_DISABLE_HOURS: '2', KERF_RATE_PER_MINUTE: '100',
      ...(adapter === 'redis' ? { KERF_REDIS_URL: TEST_REDIS_URL, KERF_REDIS_PREFIX: prefix } : {}),
    });

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-storage-'));
      storage = await openStorage(loadConfig(env()));
    });

    afterAll(async () => {
      await storage?.close();
      if (adapter === 'redis') await dropPrefix(prefix);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('accounts: creates with the default plan, finds by id and e-mail, refuses a second account for one e-mail', async () => {
      const { accounts } = storage;
      const a = await accounts.create('a@example.com');
      const b = await accounts.create('b@example.com', { ratePerMinute: 7, monthlyCalls: 9 });
      await accounts.refresh();
      expect(a.id).not.toBe(b.id);
      expect(accounts.get(a.id)?.email).toBe('a@example.com');
      expect(accounts.get(a.id)?.ratePerMinute).toBe(100);
      expect(accounts.byEmail('b@example.com')).toMatchObject({ id: b.id, ratePerMinute: 7, monthlyCalls: 9, onHold: false });
      expect(accounts.list().map((x) => x.email)).toEqual(['a@example.com', 'b@example.com']);
      await expect(Promise.resolve().then(() => accounts.create('a@example.com'))).rejects.toThrow();
    });

    it('api keys: an issued key finds its account, a revoked one finds nothing; account changes show in the lookup at once', async () => {
      const { accounts, apiKeys } = storage;
      const account = await accounts.create('keys@example.com');
      const other = await accounts.create('keys-other@example.com');
      const { key, info } = await apiKeys.issue(account.id, 'ci');
      expect(apiKeys.byApiKey(key)?.id).toBe(account.id);
      expect(apiKeys.byApiKey(key)?.id).toBe(account.id); // a second lookup (the cache) answers the same
      expect(apiKeys.has(key)).toBe(true);
      expect(apiKeys.list(account.id)).toEqual([{ id: info.id, prefix: info.prefix, label: 'ci', createdAt: info.createdAt, revokedAt: null }]);
      expect(apiKeys.list(other.id)).toEqual([]);
      expect(key.startsWith(info.prefix)).toBe(true);
      await accounts.setPlan(account.id, { monthlyCalls: 5 });
      await accounts.setHold(account.id, true);
      await accounts.setWebhookUrl(account.id, 'https://hooks.example.com/k');
      expect(apiKeys.byApiKey(key)).toMatchObject({ monthlyCalls: 5, onHold: true, webhookUrl: 'https://hooks.example.com/k' });
      expect(await apiKeys.revoke(other.id, info.id)).toBe(false);
      expect(await apiKeys.revoke(account.id, info.id)).toBe(true);
      expect(await apiKeys.revoke(account.id, info.id)).toBe(false);
      expect(apiKeys.byApiKey(key)).toBeUndefined();
      expect(apiKeys.has(key)).toBe(true);
      expect(apiKeys.list(account.id)[0].revokedAt).not.toBeNull();
      expect(apiKeys.byApiKey('not-a-key')).toBeUndefined();
      expect(apiKeys.has('not-a-key')).toBe(false);
    });

    it('api keys: a known key may be imposed (the development account), and a second store sees it after a refresh', async () => {
      const { accounts, apiKeys } = storage;
      const account = await accounts.create('imposed@example.com');
      const raw = 'kerf_imposed_0123456789abcdef0123456789abcdef';
      const { key } = await apiKeys.issue(account.id, 'KERF_DEV_API_KEY', raw);
      expect(key).toBe(raw);
      const second = await openStorage(loadConfig(env()));
      try {
        await second.apiKeys.refresh();
        expect(second.apiKeys.byApiKey(raw)?.email).toBe('imposed@example.com');
        await apiKeys.revoke(account.id, apiKeys.list(account.id)[0].id);
        await second.apiKeys.refresh();
        expect(second.apiKeys.byApiKey(raw, Date.now() + 1_000)).toBeUndefined();
      } finally {
        await second.close();
      }
    });

    it('sessions: a session opens and closes; a sign-in link works once; a password checks', async () => {
      const { accounts, sessions } = storage;
      const account = await accounts.create('pages@example.com');
      await accounts.refresh();
      const { token, session } = await sessions.open(account.id, T0);
      expect(session.accountId).toBe(account.id);
      expect((await sessions.get(token, T0 + 1000))?.accountId).toBe(account.id);
      expect((await sessions.get(token, T0 + 1000))?.csrf).toBe(session.csrf);
      await sessions.close(token);
      expect(await sessions.get(token, T0 + 2000)).toBeUndefined();
      expect(await sessions.get(undefined, T0)).toBeUndefined();
      const link = await sessions.issueLink(account.id, T0);
      expect(await sessions.useLink(link, T0 + 1000)).toBe(account.id);
      expect(await sessions.useLink(link, T0 + 2000)).toBeUndefined();
      await sessions.setPassword(account.id, 'correct horse battery');
      expect(await sessions.checkPassword('pages@example.com', 'correct horse battery')).toBe(account.id);
      expect(await sessions.checkPassword('pages@example.com', 'wrong password!')).toBeUndefined();
    });

    it('metering: counts calls and compute per account and month', async () => {
      const { accounts, metering } = storage;
      const a = (await accounts.create('meter-a@example.com')).id;
      const b = (await accounts.create('meter-b@example.com')).id;
      await metering.countCall(a, T0);
      await metering.countCall(a, T0 + 1000);
      await metering.addCompute(a, 1500, T0);
      await metering.countCall(b, T0);
      expect(await metering.usage(a, T0)).toEqual({ month: '2026-05', calls: 2, computeSeconds: 1.5 });
      expect((await metering.usage(b, T0)).calls).toBe(1);
      expect(await metering.usage(a, Date.UTC(2026, 5, 2))).toEqual({ month: '2026-06', calls: 0, computeSeconds: 0 });
      // The month turns at midnight UTC, back and forth across the boundary.
      const lastOfMay = Date.UTC(2026, 5, 1) - 1;
      await metering.countCall(b, lastOfMay + 1);
      await metering.countCall(b, lastOfMay);
      expect(await metering.usage(b, lastOfMay)).toMatchObject({ month: '2026-05', calls: 2 });
      expect(await metering.usage(b, lastOfMay + 1)).toMatchObject({ month: '2026-06', calls: 1 });
    });

    it('rate limit: allows up to the rate, refuses with a retry time, and a refund gives the call back', async () => {
      const { limiter } = storage;
      const key = `key-${adapter}`;
      const first = await limiter.hit(key, 2, T0);
      expect(first.allowed).toBe(true);
      expect((await limiter.hit(key, 2, T0 + 10)).allowed).toBe(true);
      const refused = await limiter.hit(key, 2, T0 + 20);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      await limiter.refund(key, first.window!);
      expect((await limiter.hit(key, 2, T0 + 30)).allowed).toBe(true);
      expect((await limiter.hit(`other-${key}`, 2, T0 + 30)).allowed).toBe(true);
    });

    it('endpoint health: warns, then disables, by the failure clock; a success resets it; re-enable clears it', async () => {
      const { accounts, health } = storage;
      const one = (await accounts.create('health-1@example.com')).id;
      const two = (await accounts.create('health-2@example.com')).id;
      expect(health.thresholds).toEqual({ warnAfterMs: HOUR, disableAfterMs: 2 * HOUR });
      expect(await health.state(one)).toEqual({ failingSince: null, warnedAt: null, disabledAt: null });
      expect(await health.failed(one, T0)).toEqual([]);
      expect(await health.failed(one, T0 + HOUR + 1)).toEqual(['warn']);
      expect(await health.failed(one, T0 + HOUR + 2)).toEqual([]);
      expect(await health.failed(one, T0 + 2 * HOUR + 1)).toEqual(['disable']);
      expect(await health.state(one)).toMatchObject({ failingSince: T0, warnedAt: T0 + HOUR + 1, disabledAt: T0 + 2 * HOUR + 1 });
      await health.reenable(one);
      expect((await health.state(one)).disabledAt).toBeNull();
      expect(await health.failed(two, T0)).toEqual([]);
      await health.succeeded(two);
      expect((await health.state(two)).failingSince).toBeNull();
      expect(await health.failed(two, T0 + 2 * HOUR + 1)).toEqual([]);
    });
  });
}
