// The flat output (mirrored by src/engine/nesting.ts; change together):
//   header [status (0 ok, else an input error), nSheets, nItems, evaluations, timeToBestMs,
//           stop (0 at the effort limit, 1 by the clock, 2 stalled under the stall rule),
//           compactions (shorter strips found), compaction attempts]
//   sheets nSheets x [stock row, used length (right-most part extent less the region's x0)]
//   items  nItems x [type, sheet (-1 = not placed), angle, mirror, cos, sin, dx, dy]
// Items come type by type, copies in order. A placed item's point (x, y) of its request
// outline lands at (c * x' - s * y + dx, s * x' + c * y + dy) with x' = -x when mirrored.

import { Layout } from "../construct/layout";
import { Search } from "../search/local";
import { STOP_ON_STALL } from "../search/work-limit";

const STOP_EFFORT: f64 = 0;
const STOP_CLOCK: f64 = 1;
const STOP_STALLED: f64 = 2;

const OUT_HEADER = 8;
const SHEET_STRIDE = 2;
const ITEM_STRIDE = 8;

export function encodeError(status: i32): Float64Array {
  const out = new Float64Array(OUT_HEADER);
  out[0] = status;
  return out;
}

export function encodeResult(search: Search): Float64Array {
  const l: Layout = search.best;
  const inst = l.inst;
  const n = l.order.length;
  const nSheets = l.sheets.length;
  const out = new Float64Array(OUT_HEADER + nSheets * SHEET_STRIDE + n * ITEM_STRIDE);
  out[0] = 0;
  out[1] = nSheets;
  out[2] = n;
  out[3] = search.evaluations;
  out[4] = search.timeToBestMs;
  out[5] = search.stoppedByDeadline ? STOP_CLOCK : inst.stopRule == STOP_ON_STALL && !search.hitEffortCap ? STOP_STALLED : STOP_EFFORT;
  out[6] = search.compactions;
  out[7] = search.compactionAttempts;
  let p = OUT_HEADER;
  for (let s = 0; s < nSheets; s++) {
    const sh = l.sheets[s];
    out[p++] = sh.stock;
    out[p++] = l.usedTo(sh) - inst.stock[sh.stock].x0;
  }
  // Order position of each item, so items can be written in item order.
  const posOf = new Int32Array(n);
  for (let pos = 0; pos < n; pos++) posOf[l.order[pos]] = pos;
  for (let item = 0; item < n; item++) {
    const pos = posOf[item];
    const t = l.itemType[item];
    out[p] = t;
    out[p + 1] = l.sheetOf[pos];
    if (l.sheetOf[pos] >= 0) {
      const shape = l.placedShape(pos);
      out[p + 2] = shape.angle;
      out[p + 3] = shape.mirror ? 1 : 0;
      out[p + 4] = shape.cos;
      out[p + 5] = shape.sin;
      out[p + 6] = shape.shiftX + l.xs[pos];
      out[p + 7] = shape.shiftY + l.ys[pos];
    }
    p += ITEM_STRIDE;
  }
  return out;
}
