// Orchestration of the free packer: same input and output layout as the guillotine engine
// (guillotine/layout.ts); each sheet is a KIND_FREE root whose children are its parts.

import { decode } from "../guillotine/instance";
import { componentLowerBound } from "../guillotine/bounds";
import { encodeSheets, encodeError, summarise } from "../guillotine/output";
import { Budget, now } from "../common/clock";
import { FreeSearch } from "./pack";
import { setPreferFewCuts } from "../guillotine/solution";

/** Effort per component, in free-rectangle scans, as a multiple of its first construction. */
const EFFORT_FACTOR: f64 = 300.0;
const EFFORT_MIN: f64 = 500000.0;
/** Whole-run effort cap, so big jobs under long budgets still end in about a second. */
const EFFORT_CAP: f64 = 200000000.0;
const BUDGET_RESERVE: f64 = 0.1;

export function solveFree(input: Float64Array): Float64Array {
  const inst = decode(input);
  if (inst === null) return encodeError(1);
  setPreferFewCuts(false);
  const reserve = Math.min(inst.budgetMs * BUDGET_RESERVE, 200.0) + 1.0;
  const budget = new Budget(inst.budgetMs - reserve);
  const nC = inst.nComps;
  const lb = new Int32Array(nC > 0 ? nC : 1);
  let lbTotal: i32 = 0;
  for (let c = 0; c < nC; c++) {
    // Kerf-inflated area bound: also valid for free layouts (every part with its kerf strip).
    lb[c] = componentLowerBound(inst, c);
    lbTotal += lb[c];
  }
  const search = new FreeSearch(inst, budget, lb);
  const firstWork = new Float64Array(nC > 0 ? nC : 1);
  for (let c = 0; c < nC; c++) {
    const w0 = search.work();
    search.initial(c, budget.deadline);
    firstWork[c] = <f64>(search.work() - w0);
  }
  search.timeToBest = budget.elapsed();
  const greedy = summarise(search.sheets);
  let left: f64 = 0;
  for (let c = 0; c < nC; c++) left += <f64>inst.cInstances[c];
  const total = left;
  for (let c = 0; c < nC; c++) {
    const share = left > 0 ? <f64>inst.cInstances[c] / left : 1.0;
    left -= <f64>inst.cInstances[c];
    const t = now();
    const deadline = t + Math.max(0.0, budget.deadline - t) * share;
    const capShare = (EFFORT_CAP * <f64>inst.cInstances[c]) / total;
    const scaled = Math.max(EFFORT_MIN, Math.min(EFFORT_FACTOR * firstWork[c], capShare)) * inst.effort;
    const limit = inst.effort > 0 ? <i64>Math.min(scaled, 4e18) : i64.MAX_VALUE;
    search.improve(c, deadline, limit);
  }
  return encodeSheets(inst, search.sheets, search.iterations, search.timeToBest, search.stoppedByDeadline, lbTotal, budget.elapsed(), greedy);
}
