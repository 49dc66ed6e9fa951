// bench/linear-cover: the linear engine's reduced-cost cover (engine-as/linear/rc-cover.ts) on
// its own, on the Hard28 instances: k = optimum - 1 (a proof that k bars are impossible) or
// k = optimum (a plan), from the duals of the root LP solved to optimality, within a work cap.
// Prints the gap k - y.d, patterns enumerated, cover nodes, work and the outcome. Instances
// are read from /work/shared at run time (licence CC BY-NC-ND: internal evaluation only,
// never copied).
//
// Environment:
//   BENCH_COVER_WORK       work cap (pattern checks and probe pivots x 2,000) per instance, default 9.5e7
//   BENCH_COVER_TILTS      tilted LP re-solves whose duals every pattern must fit too, default 0
//   BENCH_COVER_FIRST      work of the cover search alone before the probe (rc-probe.ts), default 1.5e7
//   BENCH_COVER_GAP        largest gap tried, default 0.05
//   BENCH_COVER_PATTERNS   most patterns, default 1500
//   BENCH_COVER_BELOW      1 (default): k = optimum - 1; 0: k = optimum
//   BENCH_COVER_INSTANCES  comma list of Hard28 numbers (default all 28)
//   BENCH_LINEAR_DIR       default /work/shared/bench/instances/1d-bpplib
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { loadLinearModule } from '../src/engine/linear/solve.js';
import { BPPLIB_DIR, instanceProblem, knownOptimum } from './bpplib.js';
import { coverBars } from './cover-bars.js';

const DIR = BPPLIB_DIR;
const WORK = Number(process.env.BENCH_COVER_WORK ?? 9.5e7);
const FIRST = Number(process.env.BENCH_COVER_FIRST ?? 1.5e7);
const TILTS = Number(process.env.BENCH_COVER_TILTS ?? 0);
const GAP = Number(process.env.BENCH_COVER_GAP ?? 0.05);
const PATTERNS = Number(process.env.BENCH_COVER_PATTERNS ?? 1500);
const BELOW = (process.env.BENCH_COVER_BELOW ?? '1') !== '0';

function main(): void {
  const module = loadLinearModule();
  const all = readdirSync(join(DIR, 'Hard28_CSP')).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4)).sort();
  const wanted = process.env.BENCH_COVER_INSTANCES?.split(',').map((s) => `Hard28_BPP${s.trim()}`);
  const files = wanted ?? all;
  console.log(`reduced-cost cover, k = optimum${BELOW ? ' - 1' : ''}, work ${WORK} (${FIRST} before the probe), ${TILTS} tilted duals, gap <= ${GAP}, patterns <= ${PATTERNS}\n`);
  console.log('| instance | k | LP pivots | gap | patterns | kept | nodes | work | status | CPU ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  let cpuAll = 0;
  for (const file of files) {
    const problem = instanceProblem(join(DIR, 'Hard28_CSP', `${file}.txt`));
    const k = knownOptimum(file) - (BELOW ? 1 : 0);
    const before = cpuUsage();
    const run = coverBars(problem, k, WORK, GAP, PATTERNS, module, FIRST, TILTS);
    const cpu = cpuUsage(before);
    const ms = (cpu.user + cpu.system) / 1000;
    cpuAll += ms;
    console.log(`| ${file} | ${k} | ${run.pivots} | ${run.gap.toExponential(2)} | ${run.patterns} | ${run.kept} | ${run.nodes} | ${run.work} | ${run.status} | ${ms.toFixed(0)} |`);
  }
  console.log(`\nCPU ${(cpuAll / 1000).toFixed(1)} s`);
}

main();
