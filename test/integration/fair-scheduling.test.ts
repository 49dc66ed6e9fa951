// Accounts take turns at the compute pool, through the running service on both deployments
// (SQLite, and the Redis store with BullMQ): with account A's long jobs filling the two
// threads and more of them queued, account B's short job runs at the next free thread instead
// of waiting behind A's queue. Judged by which jobs had finished, not by durations.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, submit, waitForResult } from '../support/client.js';
import { dropPrefix, redisCli, testPrefix, TEST_REDIS_URL, untilKeyIs } from '../support/redis.js';
import { DEV_KEY, cli, startServer, type KerfServer } from '../support/server.js';

/** A job that sleeps 3 s in its pool thread (fault injection, KERF_TEST_FAULTS): a long job. */
const long = { stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, q: 2, name: '__slow__' }] };
const short = { stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, q: 2 }] };

interface Deployment {
  env: Record<string, string>;
  /** Creates an account and returns its API key, usable on the server once this resolves. */
  account: (server: KerfServer, email: string) => Promise<string>;
  cleanup: () => Promise<unknown>;
}

const keyOf = (stdout: string) => /api key \(shown once\): (\S+)/.exec(stdout)![1];

const deployments: [string, () => Deployment][] = [
  ['embedded (SQLite)', () => ({
    env: {},
    account: async (server, email) => keyOf((await cli(server.dataDir, 'accounts', 'create', '--email', email)).stdout),
    cleanup: async () => {},
  })],
  ['Redis (BullMQ)', () => {
    const redis = { url: TEST_REDIS_URL, prefix: testPrefix('fair') };
    return {
      env: { KERF_REDIS_URL: redis.url, KERF_REDIS_PREFIX: redis.prefix },
      account: async (server, email) => {
        const key = keyOf((await redisCli(redis, 'accounts', 'create', '--email', email)).stdout);
        await untilKeyIs('accepted', [server.url], key);
        return key;
      },
      cleanup: () => dropPrefix(redis.prefix),
    };
  }],
];

describe.each(deployments)('fair scheduling across accounts: %s', (_, make) => {
  let deployment: Deployment;
  let server: KerfServer;

  beforeAll(async () => {
    deployment = make();
    server = await startServer({ env: { ...deployment.env, KERF_TEST_FAULTS: '1', KERF_POOL_THREADS: '2' } });
  });
  afterAll(async () => {
    await server?.stop();
    await deployment?.cleanup();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it("runs another account's short job before the long jobs queued behind the two running", async () => {
    const other = await deployment.account(server, 'other@example.com');
    const longJobs: number[] = [];
    for (let i = 0; i < 6; i++) longJobs.push(await submit(server.url, DEV_KEY, long));
    const shortJob = await submit(server.url, other, short);
    expect((await waitForResult(server.url, other, shortJob)).status).toBe(200);
    const finished = [];
    for (const id of longJobs) {
      if ((await call(`${server.url}/v3/result/ready?id=${id}`, { key: DEV_KEY })).status === 200) finished.push(id);
    }
    // First in, first out would have run four long jobs first: only the two already running may have finished.
    expect(finished.length).toBeLessThanOrEqual(2);
    expect(finished.every((id) => longJobs.indexOf(id) < 2)).toBe(true);
  });
});
