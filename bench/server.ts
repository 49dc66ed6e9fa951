// What the benches that run kerf as a server share: starting this build's server (or another
// build's) as a child process on a free port with the bench's API key, stopping it, and
// submitting a job.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The development account's key every bench server is started with (KERF_DEV_API_KEY). */
export const BENCH_KEY = 'kerf_bench_key_0123456789abcdef';
/** This build's server. */
export const SERVER_SCRIPT = path.join(here, '../src/main.js');

export interface BenchServer {
  url: string;
  child: ChildProcess;
}

/** Starts a server with `env` over this process's (PORT 0 and the bench key unless given) and resolves once it listens. */
export function startServer(env: Record<string, string>, script = SERVER_SCRIPT): Promise<BenchServer> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: '0', KERF_DEV_API_KEY: BENCH_KEY, KERF_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`kerf exited with ${code}`)));
  });
}

/** SIGTERM, and wait for the exit (the server finishes what it runs first). */
export async function stopServer(server: BenchServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** POST /v3/calculate with the bench key; the job id. */
export async function submitJob(url: string, job: unknown): Promise<number> {
  const reply = await fetch(`${url}/v3/calculate`, { method: 'POST', headers: { authorization: BENCH_KEY, 'content-type': 'application/json' }, body: JSON.stringify(job) });
  if (reply.status !== 200) throw new Error(`calculate answered ${reply.status}: ${await reply.text()}`);
  return ((await reply.json()) as { jobId: number }).jobId;
}
