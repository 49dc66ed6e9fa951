// The flat input (declared in nesting/format.ts, which the service's boundary imports too):
//   header  [version, nStock, nTypes, gapParts, gapEdge, seed, budgetMs, effort, roll, noSheetCompaction, stopRule, 0]
//   stock   nStock x [x0, y0, x1, y1, q (-1 = as many as needed), area]   usable region per sheet
//   types   per type: q, nAngles, mirror (0/1), nAllowed, allowed stock rows..., angles...,
//           nRings, then per ring: nPoints, x0, y0, x1, y1, ...   (ring 0 the outline)
// `roll` 1: stock is open-ended along x (x1 caps it) and the objective is the used length.
// `stopRule` 0: stop at the effort limit; 1: the stall rule past it (search/work-limit.ts).

import { Shape } from "./collision/shape";
import * as F from "./format";

export class Stock {
  x0: f64; y0: f64; x1: f64; y1: f64;
  /** -1: as many as needed. */
  q: i32;
  area: f64;
}

export class PartType {
  q: i32;
  /** One shape per allowed orientation (angles, then their mirror images). */
  shapes: Array<Shape> = new Array<Shape>();
  /** allowed[s]: this part may be cut from stock row s. */
  allowed: Uint8Array = new Uint8Array(0);
  area: f64 = 0;
  /** Smallest bounding-box side over the orientations: sets the placement step. */
  minSide: f64 = Infinity;
}

export class Instance {
  stock: Array<Stock> = new Array<Stock>();
  types: Array<PartType> = new Array<PartType>();
  /** Clearance between parts, and from the usable region's edge, as the collision test applies them: the part clearance with a hair added, the edge one a few hairs less. */
  gap: f64 = 0;
  edge: f64 = 0;
  seed: f64 = 1;
  budgetMs: f64 = 0;
  /** Evaluations before the search stops (0: only the budget stops it). */
  effort: f64 = 0;
  /** STOP_AT_EFFORT or STOP_ON_STALL (search/work-limit.ts). */
  stopRule: i32 = 0;
  roll: bool = false;
  /** Sheets: free the last sheet by fitting its parts into the earlier ones (search/empty-last.ts). */
  sheetCompaction: bool = true;
  /** Rounding margin: a billionth of the scale. */
  hair: f64 = 0;
  /** Largest usable extent: the length scale for margins and steps. */
  scale: f64 = 1;
}

/** Decodes the flat input; null when it is malformed (the host validated it already). */
export function decode(a: Float64Array): Instance | null {
  if (a.length < F.HEADER_LEN || a[F.H_VERSION] != <f64>F.FORMAT_VERSION) return null;
  const inst = new Instance();
  const nStock = <i32>a[F.H_NSTOCK];
  const nTypes = <i32>a[F.H_NTYPES];
  inst.seed = a[F.H_SEED];
  inst.budgetMs = a[F.H_BUDGET];
  inst.effort = a[F.H_EFFORT];
  inst.roll = a[F.H_ROLL] == 1;
  inst.sheetCompaction = a[F.H_NO_SHEET_COMPACTION] != 1;
  let p = F.HEADER_LEN;
  inst.stopRule = a[F.H_STOP_RULE] == 1 ? 1 : 0;
  let scale: f64 = 0;
  for (let s = 0; s < nStock; s++) {
    const st = new Stock();
    st.x0 = a[p + F.S_X0]; st.y0 = a[p + F.S_Y0]; st.x1 = a[p + F.S_X1]; st.y1 = a[p + F.S_Y1];
    st.q = <i32>a[p + F.S_Q];
    st.area = a[p + F.S_AREA];
    p += F.STOCK_STRIDE;
    scale = Math.max(scale, st.y1 - st.y0);
    if (!inst.roll) scale = Math.max(scale, st.x1 - st.x0);
    inst.stock.push(st);
  }
  inst.scale = scale > 0 ? scale : 1;
  // The collision test wants a hair more than the clearance (so that parts whose edges merely
  // run along each other's still collide when they overlap), and the collision rings sit two
  // hairs inside the true outlines, so that parts laid exactly the clearance apart, or in a
  // slot of exactly their width, do not collide through rounding (collision/shape.ts). The edge
  // may likewise be overshot by a few hairs.
  const hair = inst.scale * 1e-9;
  inst.hair = hair;
  inst.gap = a[F.H_GAP_PARTS] + hair;
  inst.edge = a[F.H_GAP_EDGE] - hair * 10;
  for (let t = 0; t < nTypes; t++) {
    if (p + F.TYPE_HEADER > a.length) return null;
    const type = new PartType();
    type.q = <i32>a[p + F.T_Q];
    const nAngles = <i32>a[p + F.T_NANGLES];
    const mirror = a[p + F.T_MIRROR] == 1;
    const nAllowed = <i32>a[p + F.T_NALLOWED];
    p += F.TYPE_HEADER;
    type.allowed = new Uint8Array(nStock);
    for (let k = 0; k < nAllowed; k++) type.allowed[<i32>a[p + k]] = 1;
    p += nAllowed;
    const angles = new Float64Array(nAngles);
    for (let k = 0; k < nAngles; k++) angles[k] = a[p + k];
    p += nAngles;
    const nRings = <i32>a[p++];
    const ringStart = new Int32Array(nRings + 1);
    let total = 0;
    let q = p;
    for (let r = 0; r < nRings; r++) {
      const n = <i32>a[q];
      ringStart[r] = total;
      total += n;
      q += 1 + 2 * n;
    }
    ringStart[nRings] = total;
    const raw = new Float64Array(total * 2);
    let w = 0;
    for (let r = 0; r < nRings; r++) {
      const n = <i32>a[p++];
      for (let k = 0; k < 2 * n; k++) raw[w++] = a[p++];
    }
    const sides: i32 = mirror ? 2 : 1;
    for (let m = 0; m < sides; m++) {
      for (let k = 0; k < nAngles; k++) {
        const shape = new Shape(raw, ringStart, angles[k], m == 1, hair);
        type.shapes.push(shape);
        type.area = shape.area;
        type.minSide = Math.min(type.minSide, Math.min(shape.w, shape.h));
      }
    }
    inst.types.push(type);
  }
  return inst;
}
