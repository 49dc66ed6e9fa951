// Inscribed circles ("poles of inaccessibility") of a shape, used to say how deeply two
// colliding parts overlap: the sum over circle pairs of how far they interpenetrate. The
// exact test decides whether parts collide; this proxy only ranks how badly (after sparrow).

import { inMaterial, pointSegmentDist2 } from "../geometry/polygon";
import { f32At, f64At } from "../geometry/raw";

const GRID = 32;
/**
 * How many circles a shape gets (sparrow's limits): FEW_POLES when they cover FEW_COVER of its
 * material, else SOME_POLES when they cover SOME_COVER, else more, up to MAX_POLES, for shapes
 * that circles fit badly (arms, notches): a collision of their arms would otherwise hardly
 * show in the overlap proxy.
 */
const FEW_POLES = 8;
const FEW_COVER: f64 = 0.9;
const SOME_POLES = 16;
const SOME_COVER: f64 = 0.8;
const MAX_POLES = 64;

/** Circles per shape the quick conflict test looks at (the first are the largest); fits two lanes twice. */
const MEET_POLES = 4;

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

/**
 * Circles [cx, cy, r, ...], each inside the material: the grid point deepest in it and
 * furthest from the circles before, until they cover enough of the material (share of the
 * material grid points inside a circle). Empty when no grid point lies in the material.
 * Each grid point keeps the largest radius it may still take (its room), cut down as circles
 * are chosen.
 */
export function poles(pts: Float64Array, ringStart: Int32Array, w: f64, h: f64): Float64Array {
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
  const covered = new Uint8Array(nc);
  let nCovered = 0;
  for (let k = 0; k < MAX_POLES; k++) {
    if (k >= FEW_POLES && <f64>nCovered >= FEW_COVER * <f64>nc) break;
    if (k >= SOME_POLES && <f64>nCovered >= SOME_COVER * <f64>nc) break;
    let bestScore: f64 = 0;
    let best = -1;
    for (let c = 0; c < nc; c++) {
      if (cand[3 * c + 2] > bestScore) {
        bestScore = cand[3 * c + 2];
        best = c;
      }
    }
    if (best < 0 || bestScore <= 0) break;
    const bx = cand[3 * best];
    const by = cand[3 * best + 1];
    out.push(bx);
    out.push(by);
    out.push(bestScore);
    for (let c = 0; c < nc; c++) {
      const dx = cand[3 * c] - bx;
      const dy = cand[3 * c + 1] - by;
      const d2 = dx * dx + dy * dy;
      // A circle may not reach into one already chosen by more than half of itself.
      const room = Math.sqrt(d2) - bestScore * 0.5;
      if (room < cand[3 * c + 2]) cand[3 * c + 2] = room;
      if (!covered[c] && d2 <= bestScore * bestScore) {
        covered[c] = 1;
        nCovered++;
      }
    }
  }
  const a = new Float64Array(out.length);
  for (let i = 0; i < out.length; i++) a[i] = out[i];
  return a;
}

/** Circles laid out for four-lane arithmetic: x, y and r apart, padded to a multiple of 4 with far-off circles of radius 0. */
export class PoleLanes {
  x: Float32Array;
  y: Float32Array;
  r: Float32Array;
  count: i32;
  /** count rounded up to a multiple of 4. */
  lanes: i32;
  /** The first MEET_POLES circles (the largest) in double precision, radii a hair smaller, for polesMeet. */
  meetX: Float64Array = new Float64Array(MEET_POLES);
  meetY: Float64Array = new Float64Array(MEET_POLES);
  meetR: Float64Array = new Float64Array(MEET_POLES);
  constructor(poles: Float64Array) {
    const count = poles.length / 3;
    const padded = (count + 3) & ~3;
    this.count = count;
    this.lanes = padded;
    this.x = new Float32Array(padded);
    this.y = new Float32Array(padded);
    this.r = new Float32Array(padded);
    for (let k = 0; k < padded; k++) {
      this.x[k] = k < count ? <f32>poles[3 * k] : <f32>1e18;
      this.y[k] = k < count ? <f32>poles[3 * k + 1] : <f32>1e18;
      this.r[k] = k < count ? <f32>poles[3 * k + 2] : 0;
    }
    for (let k = 0; k < MEET_POLES; k++) {
      this.meetX[k] = k < count ? poles[3 * k] : 1e150;
      this.meetY[k] = k < count ? poles[3 * k + 1] : 1e150;
      this.meetR[k] = k < count ? poles[3 * k + 2] * 0.999999 : 0;
    }
  }
}

/**
 * How deeply two placed shapes' circles interpenetrate: per circle pair the penetration
 * depth times the smaller radius, where shallow or missing penetration decays smoothly to a
 * small positive value (after sparrow), so the proxy is never 0 and still falls as the
 * circles draw apart. Single precision, four pairs at a time: it only ranks overlaps.
 * Every term is positive, so once the sum so far passes `bound` the whole does too: then it
 * stops and returns Infinity.
 */
export function penetration(a: PoleLanes, ax: f64, ay: f64, b: PoleLanes, bx: f64, by: f64, eps: f64, bound: f64 = Infinity): f64 {
  // In b's frame: a's circles shifted by a's offset from b.
  const ox = <f32>(ax - bx);
  const oy = <f32>(ay - by);
  const e = <f32>eps;
  const vEps = f32x4.splat(e);
  const v2Eps = f32x4.splat(e + e);
  const vEps2 = f32x4.splat(e * e);
  let acc = f32x4.splat(0);
  const bx4 = b.x.dataStart;
  const by4 = b.y.dataStart;
  const br4 = b.r.dataStart;
  const lanes = b.lanes;
  const ax1 = a.x.dataStart;
  const ay1 = a.y.dataStart;
  const ar1 = a.r.dataStart;
  const na = a.count;
  for (let i = 0; i < na; i++) {
    const xa = f32x4.splat(f32At(ax1, i) + ox);
    const ya = f32x4.splat(f32At(ay1, i) + oy);
    const ra = f32x4.splat(f32At(ar1, i));
    for (let j = 0; j < lanes; j += 4) {
      const off = <usize>j << 2;
      const rb = v128.load(br4 + off);
      const dx = f32x4.sub(v128.load(bx4 + off), xa);
      const dy = f32x4.sub(v128.load(by4 + off), ya);
      const d = f32x4.sqrt(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)));
      const pd = f32x4.sub(f32x4.add(ra, rb), d);
      const decay = f32x4.div(vEps2, f32x4.sub(v2Eps, pd));
      const depth = v128.bitselect(pd, decay, f32x4.ge(pd, vEps));
      // pmin is one instruction; min's rules for NaN and -0 cost several, and radii have neither.
      acc = f32x4.add(acc, f32x4.mul(depth, f32x4.pmin(ra, rb)));
    }
    if ((i & 3) == 3 && <f64>(f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 1) + f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3)) > bound) return Infinity;
  }
  return <f64>(f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 1) + f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3));
}

/**
 * True when one of the largest few circles of one shape comes within `gap` of one of the
 * other's. The circles lie inside the material, so the shapes then surely conflict: a cheap
 * positive answer that spares the exact test for deep overlaps. Double precision, with radii
 * a hair below the true ones, so rounding can never claim a conflict that is not there.
 */
export function polesMeet(a: PoleLanes, ax: f64, ay: f64, b: PoleLanes, bx: f64, by: f64, gap: f64): bool {
  const ox = ax - bx;
  const oy = ay - by;
  const px = b.meetX.dataStart;
  const py = b.meetY.dataStart;
  const pr = b.meetR.dataStart;
  const bx0 = v128.load(px);
  const bx1 = v128.load(px, 16);
  const by0 = v128.load(py);
  const by1 = v128.load(py, 16);
  const br0 = v128.load(pr);
  const br1 = v128.load(pr, 16);
  const na = Math.min(a.count, MEET_POLES);
  const axs = a.meetX.dataStart;
  const ays = a.meetY.dataStart;
  const ars = a.meetR.dataStart;
  for (let i = 0; i < na; i++) {
    const x = f64x2.splat(f64At(axs, i) + ox);
    const y = f64x2.splat(f64At(ays, i) + oy);
    const r = f64x2.splat(f64At(ars, i) + gap);
    const dx0 = f64x2.sub(bx0, x);
    const dy0 = f64x2.sub(by0, y);
    const dx1 = f64x2.sub(bx1, x);
    const dy1 = f64x2.sub(by1, y);
    const reach0 = f64x2.add(r, br0);
    const reach1 = f64x2.add(r, br1);
    const hit0 = f64x2.lt(f64x2.add(f64x2.mul(dx0, dx0), f64x2.mul(dy0, dy0)), f64x2.mul(reach0, reach0));
    const hit1 = f64x2.lt(f64x2.add(f64x2.mul(dx1, dx1), f64x2.mul(dy1, dy1)), f64x2.mul(reach1, reach1));
    if (v128.any_true(v128.or(hit0, hit1))) return true;
  }
  return false;
}
