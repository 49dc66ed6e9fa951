// The guillotine engine's flat format (build/engine.wasm: sheets, the free packer and the
// strip run of a roll), declared once: the engine (engine-as/guillotine, engine-as/free) and
// the service's boundary (src/engine/guillotine/boundary.ts) both import these numbers, so
// the two sides cannot disagree. Plain `export const` integers only: this file compiles as
// AssemblyScript (each an inlined i32) and as TypeScript. A change of meaning bumps the version.

export const FORMAT_VERSION = 5;

// ---- input: header, stock rows, part rows, stock lists, list references (all f64) ----
export const H_VERSION = 0;
export const H_NSTOCK = 1;
export const H_NPARTS = 2;
export const H_KERF = 3;
export const H_FIRSTCUT = 4; // 0 = 'x', 1 = 'y'
export const H_MAXPHASE = 5; // 0 = unlimited
export const H_HEADCUTS = 6;
export const H_SELECTION = 7; // 0 = efficiency, 1 = smallest
export const H_STRATEGY = 8; // 0 = efficiency, 1 = time
export const H_SEED = 9;
export const H_BUDGET = 10; // ms
export const H_NLISTS = 11;
export const H_NREFS = 12;
/** Scale of the deterministic effort limit: 1 = default, 0 = none (stop at the budget only). */
export const H_EFFORT = 13;
/** 1 = repeat each sheet pattern while the demand lasts (identical sheets stack; beam saws cut them as books). */
export const H_REPEAT = 14;
/**
 * 1 = the stock types are the bands of one strip (a roll cut across first): the facade made
 * one band length per part extent, and each new band is tried at the lengths of the next
 * openers in priority order instead of at the largest and smallest stock types.
 */
export const H_STRIP = 15;
/** When the search stops (sheet-search.ts improve): one of the MODE_* codes below. */
export const H_MODE = 16;
/** The clock limit of modes 1 and 2 in ms (the operator's ceiling, or the request's searchTime); 0 = H_BUDGET only. */
export const H_SOFT = 17;
export const HEADER_LEN = 18;

// Stop rules (H_MODE): at the effort limit; when progress stalls; at H_SOFT, never before the stall rule would.
export const MODE_EFFORT = 0;
export const MODE_STALL = 1;
export const MODE_SEARCH_TIME = 2;

// Stock row: l, w, q, cost, trim l1, l2, w1, w2, grain, offcut (1: a leftover the shop owns,
// filled before new stock; see Objective in solution.ts).
export const STOCK_STRIDE = 10;
// Part row: l, w, q, rotMask[0..2], stock list id, reserved. Parts share stock lists
// (usually one per material) so 20,000 parts x 1,000 stock rows stays small.
export const PART_STRIDE = 8;
// Stock list: offset into refs, count.
export const LIST_STRIDE = 2;

// ---- output ----
export const O_STATUS = 0; // 0 ok, 1 bad input format
export const O_NSHEETS = 1;
export const O_LOWER_BOUND = 2;
export const O_ITERATIONS = 3;
export const O_ELAPSED = 4;
export const O_TIME_TO_BEST = 5;
export const O_DEADLINE = 6;
export const O_NPARTS = 7;
/** The greedy start's objective (before any search): sheets, their stock area, part area placed. */
export const O_GREEDY_SHEETS = 8;
export const O_GREEDY_STOCK_AREA = 9;
export const O_GREEDY_PLACED = 10;
/** Why the search stopped: one of the STOP_* codes below (the run reports the largest over its components). */
export const O_STOP = 11;
/** Effort spent, in the search's own work unit (fit-index visits; free packer: rectangle scans). */
export const O_WORK = 12;
export const OUT_HEADER = 13;

// Why a search stopped (O_STOP), ordered: the lower bound was met, progress stalled, the effort
// limit, H_SOFT's clock, the budget.
export const STOP_BOUND = 0;
export const STOP_STALLED = 1;
export const STOP_EFFORT = 2;
export const STOP_SOFT = 3;
export const STOP_BUDGET = 4;
// Then unplaced[nParts], then per sheet: stock row, node count, nodes in pre-order.

// Node of the search's patterns: kind, along (cut: 0 x / 1 y) or rot (part), type, x, y, l,
// w, child count.
export const NODE_STRIDE = 8;
export const N_KIND = 0;
export const N_DIR = 1;
export const N_ITEM = 2;
export const N_X = 3;
export const N_Y = 4;
export const N_L = 5;
export const N_W = 6;
export const N_CHILDREN = 7;
// Node of the output (sheets and strip runs alike), NODE_STRIDE values: kind, along or rot,
// x, y, l, w, part row (-1 for a cut), child count.
export const ON_KIND = 0;
export const ON_DIR = 1;
export const ON_X = 2;
export const ON_Y = 3;
export const ON_L = 4;
export const ON_W = 5;
export const ON_PART = 6;
export const ON_CHILDREN = 7;
export const KIND_CUT = 0;
export const KIND_PART = 1;
/** Root of a free (non-guillotine) sheet: its children are parts placed anywhere in it. */
export const KIND_FREE = 2;

// ---- strip run of a roll (guillotine/strip.ts): input ----
export const S_WIDTH = 0; // usable width of the roll
export const S_KERF = 1;
export const S_MAXPHASE = 2; // 0 = unlimited stages, -1 = free placement (no cuts)
export const S_SEED = 3;
export const S_BUDGET = 4; // ms
export const S_EFFORT = 5; // 0 = none
export const S_NPARTS = 6;
export const S_HEADER_LEN = 7;
// Then per part: l, w, q, mask (1: l along the roll, 2: turned).
export const S_PART_STRIDE = 4;

// ---- strip run: output ----
export const SO_STATUS = 0; // 0 ok, 1 bad input
export const SO_LENGTH = 1;
export const SO_ITERATIONS = 2;
export const SO_FIRST = 3; // length of the first (noise-free) strip
export const SO_NODES = 4;
export const SO_LOWER_BOUND = 5;
export const SO_DEADLINE = 6; // 1 = a clock limit cut the run (its result depends on the machine)
export const SO_HEADER = 7;
// Then the tree in preorder, NODE_STRIDE values per node, coordinates from the usable corner.
