// bench/scale: jobs per second of kerf over Redis with 1 and then 2 worker processes (one pool
// thread each) behind one API process, on this machine. A fixed batch of the same kitchen job
// (twelve cabinet carcasses, 248 parts, two board sizes) is submitted at once and timed until
// the last result is ready, so the engine, not the queue, dominates. The 1-worker figure is the
// anchor; the ratio says how much a second worker adds (at most 2 on a 2-core machine that also
// runs the API process and Redis). Wall-clock figures move with whatever else the machine runs;
// the workers' own CPU time per job (from /proc) barely does, and shows what a job costs.
//   BENCH_REDIS_URL   Redis to use (default redis://127.0.0.1:6379); keys go under their own prefix, deleted after
//   BENCH_SCALE_JOBS  jobs per run (default 60)
//   BENCH_SCALE_MAX   largest worker count (default 2)
//   BENCH_SCALE_ROUNDS rounds of 1..MAX workers, alternating (default 3); the table gives medians
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connectRedis, deletePrefix } from '../src/storage/redis/client.js';
import { BENCH_KEY, startServer, stopServer, submitJob, type BenchServer } from './server.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JOBS = Number(process.env.BENCH_SCALE_JOBS ?? 60);
const MAX_WORKERS = Number(process.env.BENCH_SCALE_MAX ?? 2);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const WARMUP_JOBS = 4;

/** Twelve base cabinets (sides, bottoms, rails, shelves, doors, drawers, plinths) on two board sizes. */
const kitchenJob = {
  saw: { cutType: 'guillotine', stockType: 'sheet', bladeWidth: 4, cutPreference: 'l', options: { seed: 1 } },
  stock: [
    { l: 2800, w: 2070, t: 18, material: 'white melamine', trim: { l1: 10, l2: 10, w1: 10, w2: 10 } },
    { l: 2440, w: 1220, t: 18, material: 'white melamine' },
  ],
  parts: [
    { l: 720, w: 560, t: 18, q: 24, name: 'side', material: 'white melamine' },
    { l: 564, w: 560, t: 18, q: 12, name: 'bottom', material: 'white melamine' },
    { l: 564, w: 100, t: 18, q: 24, name: 'rail', material: 'white melamine' },
    { l: 562, w: 520, t: 18, q: 24, name: 'shelf', material: 'white melamine' },
    { l: 716, w: 396, t: 18, q: 24, name: 'door', material: 'white melamine', grain: 'l' },
    { l: 716, w: 596, t: 18, q: 12, name: 'wide door', material: 'white melamine', grain: 'l' },
    { l: 140, w: 596, t: 18, q: 36, name: 'drawer front', material: 'white melamine', grain: 'w' },
    { l: 500, w: 120, t: 18, q: 72, name: 'drawer side', material: 'white melamine' },
    { l: 564, w: 90, t: 18, q: 20, name: 'plinth', material: 'white melamine' },
  ],
};

const submit = (api: string) => submitJob(api, kitchenJob);

/** Waits for every job, polling one at a time in submit order (light on the API process). */
async function waitAll(api: string, ids: number[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const status = (await fetch(`${api}/v3/result/ready?id=${id}`, { headers: { authorization: BENCH_KEY } })).status;
      if (status === 200) break;
      if (status !== 404) throw new Error(`ready answered ${status} for job ${id}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** CPU seconds a process has used (user + system, all threads), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Jobs a worker finished and their mean compute time, from its /metrics. */
async function computeStats(url: string): Promise<{ jobs: number; failed: number; meanMs: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string, outcome = 'done') => Number(new RegExp(`^${name}\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const jobs = value('kerf_job_duration_seconds_count');
  return { jobs, failed: value('kerf_job_duration_seconds_count', 'failed'), meanMs: jobs ? (value('kerf_job_duration_seconds_sum') / jobs) * 1000 : 0 };
}

async function run(api: string, workers: number, env: Record<string, string>) {
  const nodes: BenchServer[] = [];
  for (let i = 0; i < workers; i++) nodes.push(await startServer({ ...env, KERF_ROLE: 'worker', KERF_POOL_THREADS: '1' }));
  try {
    await waitAll(api, await Promise.all(Array.from({ length: WARMUP_JOBS * workers }, () => submit(api))));
    const cpuBefore = nodes.reduce((sum, node) => sum + cpuSeconds(node.child.pid!), 0);
    const started = performance.now();
    const ids: number[] = [];
    for (let i = 0; i < JOBS; i++) ids.push(await submit(api));
    await waitAll(api, ids);
    const seconds = (performance.now() - started) / 1000;
    const cpuMsPerJob = ((nodes.reduce((sum, node) => sum + cpuSeconds(node.child.pid!), 0) - cpuBefore) / JOBS) * 1000;
    const perWorker = await Promise.all(nodes.map((node) => computeStats(node.url)));
    return { workers, seconds, jobsPerSecond: JOBS / seconds, cpuMsPerJob, perWorker };
  } finally {
    await Promise.all(nodes.map(stopServer));
  }
}

/** Redis clients retry forever; say plainly when there is no Redis to measure against. */
async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    socket.setTimeout(3_000);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(false));
  });
}

async function main() {
  if (!(await reachable(REDIS_URL))) {
    console.log(`\nbench/scale: no Redis at ${REDIS_URL} (set BENCH_REDIS_URL); skipped\n`);
    return;
  }
  const prefix = `kerf-bench:${process.pid}-${crypto.randomBytes(3).toString('hex')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-bench-scale-'));
  const env = {
    KERF_DATA_DIR: dataDir, KERF_RATE_PER_MINUTE: '1000000000', KERF_MONTHLY_CALLS: '1000000000',
    KERF_REDIS_URL: REDIS_URL, KERF_REDIS_PREFIX: prefix,
  };
  const api = await startServer({ ...env, KERF_ROLE: 'api', KERF_POOL_THREADS: '1' });
  // Rounds alternate 1, 2, ... workers, so drift in what else the machine runs hits all alike.
  const runs: Awaited<ReturnType<typeof run>>[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (let workers = 1; workers <= MAX_WORKERS; workers++) runs.push(await run(api.url, workers, env));
    }
  } finally {
    await stopServer(api);
    const redis = await connectRedis(REDIS_URL, () => {});
    await deletePrefix(redis, prefix);
    await redis.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const failed = runs.reduce((n, r) => n + r.perWorker.reduce((m, w) => m + w.failed, 0), 0);
  if (failed) throw new Error(`${failed} jobs failed: the figures would not be about finished layouts`);

  const parts = kitchenJob.parts.reduce((n, p) => n + p.q, 0);
  // Other work on the machine takes cores from the workers: the load average says how much.
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  console.log(`\nbench/scale: ${JOBS} kitchen jobs (${parts} parts each) through 1 API process and N worker processes (1 pool thread each), one Redis;`
    + ` median of ${ROUNDS} alternating rounds; ${os.availableParallelism()} cores, load average ${load} (1/5/15 min) at the end\n`);
  console.log('| worker processes | jobs/s (median) | ratio to 1 worker | jobs/s per round | compute ms per job (median) | worker CPU ms per job (median) | worker threads busy |');
  console.log('|---|---|---|---|---|---|---|');
  let anchor = 0;
  for (let workers = 1; workers <= MAX_WORKERS; workers++) {
    const mine = runs.filter((r) => r.workers === workers);
    const rate = median(mine.map((r) => r.jobsPerSecond));
    anchor ||= rate;
    const computeMs = median(mine.map((r) => weightedMeanMs(r.perWorker)));
    // Busy share of the worker threads: throughput x compute time per job / threads. Near 100 %
    // means the queue keeps every thread fed, and a ratio below N comes from cores, not dispatch.
    const busy = median(mine.map((r) => (r.jobsPerSecond * weightedMeanMs(r.perWorker)) / 1000 / workers));
    console.log(`| ${workers} | ${rate.toFixed(2)} | ${(rate / anchor).toFixed(2)}${workers === 1 ? ' (anchor)' : ''} | `
      + `${mine.map((r) => r.jobsPerSecond.toFixed(1)).join(', ')} | ${computeMs.toFixed(0)} | ${median(mine.map((r) => r.cpuMsPerJob)).toFixed(0)} | ${(busy * 100).toFixed(0)} % |`);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function weightedMeanMs(perWorker: { jobs: number; meanMs: number }[]): number {
  const jobs = perWorker.reduce((n, w) => n + w.jobs, 0);
  return perWorker.reduce((sum, w) => sum + w.meanMs * w.jobs, 0) / Math.max(1, jobs);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
