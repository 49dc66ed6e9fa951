// Lower bounds on the number of sheets.
//
// Every bound works on kerf-inflated sizes: in a guillotine pattern (and in any layout
// without overlap) every piece together with the kerf strip after it (right and above) fits
// into the usable region grown by one kerf, without overlap. So a part is (l + k) x (w + k)
// on a sheet of (X + k) x (Y + k). Components are independent, so their bounds add up.
//
// - Area: ceil(sum of part areas / largest sheet area).
// With one stock type (the case where a search can stop at its bound):
// - Big parts: a part longer than half the sheet in both directions in every orientation it
//   may take cannot share a sheet with another such part.
// Parts with one orientation only, additionally:
// - One-dimensional (both directions): parts taller than half the sheet cannot be stacked,
//   so on every sheet their widths add up to at most the sheet's width: a bin-packing
//   problem in widths, bounded by Martello and Toth's L2.
// - Two-dimensional (Martello and Vigo): for thresholds p, q, the parts with x > X - p and
//   y > Y - q take a sheet each that no part with x >= p and y >= q can join; the big parts
//   and those others need further sheets by count and by area.

import { Instance } from "./instance";
import { F64Vec } from "../common/arrays";

/** Work of the pairwise bound (thresholds squared times types) stays under this. */
const PAIR_WORK: f64 = 4e6;

export function componentLowerBound(inst: Instance, c: i32): i32 {
  const k = inst.kerf;
  let need: f64 = 0;
  for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
    const t = unchecked(inst.cTypes[i]);
    need += <f64>unchecked(inst.tQ[t]) * (unchecked(inst.tL[t]) + k) * (unchecked(inst.tW[t]) + k);
  }
  let cap: f64 = 0;
  for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) {
    const s = unchecked(inst.cStocks[i]);
    cap = Math.max(cap, (unchecked(inst.sXL[s]) + k) * (unchecked(inst.sYL[s]) + k));
  }
  if (need <= 0 || cap <= 0) return 0;
  const lb = Math.ceil(need / cap - 1e-9);
  const area = lb < 1 ? 1 : <i32>Math.min(lb, 1e9);
  if (unchecked(inst.cStockStart[c + 1]) - unchecked(inst.cStockStart[c]) != 1) return area;
  const better = oneStockBound(inst, c, unchecked(inst.cStocks[unchecked(inst.cStockStart[c])]));
  return better > area ? better : area;
}

/** Parts of component c on stock s, one entry per instance's type: x, y (inflated), count; rotatable parts flagged. */
class Parts {
  x: F64Vec = new F64Vec(64);
  y: F64Vec = new F64Vec(64);
  q: F64Vec = new F64Vec(64);
  oriented: bool = true;
  big: f64 = 0;
}

function oneStockBound(inst: Instance, c: i32, s: i32): i32 {
  const k = inst.kerf;
  const eps = inst.eps;
  const X = unchecked(inst.sXL[s]) + k;
  const Y = unchecked(inst.sYL[s]) + k;
  const P = new Parts();
  for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
    const t = unchecked(inst.cTypes[i]);
    const m = inst.maskOn(t, s);
    if (m == 0) continue; // cannot be placed at all: no sheet is needed for it
    const l = unchecked(inst.tL[t]) + k;
    const w = unchecked(inst.tW[t]) + k;
    const q = <f64>unchecked(inst.tQ[t]);
    const bigR0 = l > X / 2 + eps && w > Y / 2 + eps;
    const bigR1 = w > X / 2 + eps && l > Y / 2 + eps;
    if ((m & 1) != 0 && (m & 2) != 0) {
      P.oriented = false;
      if (bigR0 && bigR1) P.big += q;
      continue;
    }
    const x = (m & 1) != 0 ? l : w;
    const y = (m & 1) != 0 ? w : l;
    if (x > X / 2 + eps && y > Y / 2 + eps) P.big += q;
    P.x.push(x);
    P.y.push(y);
    P.q.push(q);
  }
  let lb = <i32>Math.min(P.big, 1e9);
  if (!P.oriented) return lb;
  lb = max(lb, widthBound(P.x, P.y, P.q, X, Y, eps));
  lb = max(lb, widthBound(P.y, P.x, P.q, Y, X, eps));
  lb = max(lb, pairBound(P, X, Y, eps));
  return lb;
}

/**
 * Martello-Toth L2 on the parts taller than half the sheet (b > B / 2): they sit side by
 * side, so for every threshold p the parts wider than A - p need a sheet each, those
 * wider than A / 2 too, and the ones from p up to A / 2 fill what the latter leave, at best.
 */
function widthBound(a: F64Vec, b: F64Vec, q: F64Vec, A: f64, B: f64, eps: f64): i32 {
  let best: f64 = 0;
  const n = a.len;
  // Thresholds: every width up to A / 2, and 0 (no part excluded).
  for (let pi = -1; pi < n; pi++) {
    let p: f64 = 0;
    if (pi >= 0) {
      if (unchecked(b.data[pi]) <= B / 2 + eps) continue;
      p = unchecked(a.data[pi]);
      if (p > A / 2 + eps) continue;
    }
    let n1: f64 = 0;
    let n2: f64 = 0;
    let free2: f64 = 0;
    let need3: f64 = 0;
    for (let j = 0; j < n; j++) {
      if (unchecked(b.data[j]) <= B / 2 + eps) continue;
      const x = unchecked(a.data[j]);
      const m = unchecked(q.data[j]);
      if (x > A - p + eps) n1 += m;
      else if (x > A / 2 + eps) {
        n2 += m;
        free2 += m * (A - x);
      } else if (x >= p - eps) need3 += m * x;
    }
    const extra = Math.max(0.0, Math.ceil((need3 - free2) / A - 1e-9));
    best = Math.max(best, n1 + n2 + extra);
  }
  return <i32>Math.min(best, 1e9);
}

/**
 * Martello-Vigo: for thresholds p <= X / 2 and q <= Y / 2, the parts with x > X - p and
 * y > Y - q (I1) each fill a sheet no part with x >= p and y >= q can join; the other big
 * parts (I2, one per sheet) and the parts from (p, q) up (I3) share the remaining sheets.
 */
function pairBound(P: Parts, X: f64, Y: f64, eps: f64): i32 {
  const n = P.x.len;
  const most = <i32>Math.max(1.0, Math.sqrt(PAIR_WORK / <f64>max(n, 1)));
  const ps = thresholds(P.x, X, eps, most);
  const qs = thresholds(P.y, Y, eps, most);
  const S = X * Y;
  let best: f64 = 0;
  for (let a = 0; a < ps.len; a++) {
    const p = unchecked(ps.data[a]);
    for (let b = 0; b < qs.len; b++) {
      const q = unchecked(qs.data[b]);
      let n1: f64 = 0;
      let n2: f64 = 0;
      let area: f64 = 0;
      for (let j = 0; j < n; j++) {
        const x = unchecked(P.x.data[j]);
        const y = unchecked(P.y.data[j]);
        const m = unchecked(P.q.data[j]);
        const big = x > X / 2 + eps && y > Y / 2 + eps;
        if (x > X - p + eps && y > Y - q + eps) n1 += m;
        else if (big) {
          n2 += m;
          area += m * x * y;
        } else if (x >= p - eps && y >= q - eps) area += m * x * y;
      }
      const rest = Math.max(n2, Math.ceil(area / S - 1e-9));
      best = Math.max(best, n1 + rest);
    }
  }
  return <i32>Math.min(best, 1e9);
}

/** 0 and the distinct sizes up to half the sheet (at most `most`, the smallest). */
function thresholds(v: F64Vec, A: f64, eps: f64, most: i32): F64Vec {
  const out = new F64Vec(16);
  out.push(0);
  const sorted = new Float64Array(v.len);
  for (let i = 0; i < v.len; i++) unchecked((sorted[i] = unchecked(v.data[i])));
  sorted.sort();
  for (let i = 0; i < sorted.length && out.len < most; i++) {
    const x = unchecked(sorted[i]);
    if (x > A / 2 + eps) break;
    if (x > unchecked(out.data[out.len - 1]) + eps) out.push(x);
  }
  return out;
}
