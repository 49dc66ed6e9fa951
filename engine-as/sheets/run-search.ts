// Solve driver shared by the guillotine engine (solve.ts) and the free packer (free/solve.ts):
// one complete greedy solution per component (so a result exists whatever the budget), then
// the components improved in turn, each with a share of the remaining time and of the
// deterministic effort, and the result encoded with why the search stopped (the largest
// STOP_* over the components). Only the search and its effort unit differ.

import { Instance } from "./instance";
import { componentLowerBound } from "./bounds";
import { encodeSheets, summarise } from "./output";
import { SheetSearch } from "./sheet-search";
import { STOP_BOUND } from "./format";
import { Budget, now } from "../common/clock";

/** Part of the budget kept back for encoding and the host's decoding. */
const BUDGET_RESERVE: f64 = 0.1;

/** Effort per component as a multiple of its first construction, clamped to [min, a share of cap]. */
export class EffortScale {
  constructor(
    public factor: f64,
    public min: f64,
    /** Whole-run cap on the base effort (about a second here); sheet reduction's weight and the stall rule (up to STALL_CAP limits) multiply it. */
    public cap: f64,
  ) {}
}

export type SearchFactory = (inst: Instance, budget: Budget, lowerBound: Int32Array) => SheetSearch;

export function runSheetSearch(inst: Instance, makeSearch: SearchFactory, effort: EffortScale): Float64Array {
  const reserve = Math.min(inst.budgetMs * BUDGET_RESERVE, 200.0) + 1.0;
  const budget = new Budget(inst.budgetMs - reserve);

  const nC = inst.nComps;
  const lb = new Int32Array(nC > 0 ? nC : 1);
  let lbTotal: i32 = 0;
  for (let c = 0; c < nC; c++) {
    // Kerf-inflated area bound: valid for free layouts too (every part with its kerf strip).
    lb[c] = componentLowerBound(inst, c);
    lbTotal += lb[c];
  }

  const search = makeSearch(inst, budget, lb);
  const firstWork = new Float64Array(nC > 0 ? nC : 1);
  for (let c = 0; c < nC; c++) {
    const w0 = search.work();
    search.initial(c, budget.deadline);
    firstWork[c] = <f64>(search.work() - w0);
  }
  search.timeToBest = budget.elapsed();
  search.greedy = summarise(search.sheets);

  // The soft deadline (the operator's ceiling or the request's searchTime) never passes the budget's.
  const soft = inst.softMs > 0 ? Math.min(budget.deadline, budget.start + inst.softMs) : budget.deadline;
  // Each component's search says why it stopped; one proven optimal says so even when its
  // greedy start ran out of time (nothing better exists), and one not proven then meets the
  // deadline at its first step.
  let stop = STOP_BOUND;
  let left: f64 = 0;
  for (let c = 0; c < nC; c++) left += <f64>inst.cInstances[c];
  const total = left;
  for (let c = 0; c < nC; c++) {
    const share = left > 0 ? <f64>inst.cInstances[c] / left : 1.0;
    left -= <f64>inst.cInstances[c];
    const t = now();
    const hard = t + Math.max(0.0, budget.deadline - t) * share;
    const softC = Math.min(hard, t + Math.max(0.0, soft - t) * share);
    const capShare = (effort.cap * <f64>inst.cInstances[c]) / total;
    // effort 0: no deterministic limit (benchmarks with a wall-clock limit); the i64 cast saturates far below.
    const scaled = Math.max(effort.min, Math.min(effort.factor * firstWork[c], capShare)) * inst.effort * search.effortWeight(c);
    const limit = inst.effort > 0 ? <i64>Math.min(scaled, 4e18) : i64.MAX_VALUE;
    const why = search.improve(c, softC, hard, limit);
    if (why > stop) stop = why;
  }
  return encodeSheets(
    inst, search.sheets, search.iterations, search.timeToBest, search.stoppedByDeadline, lbTotal, budget.elapsed(), search.greedy,
    stop, <f64>search.work(),
  );
}
