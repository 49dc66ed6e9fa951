// bench/delivery: how soon a webhook reaches a healthy receiver while other receivers never
// answer. kerf (embedded, two pool threads) gets 0, 1 and 16 receivers on loopback that hold
// every request open until kerf's 10 s answer budget runs out, each sent 8 jobs' deliveries
// first (so each fills its endpoint's connections and has a backlog); then, one job at a time,
// a small job whose webhook is a healthy receiver. The figure is the time from that job's
// submit to its delivery arriving, median (lowest - highest) over the rounds; the anchor is the
// same with no hanging receiver, so the ratio says what the hanging ones cost the healthy one.
//   BENCH_DELIVERY_SLOW    hanging receivers per scenario (default 0,1,16)
//   BENCH_DELIVERY_ROUNDS  healthy jobs per scenario (default 7)
//   BENCH_DELIVERY_SERVER  the server to run (default this build's dist/src/main.js; point it at
//                          another build to compare)
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_SCRIPT, startServer, submitJob, type BenchServer } from './server.js';

const SERVER = process.env.BENCH_DELIVERY_SERVER ?? SERVER_SCRIPT;
const SCENARIOS = (process.env.BENCH_DELIVERY_SLOW ?? '0,1,16').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 7);
const SLOW_JOBS_EACH = 8;
/** How long to wait for one healthy delivery before calling it missed. */
const GIVE_UP_MS = 60_000;

const job = (webhook: string) => ({ stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, q: 2 }], webhook });

interface Receiver {
  url: string;
  /** Requests received (hanging: still open or not), and when each job's delivery arrived. */
  received: number;
  arrived: Map<number, number>;
  close: () => Promise<void>;
}

async function receiver(hang: boolean): Promise<Receiver> {
  const state: Receiver = { url: '', received: 0, arrived: new Map(), close: async () => {} };
  const server = http.createServer((req, res) => {
    state.received++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.arrived.set((JSON.parse(Buffer.concat(chunks).toString()) as { jobId: number }).jobId, performance.now());
      if (!hang) res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  state.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}

function startKerf(dataDir: string): Promise<BenchServer> {
  return startServer({ KERF_DATA_DIR: dataDir, KERF_POOL_THREADS: '2', KERF_WEBHOOK_ALLOW_LOOPBACK: '1', KERF_RATE_PER_MINUTE: '100000' }, SERVER);
}

const submit = (api: string, webhook: string) => submitJob(api, job(webhook));

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/** Milliseconds from submit to arrival of each healthy job's delivery, with `slow` receivers hanging. */
async function scenario(slow: number): Promise<number[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-bench-delivery-'));
  const kerf = await startKerf(dataDir);
  const hanging = await Promise.all(Array.from({ length: slow }, () => receiver(true)));
  const healthy = await receiver(false);
  try {
    // As many jobs as the hanging scenarios send warm the pool threads (JIT, engine) and the loop.
    const warm: number[] = [];
    for (let i = 0; i < 2 * SLOW_JOBS_EACH; i++) warm.push(await submit(kerf.url, healthy.url));
    await until(() => warm.every((id) => healthy.arrived.has(id)), GIVE_UP_MS);
    for (const r of hanging) for (let i = 0; i < SLOW_JOBS_EACH; i++) await submit(kerf.url, r.url);
    await until(() => hanging.every((r) => r.received > 0), 30_000);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const submitted = performance.now();
      const id = await submit(kerf.url, healthy.url);
      await until(() => healthy.arrived.has(id), GIVE_UP_MS);
      times.push((healthy.arrived.get(id) ?? Number.POSITIVE_INFINITY) - submitted);
    }
    return times;
  } finally {
    kerf.child.kill('SIGKILL');
    await Promise.all([...hanging, healthy].map((r) => r.close()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)}` : `over ${GIVE_UP_MS}`);

async function main() {
  console.log(`\nbench/delivery: submit to delivery at a healthy receiver, ms, median (lowest - highest) of ${ROUNDS} jobs; server ${path.relative(process.cwd(), SERVER)}\n`);
  console.log('| hanging receivers | healthy delivery after submit, ms | vs none hanging |');
  console.log('|---:|---:|---:|');
  let anchor: number | undefined;
  for (const slow of SCENARIOS) {
    const times = await scenario(slow);
    const m = median(times);
    anchor ??= m;
    const ratio = Number.isFinite(m) ? `${(m / anchor).toFixed(1)}x` : '-';
    console.log(`| ${slow} | ${ms(m)} (${ms(Math.min(...times))} - ${ms(Math.max(...times))}) | ${ratio} |`);
  }
  console.log();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
