// kerf engine entry. The host writes the flat input (see guillotine/layout.ts) into the
// buffer returned by inputPtr, calls solveGuillotine, then reads outputLength() values at
// outputPtr(). One fresh instance per task: nothing here is reused across tasks.

import { solveGuillotine as solveGuillotineFlat } from "./guillotine/solve";

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
