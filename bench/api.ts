// bench/api: autocannon against GET /v3/result/ready and POST /v3/calculate of the real
// service, and against a bare Fastify route in the same run; prints requests/s, p99 and the
// ratio to the bare route. Target: ready >= 0.85 of the bare route, in throughput and in CPU per request. This machine's throughput
// drifts by 2x from minute to minute, so bare and ready alternate in short rounds and the
// table gives medians; calculate runs last, as the jobs it queues keep the pool busy after.
// Beside throughput it prints the server's own CPU time per request (from /proc), which the
// host's drift barely moves: the ratio of those is the overhead kerf adds to a bare route.
// The main thread's share is printed apart: it is the API side (HTTP, auth, storage, the
// dispatcher); the rest is the engine threads and V8's and libuv's helpers.
import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_KEY, startServer } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** CPU seconds a process has used (user + system, all threads), or with `thread` one of its threads, from /proc. */
function cpuSeconds(pid: number, thread?: number): number {
  const fields = fs.readFileSync(thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

async function load(title: string, options: autocannon.Options, pid: number) {
  // The main thread's id is the process id.
  const cpuBefore = cpuSeconds(pid), mainBefore = cpuSeconds(pid, pid);
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const non2xx = result.non2xx + result.errors;
  const perRequestUs = (seconds: number) => (seconds / Math.max(1, result.requests.total)) * 1e6;
  const cpuPerRequestUs = perRequestUs(cpuSeconds(pid) - cpuBefore);
  const mainCpuPerRequestUs = perRequestUs(cpuSeconds(pid, pid) - mainBefore);
  return { title, rps: result.requests.average, p99: result.latency.p99, non2xx, cpuPerRequestUs, mainCpuPerRequestUs };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-bench-'));
  const bare = await startServer({}, path.join(here, 'bare-server.js'));
  const kerf = await startServer({
    KERF_DATA_DIR: dataDir, KERF_RATE_PER_MINUTE: '1000000000', KERF_MONTHLY_CALLS: '1000000000',
  });
  try {
    const job = { stock: [{ l: 2440, w: 1220 }], parts: [{ l: 600, w: 400, q: 4 }] };
    const submitted = await fetch(`${kerf.url}/v3/calculate`, { method: 'POST', headers: { authorization: BENCH_KEY, 'content-type': 'application/json' }, body: JSON.stringify(job) });
    const { jobId } = (await submitted.json()) as { jobId: number };
    while ((await fetch(`${kerf.url}/v3/result/ready?id=${jobId}`, { headers: { authorization: BENCH_KEY } })).status !== 200) await new Promise((r) => setTimeout(r, 50));

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ready = { url: `${kerf.url}/v3/result/ready?id=${jobId}`, headers: { authorization: BENCH_KEY } };
    const rounds: { bare: Awaited<ReturnType<typeof load>>; ready: Awaited<ReturnType<typeof load>> }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      rounds.push({ bare: await load('bare', { url: `${bare.url}/bare?id=${jobId}`, headers: { authorization: BENCH_KEY } }, bare.child.pid!), ready: await load('ready', ready, kerf.child.pid!) });
    }
    const bareRps = median(rounds.map((r) => r.bare.rps));
    const lastBare = rounds[rounds.length - 1].bare.rps;
    const calc = await load('calculate', {
      url: `${kerf.url}/v3/calculate`, method: 'POST', headers: { authorization: BENCH_KEY, 'content-type': 'application/json' }, body: JSON.stringify(job),
    }, kerf.child.pid!);
    console.log(`\nbench/api: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s, ${os.availableParallelism()} cores, load generator on the same machine\n`);
    console.log('| endpoint | requests/s (median) | p99 ms (median) | non-2xx | bare route requests/s | ratio to bare | server CPU µs/request | CPU ratio (bare/ours) | main thread CPU µs/request | target |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    const bareCpu = median(rounds.map((r) => r.bare.cpuPerRequestUs));
    const row = (title: string, rps: number, p99: number, non2xx: number, anchor: number, ratio: number, cpu: number, mainCpu: number, target = '') =>
      console.log(`| ${title} | ${Math.round(rps)} | ${p99} | ${non2xx} | ${Math.round(anchor)} | ${ratio.toFixed(2)} | ${cpu.toFixed(1)} | ${(bareCpu / cpu).toFixed(2)} | ${mainCpu.toFixed(1)} | ${target} |`);
    row('bare Fastify route (anchor)', bareRps, median(rounds.map((r) => r.bare.p99)), 0, bareRps, 1, bareCpu, median(rounds.map((r) => r.bare.mainCpuPerRequestUs)));
    row('GET /v3/result/ready (done job)', median(rounds.map((r) => r.ready.rps)), median(rounds.map((r) => r.ready.p99)),
      rounds.reduce((n, r) => n + r.ready.non2xx, 0), bareRps, median(rounds.map((r) => r.ready.rps / r.bare.rps)),
      median(rounds.map((r) => r.ready.cpuPerRequestUs)), median(rounds.map((r) => r.ready.mainCpuPerRequestUs)), '>= 0.85');
    row('POST /v3/calculate (4 parts)', calc.rps, calc.p99, calc.non2xx, lastBare, calc.rps / lastBare, calc.cpuPerRequestUs, calc.mainCpuPerRequestUs);
    console.log('\nPer round (bare, then ready):\n');
    console.log('| round | bare requests/s | ready requests/s | ratio | bare CPU µs/request | ready CPU µs/request | CPU ratio (bare/ours) |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|');
    rounds.forEach((r, i) => console.log(`| ${i + 1} | ${Math.round(r.bare.rps)} | ${Math.round(r.ready.rps)} | ${(r.ready.rps / r.bare.rps).toFixed(2)} | ${r.bare.cpuPerRequestUs.toFixed(1)} | ${r.ready.cpuPerRequestUs.toFixed(1)} | ${(r.bare.cpuPerRequestUs / r.ready.cpuPerRequestUs).toFixed(2)} |`));
  } finally {
    bare.child.kill('SIGKILL');
    kerf.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
