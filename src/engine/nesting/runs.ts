// Roll nesting runs its search more than once, side by side on worker threads, each run with
// a seed of its own, and keeps the best layout. The strip search ends a point or two of
// density apart from one seed to the next, so the better of two runs is worth a second core.
// Each run is deterministic at its effort limit, so the pick is too; a run that fails only
// leaves the others to choose from.
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import type { CalcRequest } from '../../schema/request.js';
import type { ResultRecord } from '../../schema/result.js';
import { buildNestingRecord } from './record.js';
import { loadNestingModule, solveNesting, type NestingProblem, type NestingSolution } from './solve.js';
import { toNestingProblem } from './problem.js';
import { clockStop, searchPlan } from '../common/search-policy.js';

/** Searches per roll job (sheet jobs run one: their effort-limited search ends in well under a second). */
export const ROLL_RUNS = 2;
/** How long past the deadline a run may take to answer before it is stopped. */
const LATE_MS = 2000;

/** The seed of run k: run 0 keeps the request's seed. */
export function runSeed(seed: number, k: number): number {
  return k === 0 ? seed : seed + k * 1_000_003;
}

/** Milliseconds since the epoch, comparable across threads. */
const clock = () => performance.timeOrigin + performance.now();

/**
 * Material a solution uses: rolls by the length they run to, sheets whole. Unplaced parts
 * come first: a layout that places more always wins.
 */
function cost(problem: NestingProblem, s: NestingSolution): [number, number] {
  const unplaced = s.items.filter((i) => i.sheet < 0).length;
  let material = 0;
  for (const sheet of s.sheets) {
    const st = problem.stock[sheet.stock]!;
    material += problem.roll ? sheet.usedLength * (st.y1 - st.y0) : st.area;
  }
  return [unplaced, material];
}

/** The best of the runs that answered (earlier runs win ties); iterations add up over all runs, memory is the most any took. */
function bestRun(problem: NestingProblem, runs: NestingSolution[]): NestingSolution {
  let best = runs[0]!;
  let bestCost = cost(problem, best);
  for (const s of runs.slice(1)) {
    const c = cost(problem, s);
    if (c[0] < bestCost[0] || (c[0] === bestCost[0] && c[1] < bestCost[1] - 1e-9)) {
      best = s;
      bestCost = c;
    }
  }
  const iterations = runs.reduce((sum, s) => sum + s.stats.iterations, 0);
  const memoryBytes = Math.max(...runs.map((s) => s.memoryBytes));
  return { ...best, stats: { ...best.stats, iterations, runs: runs.length }, memoryBytes };
}

/** One run on a worker thread, with the same deadline as the caller's own; its answer is null when it fails. */
function runInWorker(problem: NestingProblem, deadline: number): { answer: Promise<NestingSolution | null>; stop: () => void } {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { problem, deadline } });
  const stop = () => void worker.terminate();
  const answer = new Promise<NestingSolution | null>((resolve) => {
    const timer = setTimeout(stop, Math.max(0, deadline - clock()) + LATE_MS);
    const done = (s: NestingSolution | null) => {
      clearTimeout(timer);
      resolve(s);
    };
    worker.once('message', (s: NestingSolution) => done(s));
    worker.once('error', () => done(null));
    worker.once('exit', () => done(null));
  });
  return { answer, stop };
}

/** Solves a nesting problem: one run for sheets, ROLL_RUNS side by side for a roll. */
export async function solveNestingRuns(problem: NestingProblem): Promise<NestingSolution> {
  const runs = problem.roll ? ROLL_RUNS : 1;
  const deadline = clock() + problem.budgetMs;
  const others: ReturnType<typeof runInWorker>[] = [];
  for (let k = 1; k < runs; k++) others.push(runInWorker({ ...problem, seed: runSeed(problem.seed, k) }, deadline));
  let own: NestingSolution;
  try {
    own = solveNesting(problem, loadNestingModule());
  } catch (error) {
    // The job fails: its other runs would only use cores until their deadline.
    for (const o of others) o.stop();
    throw error;
  }
  const answered = (await Promise.all(others.map((o) => o.answer))).filter((s): s is NestingSolution => s !== null);
  return bestRun(problem, [own, ...answered]);
}

/** The 'sheet/nesting' and 'roll/nesting' solver of the calculation dispatcher: request -> problem -> runs -> record. */
export async function nestParts(request: CalcRequest, options: { jobId: number; budgetMs: number; minOffcut: number; defaultSearchMs?: number }): Promise<ResultRecord> {
  // Without searchTime the search stops at its fixed effort (or the ceiling); with it, by the clock alone.
  const plan = searchPlan(request, options.budgetMs, options.defaultSearchMs);
  const mapped = toNestingProblem(request, plan.searchMs);
  const solution = await solveNestingRuns(mapped.problem);
  const record = buildNestingRecord(request, mapped, solution, options);
  // With searchTime the search has no effort limit: ending before the clock, it ran out of anything to try.
  const stopReason = solution.stats.stoppedByDeadline ? clockStop(plan) : plan.rule === 'searchTime' ? 'lower-bound' : 'effort';
  record.metadata.engine = { ...record.metadata.engine, stopReason, effort: solution.stats.iterations, searchLimitMs: plan.searchMs };
  return record;
}
