// bench/linear-proof: the linear engine's proof of one bar fewer (engine-as/linear/prove.ts)
// on its own, on the Hard28 and Waescher instances whose optimum lies above the rounded-up
// LP bound: k = optimum - 1 from a best-fit plan, within a budget of tree nodes. Prints tree
// nodes, simplex pivots, CPU ms and whether it proved. Instances are read from /work/shared
// at run time (licence CC BY-NC-ND: internal evaluation only, never copied).
//
// Environment:
//   BENCH_PROOF_NODES      tree nodes per instance, default 2000
//   BENCH_PROOF_INSTANCES  comma list of set folder/file name without .txt (default the seven below)
//   BENCH_LINEAR_DIR       default /work/shared/bench/instances/1d-bpplib
//   BENCH_PROOF_WASM       another build of linear.wasm to run (before/after comparisons)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { loadLinearModule } from '../src/engine/linear/solve.js';
import { BPPLIB_DIR, instanceProblem, knownOptimum } from './bpplib.js';
import { proveBars } from './prove-bars.js';

const DIR = BPPLIB_DIR;
const NODES = Number(process.env.BENCH_PROOF_NODES ?? 2000);
const DEFAULT = ['Hard28_CSP/Hard28_BPP14', 'Hard28_CSP/Hard28_BPP119', 'Hard28_CSP/Hard28_BPP175', 'Hard28_CSP/Hard28_BPP359', 'Hard28_CSP/Hard28_BPP716', 'Waescher_CSP/Waescher_TEST0022', 'Waescher_CSP/Waescher_TEST0065'];
const INSTANCES = process.env.BENCH_PROOF_INSTANCES?.split(',').map((s) => s.trim()) ?? DEFAULT;

function main(): void {
  const wasm = process.env.BENCH_PROOF_WASM;
  const module = wasm ? new WebAssembly.Module(readFileSync(wasm)) : loadLinearModule();
  console.log(`proof of one bar fewer, ${NODES} tree nodes per instance\n`);
  console.log('| instance | k | status | nodes | pivots | CPU ms |');
  console.log('|---|---|---|---|---|---|');
  for (const path of INSTANCES) {
    const [dir, file] = path.split('/');
    const problem = instanceProblem(join(DIR, dir!, `${file}.txt`));
    const k = knownOptimum(file!) - 1;
    const before = cpuUsage();
    const run = proveBars(problem, k, NODES, module);
    const cpu = cpuUsage(before);
    console.log(`| ${file} | ${k} | ${run.status} | ${run.nodes} | ${run.pivots} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} |`);
  }
}

main();
