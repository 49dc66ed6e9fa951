// kerf linear (1D) engine entry, built to build/linear.wasm. The host writes the flat input
// (linear/format.ts) at inputPtr, calls solveLinear, then reads that many f64 values at
// outputPtr() (common/flat-io.ts). One fresh instance per task.

import { solveLinear as solveLinearFlat } from "./linear/solve";
import { run } from "./common/flat-io";
import { proveFlat } from "./linear/prove-check";
import { coverFlat } from "./linear/rc-cover-check";

export { inputPtr, outputPtr } from "./common/flat-io";

/** Solves the linear problem in the input buffer; returns the output length in f64s. */
export function solveLinear(): i32 {
  return run(solveLinearFlat);
}

let proofBars: i32 = 0;
let proofMaxNodes: i32 = 0;

function proveInput(input: Float64Array): Float64Array {
  return proveFlat(input, proofBars, proofMaxNodes);
}

/**
 * For tests and the proof's bench only (test/support/linear-proof.ts), not the service: runs
 * the proof that the job in the input buffer needs more than k bars, within maxNodes tree
 * nodes (linear/prove-check.ts says what it returns); returns the output length in f64s.
 */
export function proveLinearBars(k: i32, maxNodes: i32): i32 {
  proofBars = k;
  proofMaxNodes = maxNodes;
  return run(proveInput);
}

let coverBars: i32 = 0;
let coverWork: f64 = 0;
let coverGap: f64 = 0;
let coverPatterns: i32 = 0;
let coverFirstWork: f64 = 0;
let coverTilts: i32 = 0;

function coverInput(input: Float64Array): Float64Array {
  return coverFlat(input, coverBars, coverWork, coverGap, coverPatterns, coverFirstWork, coverTilts);
}

/**
 * For tests and benches only, not the service: runs the reduced-cost cover for k bars on the
 * job in the input buffer, within maxWork checks (the cover search alone the first firstWork),
 * a gap of maxGap and maxPatterns patterns, with the duals of `tilts` tilted LP re-solves too
 * (linear/rc-cover-check.ts says what it returns); returns the output length in f64s.
 */
export function coverLinearBars(k: i32, maxWork: f64, maxGap: f64, maxPatterns: i32, firstWork: f64, tilts: i32): i32 {
  coverBars = k;
  coverWork = maxWork;
  coverGap = maxGap;
  coverPatterns = maxPatterns;
  coverFirstWork = firstWork;
  coverTilts = tilts;
  return run(coverInput);
}
