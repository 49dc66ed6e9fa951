// Overlap bookkeeping for a separation (after sparrow's collision tracker): per pair of parts
// how much they overlap (0 = apart, decided by the exact test) and a weight that grows while
// the pair keeps colliding (guided local search). Moving one part recomputes only its row,
// so the total and the colliding parts are always at hand.

import { collides, conflict } from "../collision/overlap";
import { penetration, polesMeet } from "../collision/poles";
import { Shape } from "../collision/shape";
import { f64At, i32At, refAt, setI32At } from "../geometry/raw";
import { Parts } from "./parts";

/**
 * n x n matrices of trackers that are done (release), for the next tracker of that size: a
 * solve never frees memory (stub runtime, see nesting.ts), and fitting parts into sheets
 * builds trackers try after try.
 */
const spareMatrices = new Array<Float64Array>(0);

/** An n x n matrix filled with `value`, a spare one when there is one of that size. */
function matrix(n: i32, value: f64): Float64Array {
  const len = n * n;
  for (let k = spareMatrices.length - 1; k >= 0; k--) {
    const m = spareMatrices[k];
    if (m.length != len) continue;
    spareMatrices[k] = spareMatrices[spareMatrices.length - 1];
    spareMatrices.pop();
    m.fill(value);
    return m;
  }
  const m = new Float64Array(len);
  if (value != 0) m.fill(value);
  return m;
}

const GROWTH_MIN: f64 = 1.2;
const GROWTH_MAX: f64 = 2.0;
const DECAY: f64 = 0.95;

/**
 * How much two placed shapes overlap: 0 when the exact test finds them clear (gap kept),
 * else a positive measure from their inner circles that falls as they draw apart.
 */
export function pairOverlap(a: Shape, ax: f64, ay: f64, b: Shape, bx: f64, by: f64, gap: f64): f64 {
  return collides(a, ax, ay, b, bx, by, gap) ? proxy(a, ax, ay, b, bx, by) : 0;
}

/**
 * Overlap measure of two shapes known to collide (always > 0), or Infinity as soon as it is
 * sure to exceed `room`: a pose scorer only needs to know that it is past its limit.
 */
@inline
function proxy(a: Shape, ax: f64, ay: f64, b: Shape, bx: f64, by: f64, room: f64 = Infinity): f64 {
  const eps = 0.01 * Math.max(a.diameter, b.diameter);
  const r = room / (a.sizeWeight * b.sizeWeight);
  // A tenth of a percent of slack covers the single-precision sum.
  const bound = r * r * 1.001 - eps * eps;
  return Math.sqrt(penetration(a.poleLanes, ax, ay, b.poleLanes, bx, by, eps, bound) + eps * eps) * a.sizeWeight * b.sizeWeight;
}

export class OverlapTracker {
  n: i32;
  gap: f64;
  /** n x n, symmetric. */
  overlap: Float64Array;
  weight: Float64Array;
  /** Per part: how many parts it collides with. */
  hits: Int32Array;
  /** Colliding pairs, and the sum of their overlaps. */
  pairs: i32 = 0;
  total: f64 = 0;
  /** Scratch: parts a pose needs the exact test against. */
  private unsure: Int32Array;
  /** Scratch: parts whose boxes a pose reaches. */
  private near: Int32Array;

  constructor(n: i32, gap: f64) {
    this.n = n;
    this.gap = gap;
    this.overlap = matrix(n, 0);
    this.hits = new Int32Array(n);
    this.unsure = new Int32Array(n);
    this.near = new Int32Array(n);
    this.weight = matrix(n, 1.0);
  }

  /** Gives the matrices back for the next tracker; this one must not be used after. */
  release(): void {
    spareMatrices.push(this.overlap);
    spareMatrices.push(this.weight);
  }

  /** Takes over another tracker's overlaps (same parts); the weights stay: a sweep does not change them. */
  copyOverlapsFrom(o: OverlapTracker): void {
    this.overlap.set(o.overlap);
    this.hits.set(o.hits);
    this.pairs = o.pairs;
    this.total = o.total;
  }

  /** Sum over colliding pairs of overlap times weight: what a sweep minimises. */
  weightedTotal(): f64 {
    const n = this.n;
    const ov = this.overlap;
    const w = this.weight;
    let t: f64 = 0;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) t += unchecked(ov[p * n + q]) * unchecked(w[p * n + q]);
    }
    return t;
  }

  resetWeights(): void {
    this.weight.fill(1.0);
  }

  /** Recomputes every pair (after a restore or a change of the strip). */
  rebuild(parts: Parts): void {
    const n = this.n;
    this.overlap.fill(0);
    this.hits.fill(0);
    this.pairs = 0;
    this.total = 0;
    for (let p = 0; p < n; p++) {
      const a = parts.shape(p);
      const ax = unchecked(parts.xs[p]);
      const ay = unchecked(parts.ys[p]);
      for (let q = p + 1; q < n; q++) {
        const o = pairOverlap(a, ax, ay, parts.shape(q), unchecked(parts.xs[q]), unchecked(parts.ys[q]), this.gap);
        if (o == 0) continue;
        this.overlap[p * n + q] = o;
        this.overlap[q * n + p] = o;
        this.hits[p]++;
        this.hits[q]++;
        this.pairs++;
        this.total += o;
      }
    }
  }

  /** Part p moved: recomputes its row. */
  moved(parts: Parts, p: i32): void {
    const n = this.n;
    const a = parts.shape(p);
    const ax = unchecked(parts.xs[p]);
    const ay = unchecked(parts.ys[p]);
    const ov = this.overlap;
    const row = p * n;
    for (let q = 0; q < n; q++) {
      if (q == p) continue;
      const was = unchecked(ov[row + q]);
      const o = pairOverlap(a, ax, ay, parts.shape(q), unchecked(parts.xs[q]), unchecked(parts.ys[q]), this.gap);
      if (o == was) continue;
      unchecked((ov[row + q] = o));
      unchecked((ov[q * n + p] = o));
      this.total += o - was;
      if (was == 0) {
        this.hits[p]++;
        this.hits[q]++;
        this.pairs++;
      } else if (o == 0) {
        this.hits[p]--;
        this.hits[q]--;
        this.pairs--;
      }
    }
    // Rounding must not leave a trace of overlap once every pair is clear.
    if (this.pairs == 0) this.total = 0;
  }

  /**
   * Fills `near` with the parts other than p whose boxes reach into (left, right) x (bottom,
   * top), in index order; returns how many. Two boxes per compare.
   */
  @inline
  private boxesReached(parts: Parts, p: i32, left: f64, bottom: f64, right: f64, top: f64): i32 {
    const n = this.n;
    const near = this.near.dataStart;
    const xs = parts.xs.dataStart;
    const ys = parts.ys.dataStart;
    const ws = parts.ws.dataStart;
    const hs = parts.hs.dataStart;
    const vLeft = f64x2.splat(left);
    const vBottom = f64x2.splat(bottom);
    const vRight = f64x2.splat(right);
    const vTop = f64x2.splat(top);
    let found = 0;
    let q = 0;
    for (; q + 1 < n; q += 2) {
      const off = (<usize>q) << 3;
      const ox = v128.load(xs + off);
      const oy = v128.load(ys + off);
      const reach = v128.and(
        v128.and(f64x2.lt(ox, vRight), f64x2.lt(oy, vTop)),
        v128.and(f64x2.gt(f64x2.add(ox, v128.load(ws + off)), vLeft), f64x2.gt(f64x2.add(oy, v128.load(hs + off)), vBottom)),
      );
      if (!v128.any_true(reach)) continue;
      if (i64x2.extract_lane(reach, 0) != 0 && q != p) setI32At(near, found++, q);
      if (i64x2.extract_lane(reach, 1) != 0 && q + 1 != p) setI32At(near, found++, q + 1);
    }
    if (q < n && q != p && f64At(xs, q) < right && f64At(ys, q) < top && f64At(xs, q) + f64At(ws, q) > left && f64At(ys, q) + f64At(hs, q) > bottom) {
      setI32At(near, found++, q);
    }
    return found;
  }

  /**
   * Weighted overlap of part p as `s` at (x, y) with the others; stops early once past
   * `limit`. Pairs whose inner circles already meet are counted first, so a bad pose is
   * usually rejected before any exact test; the others then need one.
   */
  cost(parts: Parts, p: i32, s: Shape, x: f64, y: f64, limit: f64): f64 {
    const n = this.n;
    const gap = this.gap;
    const w = this.weight.dataStart + ((<usize>(p * n)) << 3);
    const unsure = this.unsure.dataStart;
    const xs = parts.xs.dataStart;
    const ys = parts.ys.dataStart;
    const cur = parts.cur.dataStart;
    const inside = s.polesInside;
    const lanes = s.poleLanes;
    const near = this.near.dataStart;
    const found = this.boxesReached(parts, p, x - gap, y - gap, x + s.w + gap, y + s.h + gap);
    let m = 0;
    let c: f64 = 0;
    for (let k = 0; k < found; k++) {
      const q = i32At(near, k);
      const ox = f64At(xs, q);
      const oy = f64At(ys, q);
      const o = refAt<Shape>(cur, q);
      if (inside && o.polesInside && polesMeet(lanes, x, y, o.poleLanes, ox, oy, gap)) {
        c += f64At(w, q) * proxy(s, x, y, o, ox, oy, (limit - c) / f64At(w, q));
        if (c > limit) return c;
      } else {
        setI32At(unsure, m++, q);
      }
    }
    for (let k = 0; k < m; k++) {
      const q = i32At(unsure, k);
      const o = refAt<Shape>(cur, q);
      const ox = f64At(xs, q);
      const oy = f64At(ys, q);
      if (!conflict(s, x, y, o, ox, oy, gap)) continue;
      c += f64At(w, q) * proxy(s, x, y, o, ox, oy, (limit - c) / f64At(w, q));
      if (c > limit) return c;
    }
    return c;
  }

  /** Grows the weights of colliding pairs, the deepest the most; relaxes the others towards 1. */
  grow(): void {
    const n = this.n;
    const ov = this.overlap;
    const w = this.weight;
    let deepest: f64 = 0;
    for (let k = 0; k < n * n; k++) deepest = Math.max(deepest, unchecked(ov[k]));
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const k = p * n + q;
        const o = unchecked(ov[k]);
        let v = unchecked(w[k]);
        if (o > 0) v *= GROWTH_MIN + (GROWTH_MAX - GROWTH_MIN) * (o / deepest);
        else if (v > 1) v = Math.max(1.0, v * DECAY);
        else continue;
        unchecked((w[k] = v));
        unchecked((w[q * n + p] = v));
      }
    }
  }
}
