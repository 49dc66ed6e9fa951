// kerf linear (1D) engine entry, built to build/linear.wasm. The host writes the flat input
// (see linear/instance.ts) into the buffer returned by inputPtr, calls solveLinear, then
// reads that many f64 values at outputPtr(). One fresh instance per task.

import { solveLinear as solveLinearFlat } from "./linear/solve";

let input: Float64Array = new Float64Array(0);
let output: Float64Array = new Float64Array(0);

/** Allocates the input buffer for n f64 values and returns its address. */
export function inputPtr(n: i32): usize {
  input = new Float64Array(n > 0 ? n : 0);
  return input.dataStart;
}

/** Solves the linear problem in the input buffer; returns the output length in f64s. */
export function solveLinear(): i32 {
  output = solveLinearFlat(input);
  return output.length;
}

export function outputPtr(): usize {
  return output.dataStart;
}
