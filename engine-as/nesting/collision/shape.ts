// A part in one orientation: its rings turned (and mirrored) and shifted so that the outline's
// bounding box starts at (0, 0). The collision test and the placement work on these only.

import { cosSinDeg, ringArea } from "../geometry/polygon";
import { poles } from "./poles";

export class Shape {
  /** Points of every ring, outline first; x, y pairs. */
  pts: Float64Array;
  /** Ring r spans points ringStart[r] .. ringStart[r + 1] - 1. */
  ringStart: Int32Array;
  /** Outline bounding box extent (the box starts at 0, 0). */
  w: f64;
  h: f64;
  /** Material area (outline less holes). */
  area: f64;
  /** Hole area: room for parts placed inside this one. */
  holeArea: f64;
  angle: f64;
  mirror: bool;
  cos: f64;
  sin: f64;
  /** Offset from the turned raw coordinates to these: placed = turned + (shiftX + x, shiftY + y). */
  shiftX: f64;
  shiftY: f64;
  /** Inscribed circles [cx, cy, r, ...] for the overlap proxy. */
  poles: Float64Array = new Float64Array(0);

  constructor(raw: Float64Array, ringStart: Int32Array, angle: f64, mirror: bool) {
    const cs = cosSinDeg(angle);
    const c = cs[0];
    const s = cs[1];
    const n = raw.length >> 1;
    const pts = new Float64Array(raw.length);
    for (let i = 0; i < n; i++) {
      let x = unchecked(raw[i << 1]);
      const y = unchecked(raw[(i << 1) + 1]);
      if (mirror) x = -x;
      unchecked((pts[i << 1] = x * c - y * s));
      unchecked((pts[(i << 1) + 1] = x * s + y * c));
    }
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const outlineEnd = unchecked(ringStart[1]);
    for (let i = 0; i < outlineEnd; i++) {
      const x = unchecked(pts[i << 1]);
      const y = unchecked(pts[(i << 1) + 1]);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    for (let i = 0; i < n; i++) {
      unchecked((pts[i << 1] -= minX));
      unchecked((pts[(i << 1) + 1] -= minY));
    }
    this.pts = pts;
    this.ringStart = ringStart;
    this.w = maxX - minX;
    this.h = maxY - minY;
    const outer = Math.abs(ringArea(pts, 0, outlineEnd));
    let holes: f64 = 0;
    for (let r = 1; r < ringStart.length - 1; r++) holes += Math.abs(ringArea(pts, ringStart[r], ringStart[r + 1]));
    this.area = outer - holes;
    this.holeArea = holes;
    this.angle = angle;
    this.mirror = mirror;
    this.cos = c;
    this.sin = s;
    this.shiftX = -minX;
    this.shiftY = -minY;
    this.poles = poles(pts, ringStart, this.w, this.h, 8);
  }
}
