// The nesting engine's flat format (build/nesting.wasm), declared once: the engine
// (nesting/instance.ts, nesting/output/encode.ts) and the service's boundary
// (src/engine/nesting/solve.ts) both import these numbers. Plain `export const` integers only:
// this file compiles as AssemblyScript (each an inlined i32) and as TypeScript. A change of
// meaning bumps the version.

export const FORMAT_VERSION = 1;

// ---- input (f64) ----
export const H_VERSION = 0;
export const H_NSTOCK = 1;
export const H_NTYPES = 2;
export const H_GAP_PARTS = 3; // clearance between parts
export const H_GAP_EDGE = 4; // clearance from the usable region's edge
export const H_SEED = 5;
export const H_BUDGET = 6; // ms
export const H_EFFORT = 7; // evaluations before the search stops (0: the budget only)
export const H_ROLL = 8; // 1: stock open-ended along x (x1 caps it), the objective is the used length
export const H_NO_SHEET_COMPACTION = 9;
export const H_STOP_RULE = 10; // 0: stop at the effort limit; 1: the stall rule past it (search/work-limit.ts)
export const HEADER_LEN = 12; // one reserved
// Stock row: usable region x0, y0, x1, y1, q (-1 = as many as needed), area.
export const S_X0 = 0;
export const S_Y0 = 1;
export const S_X1 = 2;
export const S_Y1 = 3;
export const S_Q = 4;
export const S_AREA = 5;
export const STOCK_STRIDE = 6;
// Part type: q, nAngles, mirror (0/1), nAllowed, then the allowed stock rows, the angles,
// nRings and per ring nPoints, x0, y0, x1, y1, ... (ring 0 the outline).
export const T_Q = 0;
export const T_NANGLES = 1;
export const T_MIRROR = 2;
export const T_NALLOWED = 3;
export const TYPE_HEADER = 4;

// ---- output ----
export const O_STATUS = 0; // 0 ok, else an input error
export const O_NSHEETS = 1;
export const O_NITEMS = 2;
export const O_EVALUATIONS = 3;
export const O_TIME_TO_BEST = 4; // ms
export const O_STOP = 5; // why it stopped: STOP_EFFORT, STOP_CLOCK (the deadline) or STOP_STALLED (the stall rule)
export const O_COMPACTIONS = 6; // shorter strips found
export const O_COMPACTION_ATTEMPTS = 7;
export const OUT_HEADER = 8;
export const STOP_EFFORT = 0;
export const STOP_CLOCK = 1;
export const STOP_STALLED = 2;
// Sheet: stock row, used length (right-most part extent less the region's x0).
export const SH_STOCK = 0;
export const SH_USED = 1;
export const SHEET_STRIDE = 2;
// Item (type by type, copies in order): type, sheet (-1 = not placed), angle, mirror, cos,
// sin, dx, dy. Its outline point (x, y) lands at (c x' - s y + dx, s x' + c y + dy), x' = -x
// when mirrored.
export const I_TYPE = 0;
export const I_SHEET = 1;
export const I_ANGLE = 2;
export const I_MIRROR = 3;
export const I_COS = 4;
export const I_SIN = 5;
export const I_DX = 6;
export const I_DY = 7;
export const ITEM_STRIDE = 8;
