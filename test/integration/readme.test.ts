// Every shell example of the README and the docs pages that talks to the service runs
// verbatim (README first, then docs/*.md by name; each page in a fresh directory), against
// the server `make run` starts, from a directory laid out like the repository's (the data
// directory .data, the model file the analysis example uploads). curl is pointed at that
// server by a .curlrc (connect-to), so the examples keep their http://127.0.0.1:8080. Between
// examples the test waits, as a reader would, until the jobs sent so far are finished. The
// request bodies are the ones the OpenAPI document shows as examples.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kerfClient } from '../../src/client/client.js';
import { LINEAR_EXAMPLE, NESTING_EXAMPLE, SHEET_EXAMPLE } from '../../src/schema/examples.js';
import { ROOT, tempDataDir } from '../support/server.js';

const run = promisify(execFile);
const pages = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
/** The sh blocks that call the service, page by page. */
const examples = pages.flatMap((page) => [...fs.readFileSync(path.join(ROOT, page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
  .map((m) => ({ page, block: m[1] })).filter(({ block }) => /\bcurl\b/.test(block)));

let server: ChildProcess;
let url: string;
let cwd: string;
let dataDir: string;
let output = '';

beforeAll(async () => {
  dataDir = tempDataDir();
  // Exactly `make run`: it builds what is stale, then starts the service.
  server = spawn('make', ['--no-print-directory', '-s', 'run'], {
    cwd: ROOT, env: { ...process.env, PORT: '0', KERF_DATA_DIR: dataDir, KERF_LOG_LEVEL: 'warn', KERF_POOL_THREADS: '2' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`make run did not start:\n${output}`)), 120_000);
    server.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-readme-'));
}, 180_000);

/** A directory laid out like the repository's, for one page. */
function directoryFor(page: string): string {
  const dir = path.join(cwd, page.replace(/\W/g, '-'));
  fs.mkdirSync(dir);
  fs.symlinkSync(dataDir, path.join(dir, '.data'));
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/models/woodworking_cabinet_modular_001_ascii.stl'), path.join(dir, 'cabinet.stl'));
  const port = new URL(url).port;
  fs.writeFileSync(path.join(dir, '.curlrc'), `connect-to = 127.0.0.1:8080:127.0.0.1:${port}\nconnect-to = localhost:8080:127.0.0.1:${port}\n`);
  return dir;
}

afterAll(async () => {
  // make runs node as its child: end the group this test started.
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
});

/** Runs a page's example in bash; KEY stays set from the README's, as in the reader's shell. */
async function example(page: string): Promise<string> {
  const key = fs.readFileSync(path.join(dataDir, 'dev-api-key'), 'utf8').trim();
  const { block } = examples.find((e) => e.page === page)!;
  const dir = directoryFor(page);
  const { stdout } = await run('bash', ['-e', '-c', block], { cwd: dir, env: { ...process.env, CURL_HOME: dir, KEY: page === 'README.md' ? '' : key } });
  return stdout;
}

/** Waits until jobs 1..n are finished, as a reader would before the next example. */
async function finished(n: number) {
  const kerf = kerfClient({ baseUrl: url, apiKey: fs.readFileSync(path.join(dataDir, 'dev-api-key'), 'utf8').trim(), pollMs: 100 });
  for (let id = 1; id <= n; id++) await kerf.waitForResult(id);
}

describe('the README and docs examples, run verbatim against make run', () => {
  it('are the calculation, model analysis, export, linear and nesting examples, with the documented request bodies', () => {
    expect(examples.map((e) => e.page)).toEqual(['README.md', 'docs/analysis.md', 'docs/exports.md', 'docs/linear.md', 'docs/nesting.md']);
    const bodies = examples.flatMap(({ block }) => [...block.matchAll(/-d '([\s\S]*?)'/g)].map((m) => JSON.parse(m[1])));
    expect(bodies).toEqual([SHEET_EXAMPLE, LINEAR_EXAMPLE, NESTING_EXAMPLE]);
  });

  it('README: submit, readiness, result and the PDF', async () => {
    // curl prints the bodies as they are (no newline after them), the status with one.
    const [, accepted, status, body] = /^(\{.*?\})(\d{3})\n(.*)$/s.exec(await example('README.md')) ?? [];
    expect(JSON.parse(accepted)).toEqual({ jobId: 1 });
    expect(['200', '404']).toContain(status);
    const result = JSON.parse(body);
    expect(result.jobId === 1 || result.error === 'Job 1 is not finished (or does not exist)').toBe(true);
  });

  it('docs/analysis.md: cabinet.stl analysed', async () => {
    const analysis = JSON.parse(await example('docs/analysis.md'));
    expect(analysis.version).toBe('3');
    expect(analysis.model.format).toBe('stl');
    expect(analysis.parts.length).toBeGreaterThan(0);
  });

  it('docs/exports.md: the PDF as job-1.pdf and the cut list as CSV', async () => {
    await finished(1);
    const csv = await example('docs/exports.md');
    expect(fs.readFileSync(path.join(cwd, 'docs-exports-md', 'job-1.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(csv.split('\r\n')[0]).toMatch(/^\ufeffstock_id,order,phase,dimension,position/); // a byte-order mark first, for Excel
  });

  it('docs/linear.md and docs/nesting.md: jobs 2 and 3, which finish', async () => {
    expect(JSON.parse(await example('docs/linear.md'))).toEqual({ jobId: 2 });
    expect(JSON.parse(await example('docs/nesting.md'))).toEqual({ jobId: 3 });
    await finished(3);
  });
});
