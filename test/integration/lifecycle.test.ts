// Jobs through restarts, crashes and expiry: no submitted job is lost, a result is written
// once, and a finished job answers 410 after its retention.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, submit, waitForResult } from '../support/client.js';
import { DEV_KEY, ROOT, startServer, tempDataDir } from '../support/server.js';
import { validateLayout } from '../support/validate-layout.js';

/** A job that keeps a thread busy for a while: many distinct sizes. */
const heavy = (seed: number) => ({
  saw: { bladeWidth: 3, options: { seed } },
  stock: [{ l: 2800, w: 2070 }, { l: 2440, w: 1220 }, { l: 3050, w: 1530 }],
  parts: Array.from({ length: 150 }, (_, i) => ({ l: 80 + ((i * 37 + seed) % 700), w: 60 + ((i * 53) % 400), q: 10 })),
});

function jobRows(dataDir: string) {
  const db = new Database(path.join(dataDir, 'kerf.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT id, state, attempts, result IS NOT NULL AS hasResult FROM jobs ORDER BY id').all() as
      { id: number; state: string; attempts: number; hasResult: number }[];
  } finally {
    db.close();
  }
}

async function until(check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('job lifecycle', () => {
  it('a wrong setting stops the start with one line naming it, and no job is taken', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', KERF_DATA_DIR: tempDataDir(), KERF_DEFAULT_SEARCH_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe('kerf failed to start: KERF_DEFAULT_SEARCH_MS must be a number of milliseconds more than 0, got "0"\n');
  });

  it('a finished job answers 200, then 410 once its retention has passed', async () => {
    const server = await startServer({ env: { KERF_RETENTION_SECONDS: '2' } });
    try {
      const jobId = await submit(server.url, DEV_KEY, { stock: [{ l: 100, w: 100 }], parts: [{ l: 10, w: 10 }] });
      const first = await waitForResult(server.url, DEV_KEY, jobId);
      expect(first.status).toBe(200);
      await new Promise((r) => setTimeout(r, 2_100));
      expect((await call(`${server.url}/v3/result/ready?id=${jobId}`, { key: DEV_KEY })).status).toBe(410);
      const gone = await call(`${server.url}/v3/result?id=${jobId}`, { key: DEV_KEY });
      expect(gone.status).toBe(410);
      expect(gone.json).toMatchObject({ version: '3', error: expect.stringMatching(/expired/) });
    } finally {
      await server.stop();
    }
  });

  it('a server killed mid-job loses nothing: queued and running jobs complete after a restart, each written once', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir, env: { KERF_POOL_THREADS: '1' } });
    const ids: number[] = [];
    for (let seed = 1; seed <= 4; seed++) ids.push(await submit(first.url, DEV_KEY, heavy(seed)));
    await until(() => jobRows(dataDir).some((row) => row.state === 'running'));
    await first.stop('SIGKILL');
    const before = jobRows(dataDir);
    expect(before.filter((row) => row.state === 'queued' || row.state === 'running').length).toBeGreaterThan(0);

    const second = await startServer({ dataDir, env: { KERF_POOL_THREADS: '1' } });
    try {
      for (const [i, id] of ids.entries()) {
        const reply = await waitForResult(second.url, DEV_KEY, id, 120_000);
        expect(reply.status).toBe(200);
        expect(validateLayout(heavy(i + 1), reply.json)).toEqual([]);
      }
      const after = jobRows(dataDir);
      expect(after.map((row) => row.state)).toEqual(['done', 'done', 'done', 'done']);
      const killed = before.find((row) => row.state === 'running')!;
      expect(after.find((row) => row.id === killed.id)!.attempts).toBe(2);
    } finally {
      await second.stop();
    }
  });

  it('a pool thread that dies mid-job is replaced and the job is run again', async () => {
    const server = await startServer({ env: { KERF_TEST_FAULTS: '1' } });
    try {
      const request = { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, q: 5, name: '__exit__' }] };
      const jobId = await submit(server.url, DEV_KEY, request);
      const reply = await waitForResult(server.url, DEV_KEY, jobId);
      expect(reply.status).toBe(200);
      expect(reply.json.metadata.totalPartsProduced).toBe(5);
      expect(jobRows(server.dataDir).find((row) => row.id === jobId)!.attempts).toBe(2);
      const metrics = await call(`${server.url}/metrics`);
      expect(metrics.text).toMatch(/kerf_job_retries_total 1/);
    } finally {
      await server.stop();
    }
  });

  it('an engine that throws fails the job at once with the cause, and is not retried', async () => {
    const server = await startServer({ env: { KERF_TEST_FAULTS: '1', KERF_LOG_LEVEL: 'error' } });
    try {
      const request = { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, q: 5, name: '__throw__' }] };
      const jobId = await submit(server.url, DEV_KEY, request);
      const reply = await waitForResult(server.url, DEV_KEY, jobId);
      expect(reply.status).toBe(422);
      expect(reply.json).toEqual({ statusCode: 422, message: expect.stringContaining('injected engine fault (__throw__)'), version: '3' });
      expect(jobRows(server.dataDir).find((row) => row.id === jobId)!.attempts).toBe(1);
      expect((await call(`${server.url}/metrics`)).text).toMatch(/kerf_job_retries_total 0/);
      // The log line names what reproduces the job: its request's hash and seed.
      expect(server.output()).toMatch(/"requestSha256":"[0-9a-f]{64}","seed":1,"msg":"job failed: internal error"/);
    } finally {
      await server.stop();
    }
  });

  it('a layout that fails the service\'s own check is never delivered: the job fails as an internal error', async () => {
    // The fault moves the second placed part onto the first after the engine, before the check.
    const server = await startServer({ env: { KERF_TEST_FAULTS: '1', KERF_LOG_LEVEL: 'error' } });
    try {
      const request = { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, q: 5, name: '__overlap__' }] };
      const jobId = await submit(server.url, DEV_KEY, request);
      const reply = await waitForResult(server.url, DEV_KEY, jobId);
      expect(reply.status).toBe(422);
      expect(reply.json.message).toMatch(/^internal error: the computed layout failed the service's validity check and was not delivered \(parts? 0\.1/);
      expect(jobRows(server.dataDir).find((row) => row.id === jobId)).toMatchObject({ state: 'failed', attempts: 1, hasResult: 0 });
      expect(server.output()).toMatch(/"violations":\["parts? 0\.1.*"requestSha256":"[0-9a-f]{64}","seed":1,"msg":"job failed: internal error"/);
    } finally {
      await server.stop();
    }
  });

  it('a runaway worker is stopped at the budget backstop, the job fails, and the pool keeps working', async () => {
    // The budget is the backstop under test; it is generous so the job after the runaway one, on a
    // fresh thread of a loaded machine, never meets it.
    const server = await startServer({ env: { KERF_TEST_FAULTS: '1', KERF_JOB_BUDGET_MS: '3000', KERF_ABORT_GRACE_MS: '300', KERF_POOL_THREADS: '1' } });
    try {
      const hung = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, name: '__hang__' }] });
      const after = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, q: 2 }] });
      const failed = await waitForResult(server.url, DEV_KEY, hung);
      expect(failed.status).toBe(422);
      expect(failed.json).toEqual({ statusCode: 422, message: expect.stringMatching(/budget/), version: '3' });
      const next = await waitForResult(server.url, DEV_KEY, after);
      expect(next.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('a graceful stop finishes the running job before exiting', async () => {
    const dataDir = tempDataDir();
    const server = await startServer({ dataDir, env: { KERF_POOL_THREADS: '1' } });
    const jobId = await submit(server.url, DEV_KEY, heavy(9));
    await until(() => jobRows(dataDir).some((row) => row.id === jobId && row.state === 'running'));
    await server.stop('SIGTERM');
    expect(jobRows(dataDir).find((row) => row.id === jobId)!.state).toBe('done');
  });
});
