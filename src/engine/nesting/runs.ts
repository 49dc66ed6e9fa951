// Roll nesting runs its search more than once, one run after the other on the job's pool
// thread, each with a seed of its own, and keeps the best layout. The strip search ends a
// point or two of density apart from one seed to the next, so the better of two runs pays.
// The runs stay on the job's thread so the pool owns every compute thread (KERF_POOL_THREADS
// is the whole of it): run k gets an equal share of the clock left. Each run is deterministic
// when it ends by effort or by stalling, so the pick is too.
import type { CalcRequest } from '../../schema/request.js';
import type { ResultRecord } from '../../schema/result.js';
import { buildNestingRecord } from './record.js';
import { loadNestingModule, solveNesting, type NestingProblem, type NestingSolution, type NestingStop } from './solve.js';
import { toNestingProblem } from './problem.js';
import { clockStop, searchPlan, type SearchPlan } from '../common/search-policy.js';
import { byClock, laterStop, type StopReason } from '../common/stop-reason.js';

/** Searches per roll job (sheet jobs run one: their search ends in well under a second). */
export const ROLL_RUNS = 2;

/** The seed of run k: run 0 keeps the request's seed. */
export function runSeed(seed: number, k: number): number {
  return k === 0 ? seed : seed + k * 1_000_003;
}

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

/**
 * The best of the runs (earlier runs win ties). Iterations and time add up over the runs,
 * memory is the most any took; the job ended by the clock if any run did, and stalled only
 * if every run did.
 */
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
  const stop: NestingStop = runs.some((s) => s.stats.stop === 'clock') ? 'clock' : runs.every((s) => s.stats.stop === 'stalled') ? 'stalled' : 'effort';
  const stats = {
    ...best.stats,
    iterations: runs.reduce((sum, s) => sum + s.stats.iterations, 0),
    elapsedMs: runs.reduce((sum, s) => sum + s.stats.elapsedMs, 0),
    stop,
    runs: runs.length,
  };
  return { ...best, stats, memoryBytes: Math.max(...runs.map((s) => s.memoryBytes)) };
}

/** Solves a nesting problem: one run for sheets, `runs` one after the other for a roll, within problem.budgetMs. */
export function solveNestingRuns(problem: NestingProblem, runs = problem.roll ? ROLL_RUNS : 1): NestingSolution {
  const module = loadNestingModule();
  const deadline = performance.now() + problem.budgetMs;
  const solutions: NestingSolution[] = [];
  for (let k = 0; k < runs; k++) {
    const budgetMs = Math.max(1, (deadline - performance.now()) / (runs - k));
    solutions.push(solveNesting({ ...problem, seed: runSeed(problem.seed, k), budgetMs }, module));
  }
  return bestRun(problem, solutions);
}

/**
 * Why a search stopped, as the API says it. Under searchTime the runs are clock-only (effort 0):
 * one that ends before the clock ran out of anything to try, which repeats like a stall.
 */
export function nestingStopReason(stop: NestingStop, plan: SearchPlan): StopReason {
  if (stop === 'clock') return clockStop(plan);
  return plan.rule === 'searchTime' ? 'stalled' : stop;
}

/** Sheets: everything the stock can take placed on as few sheets as the area bound allows; nothing better exists. Rolls have no such bound. */
function meetsBound(problem: NestingProblem, s: NestingSolution, lowerBound: number): boolean {
  return !problem.roll && s.items.every((i) => i.sheet >= 0) && s.sheets.length <= lowerBound && problem.stock.length === 1;
}

/**
 * The 'sheet/nesting' and 'roll/nesting' solver of the calculation dispatcher: request ->
 * problem -> runs -> record. Every job first runs the default policy (the stall rule under the
 * operator's ceiling and the job budget). With searchTime, when that ends before the time
 * asked, clock-only runs go on for the rest of it and the better layout is kept (the default's
 * on ties), so a searchTime layout is never worse than the default's at the same seed.
 */
export async function nestParts(request: CalcRequest, options: { jobId: number; budgetMs: number; minOffcut: number; defaultSearchMs?: number }): Promise<ResultRecord> {
  const startedAt = performance.now();
  const plan = searchPlan(request, options.budgetMs, options.defaultSearchMs);
  const defaultPlan: SearchPlan = { ...plan, rule: 'stall', searchMs: plan.ceilingMs };
  const mapped = toNestingProblem(request, defaultPlan.searchMs);
  let solution = solveNestingRuns(mapped.problem);
  let stopReason = nestingStopReason(solution.stats.stop, defaultPlan);
  let record = buildNestingRecord(request, mapped, solution, options);
  const lowerBound = record.metadata.lowerBound;
  // Sheets, or on a roll its length (record.ts).
  const searchBound = record.metadata.engine.lowerBound ?? lowerBound;
  if (plan.rule === 'searchTime' && stopReason !== 'budget' && !meetsBound(mapped.problem, solution, lowerBound)) {
    const leftMs = plan.searchMs - (performance.now() - startedAt);
    // With no time left the default's search already spent what was asked: its layout and reason stand.
    if (leftMs >= 1) {
      const more = solveNestingRuns({ ...mapped.problem, budgetMs: leftMs, effort: 0, stopRule: 'effort' });
      const best = bestRun(mapped.problem, [solution, more]);
      // Runs, effort and time count both searches; a clock that cut either names the stop.
      const timeToBestMs = best.items === more.items ? solution.stats.elapsedMs + more.stats.timeToBestMs : solution.stats.timeToBestMs;
      solution = { ...best, stats: { ...best.stats, timeToBestMs, runs: (solution.stats.runs ?? 1) + (more.stats.runs ?? 1) } };
      stopReason = laterStop(stopReason, nestingStopReason(more.stats.stop, plan));
      record = buildNestingRecord(request, mapped, solution, options);
    }
  }
  // Sheets at their area bound: nothing better exists, whatever ended the search.
  if (meetsBound(mapped.problem, solution, lowerBound)) stopReason = 'lower-bound';
  record.metadata.engine = { ...record.metadata.engine, stoppedByDeadline: byClock(stopReason), stopReason, effort: solution.stats.iterations, lowerBound: searchBound, searchLimitMs: plan.searchMs };
  return record;
}
