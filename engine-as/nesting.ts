// kerf nesting (true-shape) engine entry, built to build/nesting.wasm. The host writes the
// flat input (nesting/format.ts) at inputPtr, calls solveNesting, then reads that many f64
// values at outputPtr() (common/flat-io.ts). One fresh instance per task.
// Built with AssemblyScript's stub runtime (nesting/asconfig.json): memory is only ever
// bumped, never freed, which spares every call the collector's shadow-stack bookkeeping
// (the same layouts; bottom-left fill about twice as fast, strip compaction about 15 %).
// So the search must not allocate per move or per evaluation: layouts reuse their sheet
// records, strip compaction its snapshots, sheet fitting its trackers' matrices; the fresh
// instance per task frees the rest.

import { solveNesting as solveNestingFlat } from "./nesting/solve";
import { run } from "./common/flat-io";

export { inputPtr, outputPtr } from "./common/flat-io";

/** Solves the nesting problem in the input buffer; returns the output length in f64s. */
export function solveNesting(): i32 {
  return run(solveNestingFlat);
}
