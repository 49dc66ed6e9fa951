// Plane geometry on flat point arrays (x0, y0, x1, y1, ...). A shape is one or more closed
// rings: ring 0 the outline, the others holes. "Material" is decided by the even-odd rule
// over all rings, so a point in a hole is outside the part and winding never matters.

import { f64At, i32At } from "./raw";

/** Squared distance from point (px, py) to segment (ax, ay)-(bx, by). */
@inline
export function pointSegmentDist2(px: f64, py: f64, ax: f64, ay: f64, bx: f64, by: f64): f64 {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t: f64 = 0;
  if (len2 > 0) {
    t = ((px - ax) * dx + (py - ay) * dy) / len2;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
  }
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

@inline
function cross(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64): f64 {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** True when the two segments properly cross (each splits the other); touching is left to the distance test. */
export function segmentsIntersect(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64, dx: f64, dy: f64): bool {
  const d1 = cross(cx, cy, dx, dy, ax, ay);
  const d2 = cross(cx, cy, dx, dy, bx, by);
  const d3 = cross(ax, ay, bx, by, cx, cy);
  const d4 = cross(ax, ay, bx, by, dx, dy);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/**
 * True when the two segments come closer than `gap` (`gap2` its square). Segments that do not
 * cross are closest at an endpoint, and an endpoint can come that close only inside the other
 * segment's box grown by the gap, so most point-segment distances are never computed.
 */
@inline
export function segmentsWithin(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64, dx: f64, dy: f64, gap: f64, gap2: f64): bool {
  if (segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) return true;
  const cdLoX = Math.min(cx, dx) - gap, cdHiX = Math.max(cx, dx) + gap;
  const cdLoY = Math.min(cy, dy) - gap, cdHiY = Math.max(cy, dy) + gap;
  if (ax >= cdLoX && ax <= cdHiX && ay >= cdLoY && ay <= cdHiY && pointSegmentDist2(ax, ay, cx, cy, dx, dy) < gap2) return true;
  if (bx >= cdLoX && bx <= cdHiX && by >= cdLoY && by <= cdHiY && pointSegmentDist2(bx, by, cx, cy, dx, dy) < gap2) return true;
  const abLoX = Math.min(ax, bx) - gap, abHiX = Math.max(ax, bx) + gap;
  const abLoY = Math.min(ay, by) - gap, abHiY = Math.max(ay, by) + gap;
  if (cx >= abLoX && cx <= abHiX && cy >= abLoY && cy <= abHiY && pointSegmentDist2(cx, cy, ax, ay, bx, by) < gap2) return true;
  return dx >= abLoX && dx <= abHiX && dy >= abLoY && dy <= abHiY && pointSegmentDist2(dx, dy, ax, ay, bx, by) < gap2;
}

/**
 * Even-odd point test over every ring of a shape: true when (px, py) lies in its material.
 * `pts` holds the shape's points, ring r spans points ringStart[r] .. ringStart[r + 1] - 1,
 * and the shape is shifted by (ox, oy).
 */
export function inMaterial(px: f64, py: f64, pts: Float64Array, ringStart: Int32Array, ox: f64, oy: f64): bool {
  let inside = false;
  const rings = ringStart.length - 1;
  const p = pts.dataStart;
  const rs = ringStart.dataStart;
  // In the shape's own frame: one shift of the point instead of one per vertex.
  const qx = px - ox;
  const qy = py - oy;
  for (let r = 0; r < rings; r++) {
    const a = i32At(rs, r);
    const b = i32At(rs, r + 1);
    let j = b - 1;
    for (let i = a; i < b; i++) {
      const yi = f64At(p, (i << 1) + 1);
      const yj = f64At(p, (j << 1) + 1);
      if ((yi > qy) != (yj > qy)) {
        const xi = f64At(p, i << 1);
        const xj = f64At(p, j << 1);
        const xCross = xj + ((qy - yj) * (xi - xj)) / (yi - yj);
        if (qx < xCross) inside = !inside;
      }
      j = i;
    }
  }
  return inside;
}

/** Signed area of one ring (counter-clockwise positive). */
export function ringArea(pts: Float64Array, from: i32, to: i32): f64 {
  let s: f64 = 0;
  let j = to - 1;
  for (let i = from; i < to; i++) {
    s += unchecked(pts[j << 1]) * unchecked(pts[(i << 1) + 1]) - unchecked(pts[i << 1]) * unchecked(pts[(j << 1) + 1]);
    j = i;
  }
  return s * 0.5;
}

/** cos and sin of an angle in degrees, exact at multiples of 90 so right-angle turns stay exact. */
export function cosSinDeg(deg: f64): StaticArray<f64> {
  const out = new StaticArray<f64>(2);
  const q = deg / 90.0;
  if (q == Math.floor(q)) {
    let k = <i32>(q % 4.0);
    if (k < 0) k += 4;
    out[0] = k == 0 ? 1.0 : k == 2 ? -1.0 : 0.0;
    out[1] = k == 1 ? 1.0 : k == 3 ? -1.0 : 0.0;
    return out;
  }
  const a = (deg * Math.PI) / 180.0;
  out[0] = Math.cos(a);
  out[1] = Math.sin(a);
  return out;
}
