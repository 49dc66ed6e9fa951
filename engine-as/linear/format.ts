// The linear engine's flat format (build/linear.wasm), declared once: the engine
// (linear/instance.ts, linear/output.ts) and the service's boundary (src/engine/linear/solve.ts)
// both import these numbers. Plain `export const` integers only: this file compiles as
// AssemblyScript (each an inlined i32) and as TypeScript. A change of meaning bumps the version.

export const FORMAT_VERSION = 5;

// ---- input (f64) ----
export const H_VERSION = 0;
export const H_NSTOCK = 1;
export const H_NPARTS = 2;
export const H_KERF = 3;
export const H_SEED = 4;
export const H_BUDGET = 5; // ms
export const H_SELECTION = 6; // 0 = efficiency, 1 = smallest
export const H_OBJECTIVE = 7; // 0 = bar count, 1 = cost
export const H_EFFORT = 8; // LP pivots the search may take, 0 = no limit
export const H_SEARCH_MS = 9; // ms before which a stalled search goes on (saw.options.searchTime), 0 = none
export const HEADER_LEN = 10;
// Stock row: usable length, quantity (-1 unlimited), cost.
export const STOCK_STRIDE = 3;
// Part row: length, demand.
export const PART_STRIDE = 2;
// Then nParts x nStock allowed flags (row i, column t).

// ---- output ----
export const O_STATUS = 0; // 0 ok, 1 bad input
export const O_NGROUPS = 1;
export const O_LOWER_BOUND = 2;
export const O_OPTIMAL = 3; // 1 = proven optimal
export const O_LP_VALUE = 4; // -1 unknown
export const O_TIME_TO_BEST = 5; // ms
export const O_DEADLINE = 6; // 1 = stopped by the deadline, 2 = went on past its stall until H_SEARCH_MS
export const O_NPARTS = 7;
export const O_DIVES = 8;
export const O_PIVOTS = 9; // LP pivots (the service reports them as iterations)
export const O_ROOT_MS = 10; // -1 = root LP not solved
export const O_PRICINGS = 11;
export const O_ROOT_PIVOTS = 12;
export const O_COLD_SOLVES = 13; // LP solves from scratch after the first
export const O_PROOF_NODES = 14; // branch-and-price nodes of the proof of one bar fewer (0 = not run)
export const O_COVER_NODES = 15; // nodes of the cover by patterns of small reduced cost (0 = not run)
export const OUT_HEADER = 16;
// Then nParts unplaced counts, then per group of identical bars: stock row, bars, items k,
// then k item indices in cut order.
export const GROUP_HEADER = 3;
