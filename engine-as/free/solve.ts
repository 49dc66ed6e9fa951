// Orchestration of the free packer: same input and output layout as the guillotine engine
// (sheets/layout.ts), same solve driver (sheets/run-search.ts); each sheet is a
// KIND_FREE root whose children are its parts.

import { decode, Instance } from "../sheets/instance";
import { encodeError } from "../sheets/output";
import { Budget } from "../common/clock";
import { FreeSearch } from "./pack";
import { setOffcutTypes, setPreferFewCuts } from "../sheets/solution";
import { SheetSearch } from "../sheets/sheet-search";
import { EffortScale, runSheetSearch } from "../sheets/run-search";

/** Effort in free-rectangle scans. */
const EFFORT = new EffortScale(300.0, 500000.0, 200000000.0);

function newSearch(inst: Instance, budget: Budget, lowerBound: Int32Array): SheetSearch {
  return new FreeSearch(inst, budget, lowerBound);
}

export function solveFree(input: Float64Array): Float64Array {
  const inst = decode(input);
  if (inst === null) return encodeError(1);
  setPreferFewCuts(false);
  setOffcutTypes(inst.sOffcut);
  return runSheetSearch(inst, newSearch, EFFORT);
}
