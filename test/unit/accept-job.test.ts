// Accepting a job (POST /v3/calculate) writes the job and counts the call: on SQLite in one
// transaction, so a job is never queued without its call counted, nor counted without its job.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStorage, type ServerStorage } from '../../src/storage/open.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../support/redis.js';

for (const adapter of ['sqlite', 'redis'] as const) {
  describe(`acceptJob: ${adapter}`, () => {
    let dataDir = '';
    let prefix = '';
    let storage: ServerStorage;

    beforeEach(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-accept-'));
      prefix = testPrefix('accept');
      storage = await openStorage(loadConfig({
        KERF_DATA_DIR: dataDir,
        ...(adapter === 'redis' ? { KERF_REDIS_URL: TEST_REDIS_URL, KERF_REDIS_PREFIX: prefix } : {}),
      }), { jobs: { owner: 'w1' } });
    });

    afterEach(async () => {
      await storage?.close();
      if (adapter === 'redis') await dropPrefix(prefix);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('queues the job and counts one call per accepted job', async () => {
      const account = await storage.accounts.create('accept@example.com');
      const first = await storage.acceptJob({ accountId: account.id, kind: 'calculate', request: '{"a":1}' });
      const second = await storage.acceptJob({ accountId: account.id, kind: 'calculate', request: '{"a":2}' });
      expect(second).toBeGreaterThan(first);
      expect((await storage.jobs.recent(account.id, 10)).map((job) => [job.id, job.state])).toEqual([[second, 'queued'], [first, 'queued']]);
      expect((await storage.metering.usage(account.id)).calls).toBe(2);
    });
  });
}

describe('acceptJob: sqlite, both or neither', () => {
  it('queues no job when its call cannot be counted', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-accept-'));
    const storage = await openStorage(loadConfig({ KERF_DATA_DIR: dataDir }), { jobs: { owner: 'w1' } });
    try {
      // No such account: the usage row's reference to it fails, and the job's insert is rolled back with it.
      await expect(storage.acceptJob({ accountId: 999_999, kind: 'calculate', request: '{}' })).rejects.toThrow(/FOREIGN KEY/);
      expect(await storage.jobs.recent(999_999, 10)).toEqual([]);
      expect(await storage.jobs.queueDepth()).toBe(0);
    } finally {
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
