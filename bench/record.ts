// `make bench-<name>` runs bench/<name>.ts through this recorder: the bench's output goes to the
// terminal as it comes, and to bench/results/<name>.json with the build and the machine it came
// from, so a committed figure always says where it was measured (`make bench-docs` turns the
// recordings into docs/benchmarks.md's tables).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { markdownTables, ROOT, type BenchRecording } from './recording.js';

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

async function main(): Promise<void> {
  const name = process.argv[2];
  const script = path.join(ROOT, 'dist/bench', `${name}.js`);
  if (!name || !fs.existsSync(script)) {
    console.error(`usage: node dist/bench/record.js <bench>  (no dist/bench/${name}.js)`);
    process.exit(2);
  }
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  let output = '';
  const child = spawn(process.execPath, [script, ...process.argv.slice(3)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString('utf8');
  });
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) process.exit(code);

  const cpus = os.cpus();
  const recording: BenchRecording = {
    bench: name,
    command: `make bench-${name}`,
    settings: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_') || k.startsWith('KERF_'))),
    startedAt: startedAt.toISOString(),
    seconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
    build: { commit: git('rev-parse', '--short=12', 'HEAD'), uncommittedChanges: git('status', '--porcelain', '--untracked-files=no') !== '' },
    machine: {
      cpu: cpus[0]?.model ?? 'unknown',
      cores: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      // Other work on the machine moves timings: the one-minute load before and after says how much.
      loadAverage: { before: round2(loadBefore), after: round2(os.loadavg()[0]) },
    },
    tables: markdownTables(output),
    output,
  };
  const dir = path.join(ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
  console.error(`recorded in bench/results/${name}.json`);
}

const round2 = (x: number) => Math.round(x * 100) / 100;

await main();
