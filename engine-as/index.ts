// kerf engine entry, built to build/engine.wasm: sheets and rolls cut by a saw, free placement,
// and the strip run of a roll. The host writes the flat input (sheets/format.ts) at
// inputPtr, calls one solve export, then reads that many f64 values at outputPtr()
// (common/flat-io.ts). One fresh instance per task: nothing here is reused across tasks.

import { solveGuillotine as solveGuillotineFlat } from "./guillotine/solve";
import { solveFree as solveFreeFlat } from "./free/solve";
import { solveStrip as solveStripFlat } from "./guillotine/strip";
import { run } from "./common/flat-io";

export { inputPtr, outputPtr } from "./common/flat-io";

/** Solves the guillotine problem in the input buffer; returns the output length in f64s. */
export function solveGuillotine(): i32 {
  return run(solveGuillotineFlat);
}

/** Solves the same input with free (non-guillotine) placement; same output layout. */
export function solveFree(): i32 {
  return run(solveFreeFlat);
}

/** Strip packing of one roll by recursive best fit (guillotine/strip.ts; input and output in sheets/format.ts). */
export function solveStrip(): i32 {
  return run(solveStripFlat);
}
