// Flat input/output layout of the guillotine engine. The TypeScript facade
// (src/engine/guillotine.ts) mirrors these numbers: change both together and bump the version.

import { F64Vec } from "../common/arrays";

export const FORMAT_VERSION: i32 = 5;

// ---- input: header, stock rows, part rows, stock lists, list references (all f64) ----
export const H_VERSION: i32 = 0;
export const H_NSTOCK: i32 = 1;
export const H_NPARTS: i32 = 2;
export const H_KERF: i32 = 3;
export const H_FIRSTCUT: i32 = 4; // 0 = 'x', 1 = 'y'
export const H_MAXPHASE: i32 = 5; // 0 = unlimited
export const H_HEADCUTS: i32 = 6;
export const H_SELECTION: i32 = 7; // 0 = efficiency, 1 = smallest
export const H_STRATEGY: i32 = 8; // 0 = efficiency, 1 = time
export const H_SEED: i32 = 9;
export const H_BUDGET: i32 = 10; // ms
export const H_NLISTS: i32 = 11;
export const H_NREFS: i32 = 12;
/** Scale of the deterministic effort limit: 1 = default, 0 = none (stop at the budget only). */
export const H_EFFORT: i32 = 13;
/** 1 = repeat each sheet pattern while the demand lasts (identical sheets stack; beam saws cut them as books). */
export const H_REPEAT: i32 = 14;
/**
 * 1 = the stock types are the bands of one strip (a roll cut across first): the facade made
 * one band length per part extent, and each new band is tried at the lengths of the next
 * openers in priority order instead of at the largest and smallest stock types.
 */
export const H_STRIP: i32 = 15;
/** When the search stops (see run-search.ts): 0 = at the effort limit, 1 = when progress stalls, 2 = at H_SOFT, never before 1 would. */
export const H_MODE: i32 = 16;
/** The clock limit of modes 1 and 2 in ms (the operator's ceiling, or the request's searchTime); 0 = H_BUDGET only. */
export const H_SOFT: i32 = 17;
export const HEADER_LEN: i32 = 18;

// Stock row: l, w, q, cost, trim l1, l2, w1, w2, grain, offcut (1: a leftover the shop owns,
// filled before new stock; see Objective in solution.ts).
export const STOCK_STRIDE: i32 = 10;
// Part row: l, w, q, rotMask[0..2], stock list id, reserved. Parts share stock lists
// (usually one per material) so 20,000 parts x 1,000 stock rows stays small.
export const PART_STRIDE: i32 = 8;
// Stock list: offset into refs, count.
export const LIST_STRIDE: i32 = 2;

// ---- output ----
export const O_STATUS: i32 = 0; // 0 ok, 1 bad input format
export const O_NSHEETS: i32 = 1;
export const O_LOWER_BOUND: i32 = 2;
export const O_ITERATIONS: i32 = 3;
export const O_ELAPSED: i32 = 4;
export const O_TIME_TO_BEST: i32 = 5;
export const O_DEADLINE: i32 = 6;
export const O_NPARTS: i32 = 7;
/** The greedy start's objective (before any search): sheets, their stock area, part area placed. */
export const O_GREEDY_SHEETS: i32 = 8;
export const O_GREEDY_STOCK_AREA: i32 = 9;
export const O_GREEDY_PLACED: i32 = 10;
/** Why the search stopped: 0 lower bound, 1 stalled, 2 effort limit, 3 H_SOFT's clock, 4 the budget (run-search.ts STOP_*). */
export const O_STOP: i32 = 11;
/** Effort spent, in the search's own work unit (fit-index visits; free packer: rectangle scans). */
export const O_WORK: i32 = 12;
export const OUT_HEADER: i32 = 13;
// Then unplaced[nParts], then per sheet: stock row, node count, nodes in pre-order.

// Node: kind, along (cut: 0 x / 1 y) or rot (part), x, y, l, w, part row (type while
// searching), child count. Shared by the search's patterns and the output.
export const NODE_STRIDE: i32 = 8;
export const N_KIND: i32 = 0;
export const N_DIR: i32 = 1;
export const N_ITEM: i32 = 2;
export const N_X: i32 = 3;
export const N_Y: i32 = 4;
export const N_L: i32 = 5;
export const N_W: i32 = 6;
export const N_CHILDREN: i32 = 7;
export const KIND_CUT: i32 = 0;
export const KIND_PART: i32 = 1;
/** Root of a free (non-guillotine) sheet: its children are parts placed anywhere in it. */
export const KIND_FREE: i32 = 2;

/**
 * Appends one search-time node (type in N_ITEM, no children yet) to `v`: the one writer of
 * this layout for both the guillotine filler and the free packer.
 */
export function appendNode(v: F64Vec, kind: i32, dirOrRot: i32, item: i32, x: f64, y: f64, l: f64, w: f64): void {
  v.reserve(NODE_STRIDE);
  const d = v.data;
  const b = v.len;
  unchecked((d[b + N_KIND] = <f64>kind));
  unchecked((d[b + N_DIR] = <f64>dirOrRot));
  unchecked((d[b + N_ITEM] = <f64>item));
  unchecked((d[b + N_X] = x));
  unchecked((d[b + N_Y] = y));
  unchecked((d[b + N_L] = l));
  unchecked((d[b + N_W] = w));
  unchecked((d[b + N_CHILDREN] = 0));
  v.len = b + NODE_STRIDE;
}
