// Strip compaction by overlap minimisation (after sparrow): from a feasible roll layout, cut
// the length by a small ratio, push the parts past it back inside (now overlapping), and
// move colliding parts to the sampled positions of least weighted overlap until none
// collide. Weights of pairs that keep colliding grow (the deeper, the faster) and relax
// once a pair is apart (guided local search), so the search leaves local minima. An attempt
// fails after a few strikes: stretches of sweeps in which the total overlap stopped falling.
// Success keeps the shorter layout; failure restores the last feasible one and shrinks less.
// Collisions are decided by the exact test, so a layout counted as feasible is feasible; the
// circle proxy only ranks how deep an overlap is. The same separation also fits parts into
// a fixed sheet (fitInside): it works on any subset of the layout's parts on one stock row.

import { Budget } from "../../common/clock";
import { Rng } from "../../common/rng";
import { conflict } from "../collision/overlap";
import { penetration } from "../collision/poles";
import { Shape } from "../collision/shape";
import { Layout } from "../construct/layout";

const GLOBAL_SAMPLES = 48;
const LOCAL_SAMPLES = 24;
/** Samples that put the part's box flush against another part's box or a strip wall. */
const SNAP_SAMPLES = 16;
/** Sweeps without a clear fall of the total overlap that make one strike. */
const STALE_SWEEPS = 25;
const MAX_STRIKES = 5;
/** Hard cap per attempt, so a slow attempt cannot eat the budget. */
const MAX_SWEEPS_PER_ATTEMPT = 600;
const GROWTH_MIN: f64 = 1.2;
const GROWTH_MAX: f64 = 2.0;
const DECAY: f64 = 0.95;

/** Overlap measure of two shapes the exact test found colliding (always > 0). */
function overlapProxy(a: Shape, ax: f64, ay: f64, b: Shape, bx: f64, by: f64): f64 {
  const eps = 0.01 * Math.min(Math.max(a.w, a.h), Math.max(b.w, b.h));
  return penetration(a.poles, ax, ay, b.poles, bx, by, eps);
}

/** Most parts the pair weights are kept for (n x n). */
export const MAX_COMPACT_ITEMS = 600;

export class Compactor {
  layout: Layout;
  rng: Rng;
  budget: Budget;
  n: i32;
  /** Layout order position of each part the compactor moves. */
  pos: Int32Array;
  shapes: Array<Array<Shape>>;
  sh: Int32Array = new Int32Array(0);
  xs: Float64Array = new Float64Array(0);
  ys: Float64Array = new Float64Array(0);
  weights: Float64Array = new Float64Array(0);
  /** Parts found colliding by the last weight update. */
  colliding: Array<i32> = new Array<i32>(0);
  private pairA: Array<i32> = new Array<i32>(0);
  private pairB: Array<i32> = new Array<i32>(0);
  private pairD: Array<f64> = new Array<f64>(0);
  private mark: Uint8Array = new Uint8Array(0);
  private near: Array<i32> = new Array<i32>(0);
  x0: f64; y0: f64; y1: f64;
  /** The stock's usable end along x (edge clearance kept). */
  x1: f64;
  length: f64;
  sweeps: i64 = 0;
  maxSweeps: i64;
  improved: i32 = 0;
  attempts: i32 = 0;

  /** All of the layout's parts on its first sheet's stock row, or the given positions on `stockRow`. */
  constructor(layout: Layout, rng: Rng, budget: Budget, maxSweeps: i64, positions: Int32Array | null = null, stockRow: i32 = -1) {
    this.layout = layout;
    this.rng = rng;
    this.budget = budget;
    this.maxSweeps = maxSweeps;
    const inst = layout.inst;
    let pos: Int32Array;
    if (positions === null) {
      pos = new Int32Array(layout.order.length);
      for (let p = 0; p < pos.length; p++) pos[p] = p;
    } else {
      pos = positions;
    }
    this.pos = pos;
    const n = pos.length;
    this.n = n;
    this.shapes = new Array<Array<Shape>>(n);
    this.sh = new Int32Array(n);
    this.xs = new Float64Array(n);
    this.ys = new Float64Array(n);
    for (let p = 0; p < n; p++) {
      this.shapes[p] = inst.types[layout.itemType[layout.order[pos[p]]]].shapes;
      this.sh[p] = layout.shapeOf[pos[p]];
      this.xs[p] = layout.xs[pos[p]];
      this.ys[p] = layout.ys[pos[p]];
    }
    this.weights = new Float64Array(n * n);
    this.mark = new Uint8Array(n);
    const st = inst.stock[stockRow >= 0 ? stockRow : layout.sheets[0].stock];
    this.x1 = st.x1 - inst.edge;
    this.x0 = st.x0 + inst.edge;
    this.y0 = st.y0 + inst.edge;
    this.y1 = st.y1 - inst.edge;
    this.length = this.usedTo();
  }

  usedTo(): f64 {
    let m = this.x0;
    for (let p = 0; p < this.n; p++) m = Math.max(m, this.xs[p] + this.shapes[p][this.sh[p]].w);
    return m;
  }

  private shape(p: i32): Shape {
    return unchecked(this.shapes[p])[unchecked(this.sh[p])];
  }

  /** Weighted overlap of part p as `s` at (x, y) with every other part; 0 = collides with none. */
  private cost(p: i32, s: Shape, x: f64, y: f64, limit: f64): f64 {
    const gap = this.layout.inst.gap;
    let c: f64 = 0;
    const n = this.n;
    const row = p * n;
    for (let q = 0; q < n; q++) {
      if (q == p) continue;
      const o = this.shape(q);
      const ox = unchecked(this.xs[q]);
      const oy = unchecked(this.ys[q]);
      if (x >= ox + o.w + gap || ox >= x + s.w + gap || y >= oy + o.h + gap || oy >= y + s.h + gap) continue;
      if (!conflict(s, x, y, o, ox, oy, gap)) continue;
      c += unchecked(this.weights[row + q]) * overlapProxy(s, x, y, o, ox, oy);
      if (c >= limit) return c;
    }
    return c;
  }

  /** Moves part p to the best of a few sampled positions (anywhere, and near where it is), refined by coordinate descent. */
  private move(p: i32, xMax: f64): void {
    const shapes = this.shapes[p];
    let bestS = this.sh[p];
    let bestX = this.xs[p];
    let bestY = this.ys[p];
    let best = this.cost(p, shapes[bestS], bestX, bestY, Infinity);
    if (best == 0) return;
    const rng = this.rng;
    const homeX = bestX;
    const homeY = bestY;
    for (let k = 0; k < GLOBAL_SAMPLES + LOCAL_SAMPLES; k++) {
      let si = bestS;
      let x: f64, y: f64;
      const local = k >= GLOBAL_SAMPLES;
      if (!local || rng.int(4) == 0) si = rng.int(shapes.length);
      const s = shapes[si];
      const hiX = xMax - s.w;
      const hiY = this.y1 - s.h;
      if (hiX < this.x0 || hiY < this.y0) continue;
      if (!local) {
        x = this.x0 + rng.float() * (hiX - this.x0);
        y = this.y0 + rng.float() * (hiY - this.y0);
      } else {
        // Around where the part stands, and around the best sample so far.
        const cx = (k & 1) == 0 ? homeX : bestX;
        const cy = (k & 1) == 0 ? homeY : bestY;
        const span = 0.5 * (1.0 - <f64>(k - GLOBAL_SAMPLES) / <f64>LOCAL_SAMPLES) + 0.02;
        x = cx + (rng.float() * 2 - 1) * s.w * span;
        y = cy + (rng.float() * 2 - 1) * s.h * span;
        x = Math.max(this.x0, Math.min(hiX, x));
        y = Math.max(this.y0, Math.min(hiY, y));
      }
      const c = this.cost(p, s, x, y, best);
      if (c < best) {
        best = c;
        bestS = si;
        bestX = x;
        bestY = y;
        if (c == 0) break;
      }
    }
    // Coordinate descent from the best sample: steps along x, y and the diagonals; a step
    // that helps grows, one that does not halves, down to a fine resolution.
    if (best > 0) {
      const s = shapes[bestS];
      const hiX = xMax - s.w;
      const hiY = this.y1 - s.h;
      let dx = s.w * 0.1;
      let dy = s.h * 0.1;
      const minDx = s.w * 0.001;
      const minDy = s.h * 0.001;
      for (let round = 0; round < 40 && best > 0 && (dx > minDx || dy > minDy); round++) {
        let moved = false;
        for (let d = 0; d < 8; d++) {
          const sx: f64 = d == 0 || d == 4 || d == 5 ? 1 : d == 1 || d == 6 || d == 7 ? -1 : 0;
          const sy: f64 = d == 2 || d == 4 || d == 6 ? 1 : d == 3 || d == 5 || d == 7 ? -1 : 0;
          const x = Math.max(this.x0, Math.min(hiX, bestX + sx * dx));
          const y = Math.max(this.y0, Math.min(hiY, bestY + sy * dy));
          const c = this.cost(p, s, x, y, best);
          if (c < best) {
            best = c;
            bestX = x;
            bestY = y;
            moved = true;
            break;
          }
        }
        if (moved) {
          dx *= 1.5;
          dy *= 1.5;
        } else {
          dx *= 0.5;
          dy *= 0.5;
        }
      }
    }
    // Then flush against an overlapping neighbour's box or a wall, the other coordinate
    // kept: exact contact positions that samples and descent never quite hit (straight-edged
    // parts need them to pack without gaps).
    if (best > 0) {
      const s = shapes[bestS];
      const hiX = xMax - s.w;
      const hiY = this.y1 - s.h;
      const gap = this.layout.inst.gap;
      const near = this.near;
      near.length = 0;
      for (let q = 0; q < this.n; q++) {
        if (q == p) continue;
        const o = this.shape(q);
        const ox = this.xs[q];
        const oy = this.ys[q];
        if (bestX >= ox + o.w + gap || ox >= bestX + s.w + gap || bestY >= oy + o.h + gap || oy >= bestY + s.h + gap) continue;
        near.push(q);
      }
      for (let k = 0; k < SNAP_SAMPLES && best > 0; k++) {
        let x = bestX;
        let y = bestY;
        const side = rng.int(4);
        if (near.length == 0 || rng.int(4) == 0) {
          if (side == 0) x = this.x0;
          else if (side == 1) x = hiX;
          else if (side == 2) y = this.y0;
          else y = hiY;
        } else {
          const q = near[rng.int(near.length)];
          const o = this.shape(q);
          if (side == 0) x = this.xs[q] + o.w + gap;
          else if (side == 1) x = this.xs[q] - s.w - gap;
          else if (side == 2) y = this.ys[q] + o.h + gap;
          else y = this.ys[q] - s.h - gap;
        }
        if (x < this.x0 || x > hiX || y < this.y0 || y > hiY) continue;
        const c = this.cost(p, s, x, y, best);
        if (c < best) {
          best = c;
          bestX = x;
          bestY = y;
        }
      }
    }
    this.sh[p] = bestS;
    this.xs[p] = bestX;
    this.ys[p] = bestY;
  }

  /**
   * Finds every colliding pair (fills `colliding`), grows their weights by 1.2 to 2 as their
   * overlap compares with the deepest one, relaxes the others towards 1; returns the total
   * unweighted overlap.
   */
  private updateWeights(): f64 {
    const n = this.n;
    const gap = this.layout.inst.gap;
    const w = this.weights;
    this.pairA.length = 0;
    this.pairB.length = 0;
    this.pairD.length = 0;
    this.mark.fill(0);
    let total: f64 = 0;
    let deepest: f64 = 0;
    for (let p = 0; p < n; p++) {
      const s = this.shape(p);
      const x = this.xs[p];
      const y = this.ys[p];
      for (let q = p + 1; q < n; q++) {
        const o = this.shape(q);
        const ox = unchecked(this.xs[q]);
        const oy = unchecked(this.ys[q]);
        if (conflict(s, x, y, o, ox, oy, gap)) {
          const d = overlapProxy(s, x, y, o, ox, oy);
          this.pairA.push(p);
          this.pairB.push(q);
          this.pairD.push(d);
          total += d;
          if (d > deepest) deepest = d;
          this.mark[p] = 1;
          this.mark[q] = 1;
        } else {
          const k = p * n + q;
          const v = unchecked(w[k]);
          if (v > 1) {
            const r = Math.max(1.0, v * DECAY);
            unchecked((w[k] = r));
            unchecked((w[q * n + p] = r));
          }
        }
      }
    }
    for (let i = 0; i < this.pairA.length; i++) {
      const p = this.pairA[i];
      const q = this.pairB[i];
      const g = GROWTH_MIN + (GROWTH_MAX - GROWTH_MIN) * (deepest > 0 ? this.pairD[i] / deepest : 1.0);
      const r = w[p * n + q] * g;
      w[p * n + q] = r;
      w[q * n + p] = r;
    }
    this.colliding.length = 0;
    for (let p = 0; p < n; p++) if (this.mark[p] != 0) this.colliding.push(p);
    return total;
  }

  /** Sweeps over colliding parts until none collide (true) or the strikes or sweeps run out. */
  private separate(xMax: f64): bool {
    const order = this.colliding;
    let bestTotal: f64 = Infinity;
    let stale = 0;
    let strikes = 0;
    for (let sweep = 0; sweep < MAX_SWEEPS_PER_ATTEMPT; sweep++) {
      if (this.budget.expired() || this.sweeps >= this.maxSweeps) return false;
      this.sweeps++;
      const total = this.updateWeights();
      if (order.length == 0) return true;
      if (total < bestTotal * 0.98) {
        bestTotal = total;
        stale = 0;
      } else if (++stale >= STALE_SWEEPS) {
        if (++strikes >= MAX_STRIKES) return false;
        stale = 0;
        bestTotal = total;
      }
      for (let k = order.length - 1; k > 0; k--) {
        const j = this.rng.int(k + 1);
        const t = order[k];
        order[k] = order[j];
        order[j] = t;
      }
      for (let k = 0; k < order.length; k++) this.move(order[k], xMax);
    }
    return false;
  }

  /** Shrinks the strip while the budget and sweeps last; writes the shortest feasible layout back. */
  run(): void {
    const n = this.n;
    const saveS = new Int32Array(n);
    const saveX = new Float64Array(n);
    const saveY = new Float64Array(n);
    saveS.set(this.sh); saveX.set(this.xs); saveY.set(this.ys);
    let ratio: f64 = 0.01;
    while (!this.budget.expired() && this.sweeps < this.maxSweeps) {
      const target = this.x0 + (this.length - this.x0) * (1.0 - ratio);
      for (let p = 0; p < n; p++) {
        const s = this.shape(p);
        if (this.xs[p] + s.w > target) this.xs[p] = Math.max(this.x0, target - s.w - this.rng.float() * s.w * 0.5);
      }
      this.weights.fill(1.0);
      this.attempts++;
      if (this.separate(target)) {
        this.length = this.usedTo();
        saveS.set(this.sh); saveX.set(this.xs); saveY.set(this.ys);
        this.improved++;
      } else {
        this.sh.set(saveS); this.xs.set(saveX); this.ys.set(saveY);
        ratio = Math.max(0.001, ratio * 0.7);
      }
    }
    this.sh.set(saveS); this.xs.set(saveX); this.ys.set(saveY);
    this.writeBack();
  }

  /**
   * Separates the parts inside the whole stock (no shrinking): true and the layout updated
   * when none collide any more; false and the layout untouched otherwise.
   */
  fitInside(): bool {
    this.weights.fill(1.0);
    this.attempts++;
    if (!this.separate(this.x1)) return false;
    this.writeBack();
    return true;
  }

  private writeBack(): void {
    const l = this.layout;
    for (let p = 0; p < this.n; p++) {
      const at = this.pos[p];
      l.shapeOf[at] = this.sh[p];
      l.xs[at] = this.xs[p];
      l.ys[at] = this.ys[p];
    }
  }
}
