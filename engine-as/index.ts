// kerf engine entry. The host writes the flat input (see guillotine/layout.ts) into the
// buffer returned by inputPtr, calls solveGuillotine, then reads outputLength() values at
// outputPtr(). One fresh instance per task: nothing here is reused across tasks.

import { solveGuillotine as solveGuillotineFlat } from "./guillotine/solve";
import { solveFree as solveFreeFlat } from "./free/solve";
import { solveStrip as solveStripFlat } from "./guillotine/strip";

let input: Float64Array = new Float64Array(0);
let output: Float64Array = new Float64Array(0);

/** Allocates the input buffer for n f64 values and returns its address. */
export function inputPtr(n: i32): usize {
  input = new Float64Array(n > 0 ? n : 0);
  return input.dataStart;
}

/** Solves the guillotine problem in the input buffer; returns the output length in f64s. */
export function solveGuillotine(): i32 {
  output = solveGuillotineFlat(input);
  return output.length;
}

export function outputPtr(): usize {
  return output.dataStart;
}

/** Solves the same input with free (non-guillotine) placement; same output layout. */
export function solveFree(): i32 {
  output = solveFreeFlat(input);
  return output.length;
}

/** Strip packing of one roll by recursive best fit (see guillotine/strip.ts for the layout). */
export function solveStrip(): i32 {
  output = solveStripFlat(input);
  return output.length;
}
