// Starts the real kerf server (the built dist/src/main.js) as a child process on a free port
// with its own data directory, exactly as `make run` does, and talks to it over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEV_KEY = 'kerf_test_development_key_0123456789';

export interface KerfServer {
  url: string;
  dataDir: string;
  env: Record<string, string>;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-test-'));
}

export async function startServer(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<KerfServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const env = {
    PORT: '0',
    KERF_DATA_DIR: dataDir,
    KERF_DEV_API_KEY: DEV_KEY,
    KERF_LOG_LEVEL: 'warn',
    KERF_POOL_THREADS: '2',
    // Jobs in tests end at their effort limit (deterministic layouts) whatever the machine's
    // load: the budget is only a backstop, far beyond what any test job needs.
    KERF_JOB_BUDGET_MS: '300000',
    // The same for the default search policy's clock ceiling: searches end when they stall.
    KERF_DEFAULT_SEARCH_MS: '300000',
    // The same for model analysis: a STEP import took over 28 s at load 19.
    KERF_ANALYSIS_BUDGET_MS: '300000',
    ...options.env,
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    // Only a server that never comes up fails here: a loaded machine starts one slowly.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    env,
    process: child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Runs the CLI against a data directory and returns its output. */
export async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/cli/kerf.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, KERF_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? -1)));
  return { code, stdout, stderr };
}
