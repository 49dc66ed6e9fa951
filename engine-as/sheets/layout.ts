// Flat input/output layout of the guillotine engine: the numbers are declared in format.ts
// (which the service's boundary imports too); here, the one writer of its node records.

import { F64Vec } from "../common/arrays";
import { NODE_STRIDE, N_KIND, N_DIR, N_ITEM, N_X, N_Y, N_L, N_W, N_CHILDREN } from "./format";

export * from "./format";

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
