// Test entry, part of no engine: test/unit/sheet-pattern.test.ts compiles it on its own to
// drive the best-single-sheet search (sheet-pattern.ts) through scalar calls.

import { SheetPattern } from "./sheet-pattern";
import { F64Vec } from "../common/arrays";
import { NODE_STRIDE } from "../sheets/layout";

const TYPES: i32 = 64;
const search = new SheetPattern();
const l = new Float64Array(TYPES);
const w = new Float64Array(TYPES);
const mask = new Int32Array(TYPES);
const demand = new Int32Array(TYPES);
const types = new Int32Array(TYPES);
const nodes = new F64Vec(256);
let nTypes = 0;

/** Adds part type `nTypes` (l x w, q parts, rotation mask). */
export function addType(pl: f64, pw: f64, q: i32, rotMask: i32): void {
  l[nTypes] = pl;
  w[nTypes] = pw;
  mask[nTypes] = rotMask;
  demand[nTypes] = q;
  types[nTypes] = nTypes;
  nTypes++;
}

/** Best sheet of usable extents X x Y at the origin; returns its part area and takes its parts off the demand. */
export function solve(X: f64, Y: f64, alongIsX: bool, kerf: f64, nodeLimit: i32): f64 {
  return search.solve(types, nTypes, demand, l, w, mask, alongIsX, 0, 0, alongIsX ? X : Y, alongIsX ? Y : X, kerf, 1e-9, nodeLimit, nodes);
}

export function complete(): bool {
  return search.complete;
}

export function demandOf(t: i32): i32 {
  return demand[t];
}

/** The last pattern's nodes (NODE_STRIDE values each, pre-order; see sheets/format.ts). */
export function nodeCount(): i32 {
  return nodes.len / NODE_STRIDE;
}

export function nodeValue(i: i32): f64 {
  return nodes.data[i];
}
