// Orchestration: decode, one complete greedy solution per component (so a result exists
// whatever the budget), then improve the components in turn, each with a share of the
// remaining time and of the deterministic effort, and encode the result.

import { decode } from "./instance";
import { Search } from "./search";
import { componentLowerBound } from "./bounds";
import { encodeResult, encodeError, summarise } from "./output";
import { Budget, now } from "../common/clock";
import { setPreferFewCuts } from "./solution";

/** Effort per component, in fit-index visits, as a multiple of its first construction. */
const EFFORT_FACTOR: f64 = 400.0;
const EFFORT_MIN: f64 = 200000.0;
/** Whole-run effort cap (about a second here), so big jobs under long budgets still end. */
const EFFORT_CAP: f64 = 50000000.0;
/** Part of the budget kept back for encoding and the host's decoding. */
const BUDGET_RESERVE: f64 = 0.1;

export function solveGuillotine(input: Float64Array): Float64Array {
  const inst = decode(input);
  if (inst === null) return encodeError(1);
  setPreferFewCuts(inst.timeStrategy);
  const reserve = Math.min(inst.budgetMs * BUDGET_RESERVE, 200.0) + 1.0;
  const budget = new Budget(inst.budgetMs - reserve);

  const nC = inst.nComps;
  const lb = new Int32Array(nC > 0 ? nC : 1);
  let lbTotal: i32 = 0;
  for (let c = 0; c < nC; c++) {
    lb[c] = componentLowerBound(inst, c);
    lbTotal += lb[c];
  }

  const search = new Search(inst, budget, lb);
  const firstWork = new Float64Array(nC > 0 ? nC : 1);
  for (let c = 0; c < nC; c++) {
    const w0 = search.work();
    search.initial(c, budget.deadline);
    firstWork[c] = <f64>(search.work() - w0);
  }
  search.timeToBest = budget.elapsed();
  search.greedy = summarise(search.sheets);

  let left: f64 = 0;
  for (let c = 0; c < nC; c++) left += <f64>inst.cInstances[c];
  const total = left;
  for (let c = 0; c < nC; c++) {
    const share = left > 0 ? <f64>inst.cInstances[c] / left : 1.0;
    left -= <f64>inst.cInstances[c];
    const t = now();
    const deadline = t + Math.max(0.0, budget.deadline - t) * share;
    const capShare = (EFFORT_CAP * <f64>inst.cInstances[c]) / total;
    // effort 0: no deterministic limit (benchmarks with a wall-clock limit); the i64 cast saturates far below.
    const scaled = Math.max(EFFORT_MIN, Math.min(EFFORT_FACTOR * firstWork[c], capShare)) * inst.effort;
    const limit = inst.effort > 0 ? <i64>Math.min(scaled, 4e18) : i64.MAX_VALUE;
    search.improve(c, deadline, limit);
  }
  return encodeResult(inst, search, lbTotal, budget.elapsed());
}
