// Exact pairwise conflict test with clearance: two placed shapes conflict when any edge of
// one comes closer than `gap` to an edge of the other, or when one lies in the other's
// material (a part inside another's hole does not). Bounding boxes and per-edge boxes cut
// the work before any segment distance is computed.

import { inMaterial, segmentDist2 } from "../geometry/polygon";
import { Shape } from "./shape";

export function conflict(a: Shape, ax: f64, ay: f64, b: Shape, bx: f64, by: f64, gap: f64): bool {
  // Boxes further apart than the gap cannot conflict.
  if (ax >= bx + b.w + gap || bx >= ax + a.w + gap || ay >= by + b.h + gap || by >= ay + a.h + gap) return false;
  const ap0 = a.pts;
  const bp0 = b.pts;
  // Deep overlaps are the common case while scanning: a corner inside the other's material
  // settles it in linear time, before the quadratic edge pass.
  if (inMaterial(unchecked(ap0[0]) + ax, unchecked(ap0[1]) + ay, bp0, b.ringStart, bx, by)) return true;
  if (inMaterial(unchecked(bp0[0]) + bx, unchecked(bp0[1]) + by, ap0, a.ringStart, ax, ay)) return true;
  const gap2 = gap * gap;
  // The window where edges of each shape can come within the gap of the other's box.
  const loX = Math.max(ax, bx) - gap;
  const hiX = Math.min(ax + a.w, bx + b.w) + gap;
  const loY = Math.max(ay, by) - gap;
  const hiY = Math.min(ay + a.h, by + b.h) + gap;
  const ap = a.pts;
  const bp = b.pts;
  const ar = a.ringStart;
  const br = b.ringStart;
  const aRings = ar.length - 1;
  const bRings = br.length - 1;
  for (let ra = 0; ra < aRings; ra++) {
    const a0 = unchecked(ar[ra]);
    const a1 = unchecked(ar[ra + 1]);
    let pa = a1 - 1;
    for (let ia = a0; ia < a1; ia++) {
      const p1x = unchecked(ap[pa << 1]) + ax;
      const p1y = unchecked(ap[(pa << 1) + 1]) + ay;
      const p2x = unchecked(ap[ia << 1]) + ax;
      const p2y = unchecked(ap[(ia << 1) + 1]) + ay;
      pa = ia;
      const eMinX = Math.min(p1x, p2x), eMaxX = Math.max(p1x, p2x);
      const eMinY = Math.min(p1y, p2y), eMaxY = Math.max(p1y, p2y);
      if (eMaxX < loX || eMinX > hiX || eMaxY < loY || eMinY > hiY) continue;
      for (let rb = 0; rb < bRings; rb++) {
        const b0 = unchecked(br[rb]);
        const b1 = unchecked(br[rb + 1]);
        let pb = b1 - 1;
        for (let ib = b0; ib < b1; ib++) {
          const q1x = unchecked(bp[pb << 1]) + bx;
          const q1y = unchecked(bp[(pb << 1) + 1]) + by;
          const q2x = unchecked(bp[ib << 1]) + bx;
          const q2y = unchecked(bp[(ib << 1) + 1]) + by;
          pb = ib;
          if (Math.max(q1x, q2x) < eMinX - gap || Math.min(q1x, q2x) > eMaxX + gap) continue;
          if (Math.max(q1y, q2y) < eMinY - gap || Math.min(q1y, q2y) > eMaxY + gap) continue;
          if (segmentDist2(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y) < gap2) return true;
        }
      }
    }
  }
  // No edges close and neither corner inside the other: apart.
  return false;
}
