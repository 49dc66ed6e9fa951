// kerf on several processes over one Redis: two API processes and two worker processes (the
// built server, started as `KERF_ROLE=api|worker`), a private append-only redis-server that
// the last test crashes and restarts, real webhooks to a loopback receiver.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, deletePrefix, type Redis } from '../../src/storage/redis/client.js';
import { call, submit, waitForResult } from '../support/client.js';
import { startPrivateRedis, type PrivateRedis } from '../support/redis-server.js';
import { redisCli, testPrefix, untilKeyIs } from '../support/redis.js';
import { startReceiver } from '../support/receivers.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { validateLayout } from '../support/validate-layout.js';

const cabinet = (firstName = 'side', webhook?: string) => ({
  saw: { cutType: 'guillotine', stockType: 'sheet', bladeWidth: 4, cutPreference: 'l' },
  stock: [{ l: 2800, w: 2070, t: 18, material: 'MDF' }],
  parts: [
    { l: 720, w: 560, t: 18, q: 4, name: firstName, material: 'MDF' },
    { l: 716, w: 396, t: 18, q: 4, name: 'door', material: 'MDF' },
    { l: 564, w: 300, t: 18, q: 6, name: 'shelf', material: 'MDF' },
  ],
  ...(webhook ? { webhook } : {}),
});

let redis: PrivateRedis;
let peek: Redis;
let prefix: string;
const apis: KerfServer[] = [];
let workers: KerfServer[] = [];

function env(role: 'api' | 'worker'): Record<string, string> {
  return {
    KERF_REDIS_URL: redis.url,
    KERF_REDIS_PREFIX: prefix,
    KERF_ROLE: role,
    KERF_POOL_THREADS: '1',
    // A dead worker's job is re-run after about 2 s instead of 30.
    KERF_REDIS_LOCK_MS: '2000',
    KERF_TEST_FAULTS: '1',
    KERF_WEBHOOK_ALLOW_LOOPBACK: '1',
  };
}

/** Workers get a data directory of their own, as on another machine: they need only Redis. */
const workerDirs: string[] = [];
async function startWorker(): Promise<KerfServer> {
  const worker = await startServer({ env: env('worker') });
  workerDirs.push(worker.dataDir);
  return worker;
}

/** Polls until the check passes (the cluster is eventually consistent with the test's view). */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The job's record in Redis: only to see which worker runs it, never as the test's verdict. */
const jobRecord = (id: number) => peek.hGetAll(`${prefix}job:${id}`) as Promise<Record<string, string>>;

/**
 * Answers 503 the first time it sees a delivery id and 204 after, each after 1.2 s, so every
 * send overlaps the other API node's delivery loop (it polls each second); records every request.
 */
async function failFirstReceiver() {
  const received: { delivery: string; attempt: string; answered: boolean; overlapping: boolean }[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const delivery = String(request.headers['x-service-delivery']);
      const earlier = received.filter((r) => r.delivery === delivery);
      // A retry may only start once the attempt before it was answered.
      const overlapping = earlier.some((r) => !r.answered);
      const entry = { delivery, attempt: String(request.headers['x-service-attempt']), answered: false, overlapping };
      received.push(entry);
      setTimeout(() => {
        response.writeHead(earlier.length ? 204 : 503).end();
        entry.answered = true;
      }, 1_200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  prefix = testPrefix('cluster');
  peek = await connectRedis(redis.url, () => {});
  // Every process has a data directory of its own, as on separate machines: accounts and keys
  // are in Redis (the CLI too works on Redis, from a directory of its own).
  for (let i = 0; i < 2; i++) apis.push(await startServer({ env: env('api') }));
  for (let i = 0; i < 2; i++) workers.push(await startWorker());
});

afterAll(async () => {
  await Promise.all([...apis, ...workers].map((p) => p.stop()));
  if (peek?.isOpen) {
    await deletePrefix(peek, prefix);
    await peek.close();
  }
  await redis?.stop();
  for (const dir of [...apis.map((a) => a.dataDir), ...workerDirs]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('two API and two worker processes on one Redis', () => {
  it('serves jobs submitted to either API node from the other, with ids unique across nodes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await submit(apis[i % 2].url, DEV_KEY, cabinet()));
    expect(new Set(ids).size).toBe(6);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    for (let i = 0; i < ids.length; i++) {
      const other = apis[(i + 1) % 2].url;
      const reply = await waitForResult(other, DEV_KEY, ids[i]);
      expect(reply.status).toBe(200);
      expect(reply.json.jobId).toBe(ids[i]);
      expect(validateLayout(cabinet(), reply.json)).toEqual([]);
      // Byte for byte the same record from both nodes.
      expect((await call(`${apis[i % 2].url}/v3/result?id=${ids[i]}`, { key: DEV_KEY })).text).toBe(reply.text);
    }
    const metrics = await call(`${workers[0].url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^kerf_queue_depth \d+$/m);
    expect((await call(`${workers[0].url}/v3/calculate`, { method: 'POST', key: DEV_KEY, body: cabinet() })).status).toBe(404);
  });

  it('shares the per-minute rate and the monthly allowance across API nodes', async () => {
    const created = await redisCli({ url: redis.url, prefix }, 'accounts', 'create', '--email', 'shared@example.com', '--rate', '3', '--monthly', '1000');
    expect(created.code, created.stderr).toBe(0);
    const key = /api key \(shown once\): (\S+)/.exec(created.stdout)![1];
    await untilKeyIs('accepted', apis.map((a) => a.url), key);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await call(`${apis[i % 2].url}/v3/calculate`, { method: 'POST', key, body: cabinet() })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);

    const capped = await redisCli({ url: redis.url, prefix }, 'accounts', 'create', '--email', 'allowance@example.com', '--rate', '100', '--monthly', '2');
    const cappedKey = /api key \(shown once\): (\S+)/.exec(capped.stdout)![1];
    await untilKeyIs('accepted', apis.map((a) => a.url), cappedKey);
    const allowance: number[] = [];
    for (let i = 0; i < 3; i++) {
      allowance.push((await call(`${apis[(i + 1) % 2].url}/v3/calculate`, { method: 'POST', key: cappedKey, body: cabinet() })).status);
    }
    expect(allowance).toEqual([200, 200, 403]);
  });

  it('finishes a job exactly once when its worker is killed mid-job', async () => {
    const receiver = await startReceiver([{ status: 204 }]);
    try {
      const id = await submit(apis[0].url, DEV_KEY, cabinet('__slow__', receiver.url));
      const owner = await until('a worker to claim the job', async () => (await jobRecord(id)).owner);
      const victim = workers.find((w) => owner.endsWith(`:${w.process.pid}`));
      expect(victim, `owner ${owner}`).toBeDefined();
      victim!.process.kill('SIGKILL');
      await victim!.stop();
      workers = workers.filter((w) => w !== victim);

      const reply = await waitForResult(apis[1].url, DEV_KEY, id);
      expect(reply.status).toBe(200);
      expect(validateLayout(cabinet('__slow__'), reply.json)).toEqual([]);
      expect((await jobRecord(id)).attempts).toBe('2');
      // One result, so one job.completed delivery (first attempt), whichever API node sent it.
      await until('the webhook', async () => (receiver.received.length ? true : undefined));
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received.map((r) => [r.headers['x-service-event'], r.headers['x-service-attempt']])).toEqual([['job.completed', '1']]);
      expect(receiver.received[0].body).toBe(reply.text);
    } finally {
      await receiver.close();
      workers.push(await startWorker());
    }
  });

  it('an engine that throws fails the job at once with the cause, on its first attempt', async () => {
    const id = await submit(apis[0].url, DEV_KEY, cabinet('__throw__'));
    const reply = await waitForResult(apis[1].url, DEV_KEY, id);
    expect(reply.status).toBe(422);
    expect(reply.json.message).toContain('injected engine fault (__throw__)');
    expect((await jobRecord(id)).attempts).toBe('1');
  });

  it("sends the account's default webhook set through the CLI on Redis", async () => {
    const hook = await failFirstReceiver();
    try {
      expect((await redisCli({ url: redis.url, prefix }, 'accounts', 'create', '--email', 'hooked@example.com')).code).toBe(0);
      expect((await redisCli({ url: redis.url, prefix }, 'accounts', 'webhook', '--account', 'hooked@example.com', '--url', hook.url)).code).toBe(0);
      // A key issued after the webhook: once both nodes accept it, they know the webhook too.
      const issued = await redisCli({ url: redis.url, prefix }, 'accounts', 'issue-key', '--account', 'hooked@example.com');
      const key = /\(shown once\): (\S+)/.exec(issued.stdout)![1];
      await untilKeyIs('accepted', apis.map((a) => a.url), key);
      const id = await submit(apis[1].url, key, cabinet());
      const reply = await waitForResult(apis[0].url, key, id);
      await until('the delivery', async () => (hook.received.length ? true : undefined));
      expect(hook.received[0]).toMatchObject({ attempt: '1' });
      expect(reply.status).toBe(200);
    } finally {
      await hook.close();
    }
  });

  it('delivers each webhook attempt once, though every API node runs a delivery loop', async () => {
    // Fails the first attempt of every delivery, so each is sent twice (the retry ~5 s later).
    const hook = await failFirstReceiver();
    try {
      for (let i = 0; i < 6; i++) await submit(apis[i % 2].url, DEV_KEY, cabinet('side', hook.url));
      await until('two attempts of every delivery', async () => (hook.received.length >= 12 ? true : undefined), 60_000);
      await new Promise((r) => setTimeout(r, 2_000));
      const byDelivery = new Map<string, string[]>();
      for (const { delivery, attempt } of hook.received) byDelivery.set(delivery, [...(byDelivery.get(delivery) ?? []), attempt]);
      expect(byDelivery.size).toBe(6);
      for (const attempts of byDelivery.values()) expect(attempts.sort()).toEqual(['1', '2']);
      expect(hook.received.filter((r) => r.overlapping)).toEqual([]);
    } finally {
      await hook.close();
    }
  });

  it('a worker stopped with SIGTERM finishes the job it runs before it exits', async () => {
    const running = await submit(apis[1].url, DEV_KEY, cabinet('__slow__'));
    const owner = await until('a worker to claim the slow job', async () => (await jobRecord(running)).owner);
    const stopped = workers.find((w) => owner.endsWith(`:${w.process.pid}`))!;
    await stopped.stop('SIGTERM');
    workers = workers.filter((w) => w !== stopped);
    expect((await call(`${apis[0].url}/v3/result/ready?id=${running}`, { key: DEV_KEY })).status).toBe(200);
    expect((await jobRecord(running)).attempts).toBe('1');
    workers.push(await startWorker());
  });

  it('loses nothing when Redis is killed and restarted with append-only persistence', async () => {
    const done = await submit(apis[0].url, DEV_KEY, cabinet());
    const doneText = (await waitForResult(apis[1].url, DEV_KEY, done)).text;

    // Both workers busy with a slow job each, two more jobs waiting behind them: then Redis dies.
    const slow = [await submit(apis[0].url, DEV_KEY, cabinet('__slow__')), await submit(apis[1].url, DEV_KEY, cabinet('__slow__'))];
    const queued = [await submit(apis[0].url, DEV_KEY, cabinet()), await submit(apis[1].url, DEV_KEY, cabinet())];
    for (const id of slow) await until('the workers to claim the slow jobs', async () => (await jobRecord(id)).owner);
    await redis.crash();
    await redis.restart();

    // Every process reconnects by itself: the finished result is unchanged, the running and the
    // queued jobs all finish, and the id sequence goes on where it was.
    const again = await until('the API to answer again', async () => {
      const reply = await call(`${apis[1].url}/v3/result?id=${done}`, { key: DEV_KEY });
      return reply.status === 200 ? reply : undefined;
    });
    expect(again.text).toBe(doneText);
    for (const id of [...slow, ...queued]) {
      const reply = await waitForResult(apis[id % 2].url, DEV_KEY, id);
      expect(reply.status).toBe(200);
      expect(reply.json.jobId).toBe(id);
    }
    expect(await submit(apis[1].url, DEV_KEY, cabinet())).toBeGreaterThan(queued[1]);
  });
});
