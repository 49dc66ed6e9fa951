// A part in one orientation: its rings turned (and mirrored) and shifted so that the outline's
// bounding box starts at (0, 0). The collision test and the placement work on these only.

import { cosSinDeg, ringArea } from "../geometry/polygon";
import { PoleLanes, poles } from "./poles";

export const EDGE_STRIDE = 8;
/** Edges per chunk: the conflict test skips every edge of a chunk whose box misses its window. */
export const CHUNK_EDGES = 8;
export const CONTACT_STRIDE = 6;
/** Most an inset corner moves, in multiples of the inset (sharp corners would move far). */
const MITER_CAP: f64 = 10;
const EMPTY_LANES = new PoleLanes(new Float64Array(0));

/**
 * Per edge of every ring (from the previous point to the next), CONTACT_STRIDE values: its
 * ends x1, y1, x2, y2 and its unit normal pointing out of the material (into a hole for a
 * hole's edges). The winding of each ring decides which side that is.
 */
function contactEdges(pts: Float64Array, ringStart: Int32Array): Float64Array {
  const out = new Float64Array((pts.length >> 1) * CONTACT_STRIDE);
  let k = 0;
  for (let r = 0; r < ringStart.length - 1; r++) {
    const a = ringStart[r];
    const b = ringStart[r + 1];
    // Right of the direction of travel is outside a counter-clockwise outline; holes the other way.
    const flip: f64 = (ringArea(pts, a, b) > 0) == (r == 0) ? 1.0 : -1.0;
    let j = b - 1;
    for (let i = a; i < b; i++) {
      const x1 = pts[j << 1], y1 = pts[(j << 1) + 1];
      const x2 = pts[i << 1], y2 = pts[(i << 1) + 1];
      const len = Math.sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1));
      out[k] = x1;
      out[k + 1] = y1;
      out[k + 2] = x2;
      out[k + 3] = y2;
      out[k + 4] = len > 0 ? (flip * (y2 - y1)) / len : 0;
      out[k + 5] = len > 0 ? (-flip * (x2 - x1)) / len : 0;
      k += CONTACT_STRIDE;
      j = i;
    }
  }
  return out;
}

/**
 * The rings moved in by `d` along their edges' normals (`contacts`): each vertex where its two
 * moved edges meet, the shift capped at MITER_CAP times d at sharp corners.
 */
function insetRings(pts: Float64Array, ringStart: Int32Array, contacts: Float64Array, d: f64): Float64Array {
  const out = new Float64Array(pts.length);
  for (let r = 0; r < ringStart.length - 1; r++) {
    const a = ringStart[r];
    const b = ringStart[r + 1];
    for (let i = a; i < b; i++) {
      // Edge i runs from the previous point to point i, the next edge on from it.
      const into = i * CONTACT_STRIDE + 4;
      const from = (i + 1 < b ? i + 1 : a) * CONTACT_STRIDE + 4;
      const mx = contacts[into] + contacts[from];
      const my = contacts[into + 1] + contacts[from + 1];
      const m2 = mx * mx + my * my;
      // (n1 + n2) / (1 + n1 . n2) has length 1 / cos(half the turn): 2 (mx, my) / m2.
      let k = m2 > 0 ? (2.0 * d) / m2 : 0;
      if (k * Math.sqrt(m2) > MITER_CAP * d) k = (MITER_CAP * d) / Math.sqrt(m2);
      out[i << 1] = pts[i << 1] - k * mx;
      out[(i << 1) + 1] = pts[(i << 1) + 1] - k * my;
    }
  }
  return out;
}

/** The edges of `contactEdges` with their boxes, in the Shape.edges layout. */
function edgeList(contacts: Float64Array): Float64Array {
  const n = contacts.length / CONTACT_STRIDE;
  const out = new Float64Array(n * EDGE_STRIDE);
  for (let e = 0; e < n; e++) {
    const c = e * CONTACT_STRIDE;
    const k = e * EDGE_STRIDE;
    const x1 = contacts[c], y1 = contacts[c + 1];
    const x2 = contacts[c + 2], y2 = contacts[c + 3];
    out[k] = x1;
    out[k + 1] = y1;
    out[k + 2] = x2;
    out[k + 3] = y2;
    out[k + 4] = Math.min(x1, x2);
    out[k + 5] = Math.max(x1, x2);
    out[k + 6] = Math.min(y1, y2);
    out[k + 7] = Math.max(y1, y2);
  }
  return out;
}

/** Per run of CHUNK_EDGES edges of `edgeList` (in its order), the box around their boxes: minX, maxX, minY, maxY. */
function chunkBoxes(edges: Float64Array): Float64Array {
  const n = edges.length / EDGE_STRIDE;
  const out = new Float64Array(((n + CHUNK_EDGES - 1) / CHUNK_EDGES) * 4);
  for (let e = 0; e < n; e++) {
    const k = e * EDGE_STRIDE;
    const c = (e / CHUNK_EDGES) * 4;
    const first = e % CHUNK_EDGES == 0;
    out[c] = first ? edges[k + 4] : Math.min(out[c], edges[k + 4]);
    out[c + 1] = first ? edges[k + 5] : Math.max(out[c + 1], edges[k + 5]);
    out[c + 2] = first ? edges[k + 6] : Math.min(out[c + 2], edges[k + 6]);
    out[c + 3] = first ? edges[k + 7] : Math.max(out[c + 3], edges[k + 7]);
  }
  return out;
}

export class Shape {
  /** Points of every ring, outline first, x, y pairs: the collision rings, `inset` inside the true ones. */
  pts: Float64Array;
  /**
   * How far the collision rings lie inside the true outline: two hairs (instance.ts), so parts
   * laid flush, or in a slot of exactly their width, do not collide through rounding.
   */
  inset: f64;
  /** Ring r spans points ringStart[r] .. ringStart[r + 1] - 1. */
  ringStart: Int32Array;
  /** Every ring's edges, EDGE_STRIDE values each: x1, y1, x2, y2, then the edge's box minX, maxX, minY, maxY. */
  edges: Float64Array = new Float64Array(0);
  /** Per edge its true ends x1, y1, x2, y2 and unit normal out of the material nx, ny (contacts in the placement search). */
  contacts: Float64Array = new Float64Array(0);
  /** chunkBoxes(edges), and how many there are. */
  chunks: Float64Array = new Float64Array(0);
  chunkCount: i32 = 0;
  /** edges.length, kept as a field for the hot loops. */
  edgeValues: i32 = 0;
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
  /** Circles for the overlap proxy and the quick conflict test; inside the material when `polesInside`. */
  poleLanes: PoleLanes = EMPTY_LANES;
  polesInside: bool = true;
  /** Box diagonal: sets the proxy's decay scale. */
  diameter: f64;
  /** Fourth root of the outline area: pairs of large parts weigh more in the overlap proxy (after sparrow). */
  sizeWeight: f64;

  constructor(raw: Float64Array, ringStart: Int32Array, angle: f64, mirror: bool, hair: f64) {
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
    const w = maxX - minX;
    const h = maxY - minY;
    const contacts = contactEdges(pts, ringStart);
    const inner = insetRings(pts, ringStart, contacts, 2 * hair);
    this.pts = inner;
    this.inset = 2 * hair;
    this.contacts = contacts;
    this.w = w;
    this.h = h;
    this.ringStart = ringStart;
    this.edges = edgeList(contactEdges(inner, ringStart));
    this.edgeValues = this.edges.length;
    this.chunks = chunkBoxes(this.edges);
    this.chunkCount = this.chunks.length >> 2;
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
    this.diameter = Math.sqrt(this.w * this.w + this.h * this.h);
    this.sizeWeight = Math.sqrt(Math.sqrt(outer));
    let circles = poles(pts, ringStart, this.w, this.h);
    if (circles.length == 0) {
      // A sliver no grid point falls into: one circle in the middle stands in for it.
      circles = new Float64Array(3);
      circles[0] = this.w * 0.5;
      circles[1] = this.h * 0.5;
      circles[2] = Math.min(this.w, this.h) * 0.25;
      this.polesInside = false;
    }
    this.poleLanes = new PoleLanes(circles);
  }
}
