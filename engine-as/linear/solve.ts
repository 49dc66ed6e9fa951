// Orchestration: decode, search within the budget (less a small reserve for encoding and
// the host's decoding), encode the best plan.

import { decode } from "./instance";
import { Search } from "./search";
import { encodeError, encodeResult } from "./output";
import { Budget } from "../common/clock";

const BUDGET_RESERVE: f64 = 0.05;

export function solveLinear(input: Float64Array): Float64Array {
  const inst = decode(input);
  if (inst === null) return encodeError(1);
  const reserve = Math.min(inst.budgetMs * BUDGET_RESERVE, 100.0) + 1.0;
  const search = new Search(inst, new Budget(inst.budgetMs - reserve));
  search.run();
  return encodeResult(inst, search);
}
