// The flat output (declared in nesting/format.ts, which the service's boundary imports too):
//   header [status (0 ok, else an input error), nSheets, nItems, evaluations, timeToBestMs,
//           stop (0 at the effort limit, 1 by the clock, 2 stalled under the stall rule),
//           compactions (shorter strips found), compaction attempts]
//   sheets nSheets x [stock row, used length (right-most part extent less the region's x0)]
//   items  nItems x [type, sheet (-1 = not placed), angle, mirror, cos, sin, dx, dy]
// Items come type by type, copies in order. A placed item's point (x, y) of its request
// outline lands at (c * x' - s * y + dx, s * x' + c * y + dy) with x' = -x when mirrored.

import { Layout } from "../construct/layout";
import { Search } from "../search/local";
import * as F from "../format";
import { STOP_ON_STALL } from "../search/work-limit";

export function encodeError(status: i32): Float64Array {
  const out = new Float64Array(F.OUT_HEADER);
  out[F.O_STATUS] = status;
  return out;
}

export function encodeResult(search: Search): Float64Array {
  const l: Layout = search.best;
  const inst = l.inst;
  const n = l.order.length;
  const nSheets = l.sheets.length;
  const out = new Float64Array(F.OUT_HEADER + nSheets * F.SHEET_STRIDE + n * F.ITEM_STRIDE);
  out[F.O_STATUS] = 0;
  out[F.O_NSHEETS] = nSheets;
  out[F.O_NITEMS] = n;
  out[F.O_EVALUATIONS] = search.evaluations;
  out[F.O_TIME_TO_BEST] = search.timeToBestMs;
  out[F.O_STOP] = search.stoppedByDeadline ? F.STOP_CLOCK : inst.stopRule == STOP_ON_STALL && !search.hitEffortCap ? F.STOP_STALLED : F.STOP_EFFORT;
  out[F.O_COMPACTIONS] = search.compactions;
  out[F.O_COMPACTION_ATTEMPTS] = search.compactionAttempts;
  let p = F.OUT_HEADER;
  for (let s = 0; s < nSheets; s++) {
    const sh = l.sheets[s];
    out[p + F.SH_STOCK] = sh.stock;
    out[p + F.SH_USED] = l.usedTo(sh) - inst.stock[sh.stock].x0;
    p += F.SHEET_STRIDE;
  }
  // Order position of each item, so items can be written in item order.
  const posOf = new Int32Array(n);
  for (let pos = 0; pos < n; pos++) posOf[l.order[pos]] = pos;
  for (let item = 0; item < n; item++) {
    const pos = posOf[item];
    const t = l.itemType[item];
    out[p + F.I_TYPE] = t;
    out[p + F.I_SHEET] = l.sheetOf[pos];
    if (l.sheetOf[pos] >= 0) {
      const shape = l.placedShape(pos);
      out[p + F.I_ANGLE] = shape.angle;
      out[p + F.I_MIRROR] = shape.mirror ? 1 : 0;
      out[p + F.I_COS] = shape.cos;
      out[p + F.I_SIN] = shape.sin;
      out[p + F.I_DX] = shape.shiftX + l.xs[pos];
      out[p + F.I_DY] = shape.shiftY + l.ys[pos];
    }
    p += F.ITEM_STRIDE;
  }
  return out;
}
