// kerf linear (1D) engine entry, built to build/linear.wasm. The host writes the flat input
// (linear/format.ts) at inputPtr, calls solveLinear, then reads that many f64 values at
// outputPtr() (common/flat-io.ts). One fresh instance per task.

import { solveLinear as solveLinearFlat } from "./linear/solve";
import { run } from "./common/flat-io";

export { inputPtr, outputPtr } from "./common/flat-io";

/** Solves the linear problem in the input buffer; returns the output length in f64s. */
export function solveLinear(): i32 {
  return run(solveLinearFlat);
}
