// Orchestration of the guillotine engine: decode, run the shared solve driver
// (run-search.ts) with the guillotine search, encode.

import { decode, Instance } from "../sheets/instance";
import { Search } from "./search";
import { encodeError } from "../sheets/output";
import { Budget } from "../common/clock";
import { setOffcutTypes, setPreferFewCuts } from "../sheets/solution";
import { SheetSearch } from "../sheets/sheet-search";
import { EffortScale, runSheetSearch } from "../sheets/run-search";

/** Effort in fit-index visits; the whole-run cap is about a second here. */
const EFFORT = new EffortScale(400.0, 200000.0, 50000000.0);

function newSearch(inst: Instance, budget: Budget, lowerBound: Int32Array): SheetSearch {
  return new Search(inst, budget, lowerBound);
}

export function solveGuillotine(input: Float64Array): Float64Array {
  const inst = decode(input);
  if (inst === null) return encodeError(1);
  setPreferFewCuts(inst.timeStrategy);
  setOffcutTypes(inst.sOffcut);
  return runSheetSearch(inst, newSearch, EFFORT);
}
