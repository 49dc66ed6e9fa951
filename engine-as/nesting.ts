// kerf nesting (true-shape) engine entry, built to build/nesting.wasm. The host writes the
// flat input (see nesting/instance.ts) into the buffer returned by inputPtr, calls
// solveNesting, then reads that many f64 values at outputPtr(). One fresh instance per task.
// Built with AssemblyScript's stub runtime (nesting/asconfig.json): memory is only ever
// bumped, never freed, which spares every call the collector's shadow-stack bookkeeping
// (the same layouts; bottom-left fill about twice as fast, strip compaction about 15 %).
// So the search must not allocate per move or per evaluation: layouts reuse their sheet
// records, strip compaction its snapshots, sheet fitting its trackers' matrices; the fresh
// instance per task frees the rest.

import { solveNesting as solveNestingFlat } from "./nesting/solve";

let input: Float64Array = new Float64Array(0);
let output: Float64Array = new Float64Array(0);

/** Allocates the input buffer for n f64 values and returns its address. */
export function inputPtr(n: i32): usize {
  input = new Float64Array(n > 0 ? n : 0);
  return input.dataStart;
}

/** Solves the nesting problem in the input buffer; returns the output length in f64s. */
export function solveNesting(): i32 {
  output = solveNestingFlat(input);
  return output.length;
}

export function outputPtr(): usize {
  return output.dataStart;
}
