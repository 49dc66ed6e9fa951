// bench/api: autocannon against GET /v3/result/ready and POST /v3/calculate of the real
// service, and against a bare Fastify route in the same run; prints requests/s, p99 and the
// ratio to the bare route. Target: ready >= 0.8 of the bare route.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const KEY = 'kerf_bench_key_0123456789abcdef';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

function start(script: string, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function load(title: string, options: autocannon.Options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const non2xx = result.non2xx + result.errors;
  return { title, rps: result.requests.average, p99: result.latency.p99, non2xx };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-bench-'));
  const bare = await start(path.join(here, 'bare-server.js'));
  const kerf = await start(path.join(here, '../src/main.js'), {
    PORT: '0', KERF_DATA_DIR: dataDir, KERF_DEV_API_KEY: KEY, KERF_LOG_LEVEL: 'warn',
    KERF_RATE_PER_MINUTE: '1000000000', KERF_MONTHLY_CALLS: '1000000000',
  });
  try {
    const job = { stock: [{ l: 2440, w: 1220 }], parts: [{ l: 600, w: 400, q: 4 }] };
    const submitted = await fetch(`${kerf.url}/v3/calculate`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(job) });
    const { jobId } = (await submitted.json()) as { jobId: number };
    while ((await fetch(`${kerf.url}/v3/result/ready?id=${jobId}`, { headers: { authorization: KEY } })).status !== 200) await new Promise((r) => setTimeout(r, 50));

    const rows = [];
    rows.push(await load('bare Fastify route (anchor)', { url: `${bare.url}/bare` }));
    rows.push(await load('GET /v3/result/ready (done job)', { url: `${kerf.url}/v3/result/ready?id=${jobId}`, headers: { authorization: KEY } }));
    rows.push(await load('POST /v3/calculate (4 parts)', {
      url: `${kerf.url}/v3/calculate`, method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json' }, body: JSON.stringify(job),
    }));
    const anchor = rows[0].rps;
    console.log(`\nbench/api: ${CONNECTIONS} connections, ${DURATION} s each, ${os.availableParallelism()} cores, load generator on the same machine\n`);
    console.log('| endpoint | requests/s | p99 ms | non-2xx | bare route requests/s | ratio to bare | target |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    for (const row of rows) {
      const target = row.title.startsWith('GET /v3/result/ready') ? '>= 0.80' : '';
      console.log(`| ${row.title} | ${Math.round(row.rps)} | ${row.p99} | ${row.non2xx} | ${Math.round(anchor)} | ${(row.rps / anchor).toFixed(2)} | ${target} |`);
    }
  } finally {
    bare.child.kill('SIGKILL');
    kerf.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
