// Inscribed circles ("poles of inaccessibility") of a shape, used to say how deeply two
// colliding parts overlap: the sum over circle pairs of how far they interpenetrate. The
// exact test decides whether parts collide; this proxy only ranks how badly (after sparrow).

import { inMaterial, pointSegmentDist2 } from "../geometry/polygon";

const GRID = 20;

/** Distance from (px, py) to the nearest edge of any ring. */
function boundaryDistance(px: f64, py: f64, pts: Float64Array, ringStart: Int32Array): f64 {
  let m: f64 = Infinity;
  const rings = ringStart.length - 1;
  for (let r = 0; r < rings; r++) {
    const a = ringStart[r];
    const b = ringStart[r + 1];
    let j = b - 1;
    for (let i = a; i < b; i++) {
      const d = pointSegmentDist2(px, py, pts[j << 1], pts[(j << 1) + 1], pts[i << 1], pts[(i << 1) + 1]);
      if (d < m) m = d;
      j = i;
    }
  }
  return Math.sqrt(m);
}

/** Up to `count` circles [cx, cy, r, ...]: each the grid point deepest in the material and furthest from the circles before. */
export function poles(pts: Float64Array, ringStart: Int32Array, w: f64, h: f64, count: i32): Float64Array {
  const cand = new Array<f64>();
  for (let i = 0; i < GRID; i++) {
    for (let j = 0; j < GRID; j++) {
      const x = (w * (<f64>i + 0.5)) / <f64>GRID;
      const y = (h * (<f64>j + 0.5)) / <f64>GRID;
      if (!inMaterial(x, y, pts, ringStart, 0, 0)) continue;
      cand.push(x);
      cand.push(y);
      cand.push(boundaryDistance(x, y, pts, ringStart));
    }
  }
  const out = new Array<f64>();
  const nc = cand.length / 3;
  for (let k = 0; k < count; k++) {
    let bestScore: f64 = 0;
    let best = -1;
    for (let c = 0; c < nc; c++) {
      const x = cand[3 * c];
      const y = cand[3 * c + 1];
      let r = cand[3 * c + 2];
      // A circle may not reach into the ones already chosen by more than half of itself.
      for (let q = 0; q < out.length; q += 3) {
        const d = Math.sqrt((x - out[q]) * (x - out[q]) + (y - out[q + 1]) * (y - out[q + 1])) - out[q + 2] * 0.5;
        if (d < r) r = d;
      }
      if (r > bestScore) {
        bestScore = r;
        best = c;
      }
    }
    if (best < 0 || bestScore <= 0) break;
    out.push(cand[3 * best]);
    out.push(cand[3 * best + 1]);
    out.push(bestScore);
  }
  if (out.length == 0) {
    out.push(w * 0.5);
    out.push(h * 0.5);
    out.push(Math.min(w, h) * 0.25);
  }
  const a = new Float64Array(out.length);
  for (let i = 0; i < out.length; i++) a[i] = out[i];
  return a;
}

/**
 * How deeply two placed shapes' circles interpenetrate: per circle pair the penetration
 * depth, where shallow or missing penetration decays smoothly to a small positive value
 * (after sparrow), so the proxy is never 0 and still falls as the circles draw apart.
 */
export function penetration(pa: Float64Array, ax: f64, ay: f64, pb: Float64Array, bx: f64, by: f64, eps: f64): f64 {
  let s: f64 = 0;
  const eps2 = eps * eps;
  for (let i = 0; i < pa.length; i += 3) {
    const x = unchecked(pa[i]) + ax;
    const y = unchecked(pa[i + 1]) + ay;
    const r = unchecked(pa[i + 2]);
    for (let j = 0; j < pb.length; j += 3) {
      const dx = unchecked(pb[j]) + bx - x;
      const dy = unchecked(pb[j + 1]) + by - y;
      const pd = r + unchecked(pb[j + 2]) - Math.sqrt(dx * dx + dy * dy);
      s += pd >= eps ? pd : eps2 / (2 * eps - pd);
    }
  }
  return s;
}
