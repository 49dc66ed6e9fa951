// Exact pairwise conflict test with clearance: two placed shapes conflict when any edge of
// one comes closer than `gap` to an edge of the other, or when one lies in the other's
// material (a part inside another's hole does not). Bounding boxes, then boxes per chunk of
// edges and per edge (precomputed with the shape) cut the work before any segment distance
// is computed: most calls find only a few edges near the other shape;
// `collides` first asks the shapes' largest inner circles, which settle deep overlaps.

import { inMaterial, segmentsWithin } from "../geometry/polygon";
import { f64At, setF64At } from "../geometry/raw";
import { polesMeet } from "./poles";
import { CHUNK_EDGES, EDGE_STRIDE, Shape } from "./shape";

const CHUNK_VALUES = CHUNK_EDGES * EDGE_STRIDE;

/** Scratch: b's edges near the overlap window, placed, in the shape's edge layout (grown as needed). */
let nearEdges = new Float64Array(256);

/** True when the box at values i .. i + 3 of `base` (minX, maxX, minY, maxY) misses [l, h] x [d, t]. */
@inline
function misses(base: usize, i: i32, l: f64, h: f64, d: f64, t: f64): bool {
  return f64At(base, i + 1) < l || f64At(base, i) > h || f64At(base, i + 3) < d || f64At(base, i + 2) > t;
}

export function conflict(a: Shape, ax: f64, ay: f64, b: Shape, bx: f64, by: f64, gap: f64): bool {
  // Boxes further apart than the gap cannot conflict.
  if (ax >= bx + b.w + gap || bx >= ax + a.w + gap || ay >= by + b.h + gap || by >= ay + a.h + gap) return false;
  const gap2 = gap * gap;
  // The window where edges of each shape can come within the gap of the other's box.
  const loX = Math.max(ax, bx) - gap;
  const hiX = Math.min(ax + a.w, bx + b.w) + gap;
  const loY = Math.max(ay, by) - gap;
  const hiY = Math.min(ay + a.h, by + b.h) + gap;
  // b's edges reaching into the window, placed once so each of a's edges scans only those;
  // their boxes widened by the gap.
  const bLen = b.edgeValues;
  if (nearEdges.length < bLen) nearEdges = new Float64Array(bLen);
  const near = nearEdges.dataStart;
  const be = b.edges.dataStart;
  let m = 0;
  {
    const l = loX - bx, h = hiX - bx, d = loY - by, t = hiY - by;
    const bc = b.chunks.dataStart;
    for (let c = 0, nc = b.chunkCount; c < nc; c++) {
      if (misses(bc, c << 2, l, h, d, t)) continue;
      const from = c * CHUNK_VALUES;
      const to = min(from + CHUNK_VALUES, bLen);
      for (let k = from; k < to; k += EDGE_STRIDE) {
        if (misses(be, k + 4, l, h, d, t)) continue;
        setF64At(near, m, f64At(be, k) + bx);
        setF64At(near, m + 1, f64At(be, k + 1) + by);
        setF64At(near, m + 2, f64At(be, k + 2) + bx);
        setF64At(near, m + 3, f64At(be, k + 3) + by);
        setF64At(near, m + 4, f64At(be, k + 4) + bx - gap);
        setF64At(near, m + 5, f64At(be, k + 5) + bx + gap);
        setF64At(near, m + 6, f64At(be, k + 6) + by - gap);
        setF64At(near, m + 7, f64At(be, k + 7) + by + gap);
        m += EDGE_STRIDE;
      }
    }
  }
  if (m > 0) {
    const ae = a.edges.dataStart;
    const aLen = a.edgeValues;
    const l = loX - ax, h = hiX - ax, d = loY - ay, t = hiY - ay;
    const ac = a.chunks.dataStart;
    for (let c = 0, nc = a.chunkCount; c < nc; c++) {
      if (misses(ac, c << 2, l, h, d, t)) continue;
      const from = c * CHUNK_VALUES;
      const to = min(from + CHUNK_VALUES, aLen);
      for (let k = from; k < to; k += EDGE_STRIDE) {
        if (misses(ae, k + 4, l, h, d, t)) continue;
        const eMinX = f64At(ae, k + 4) + ax, eMaxX = f64At(ae, k + 5) + ax;
        const eMinY = f64At(ae, k + 6) + ay, eMaxY = f64At(ae, k + 7) + ay;
        const p1x = f64At(ae, k) + ax;
        const p1y = f64At(ae, k + 1) + ay;
        const p2x = f64At(ae, k + 2) + ax;
        const p2y = f64At(ae, k + 3) + ay;
        for (let j = 0; j < m; j += EDGE_STRIDE) {
          if (misses(near, j + 4, eMinX, eMaxX, eMinY, eMaxY)) continue;
          if (segmentsWithin(p1x, p1y, p2x, p2y, f64At(near, j), f64At(near, j + 1), f64At(near, j + 2), f64At(near, j + 3), gap, gap2)) return true;
        }
      }
    }
  }
  // No edges close: the boundaries are apart, so either one holds the other or they are apart.
  // A point of one outside the other's box settles that side without the point test.
  const ap = a.pts;
  const bp = b.pts;
  const apx = unchecked(ap[0]) + ax;
  const apy = unchecked(ap[1]) + ay;
  if (apx > bx && apx < bx + b.w && apy > by && apy < by + b.h && inMaterial(apx, apy, bp, b.ringStart, bx, by)) return true;
  const bpx = unchecked(bp[0]) + bx;
  const bpy = unchecked(bp[1]) + by;
  return bpx > ax && bpx < ax + a.w && bpy > ay && bpy < ay + a.h && inMaterial(bpx, bpy, ap, a.ringStart, ax, ay);
}

/**
 * The same answer as `conflict`, sooner for deep overlaps: when the largest inner circles of
 * the two shapes meet, they surely conflict, and the exact test is skipped.
 */
export function collides(a: Shape, ax: f64, ay: f64, b: Shape, bx: f64, by: f64, gap: f64): bool {
  if (ax >= bx + b.w + gap || bx >= ax + a.w + gap || ay >= by + b.h + gap || by >= ay + a.h + gap) return false;
  if (a.polesInside && b.polesInside && polesMeet(a.poleLanes, ax, ay, b.poleLanes, bx, by, gap)) return true;
  return conflict(a, ax, ay, b, bx, by, gap);
}
