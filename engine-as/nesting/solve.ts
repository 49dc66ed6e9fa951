// Orchestration: decode, build a first layout and improve it until the effort limit or the
// budget (less a small reserve for encoding), encode the best layout.

import { Budget } from "../common/clock";
import { decode } from "./instance";
import { encodeError, encodeResult } from "./output/encode";
import { Search } from "./search/local";

const BUDGET_RESERVE: f64 = 0.05;

export function solveNesting(input: Float64Array): Float64Array {
  const inst = decode(input);
  if (inst === null) return encodeError(1);
  const reserve = Math.min(inst.budgetMs * BUDGET_RESERVE, 100.0) + 1.0;
  const search = new Search(inst, new Budget(inst.budgetMs - reserve));
  search.run();
  return encodeResult(search);
}
