// Strip compaction by overlap minimisation (after sparrow). From a feasible roll layout:
// exploration shrinks the strip by a random ratio (parts right of the middle slide left,
// now overlapping) and separates them (separate.ts). A failed attempt joins a pool of
// near misses at that length (the best few kept); one of the better ones is disrupted
// (two large parts swap places) and separated again until one comes apart: the strip
// never goes back to the last feasible length. Compression then shrinks by ever smaller
// steps until the deadline. Each success first slides every part left as far as it goes,
// so the strip ends at the tightest length of that arrangement. The same separation fits
// parts into a fixed sheet (fitInside): it works on any subset of the layout's parts on
// one stock row.

import { Budget, now } from "../../common/clock";
import { Rng } from "../../common/rng";
import { Shape } from "../collision/shape";
import { Layout } from "../construct/layout";
import { Parts } from "./parts";
import { Separator } from "./separate";
import { WorkLimit } from "./work-limit";

/** Share of the compaction time spent exploring; compression gets the rest. */
const EXPLORE_SHARE: f64 = 0.8;
const RATIO_MIN: f64 = 0.001;
const RATIO_MAX: f64 = 0.01;
/** Near misses kept at one strip length; worse ones are dropped. */
const POOL_SIZE = 12;
/** Spread of the pool pick (a half-normal over the pool, best first). */
const POOL_SPREAD: f64 = 0.25;
const EXPLORE_STRIKES = 3;
const EXPLORE_IDLE_ROUNDS = 200;
const COMPRESS_STRIKES = 5;
const COMPRESS_IDLE_ROUNDS = 25;
const COMPRESS_RATIO_FROM: f64 = 0.005;
const COMPRESS_RATIO_TO: f64 = 0.0001;
/** Parts whose areas add up to this share of the total, largest first, count as large (disruption). */
const LARGE_SHARE: f64 = 0.5;
const BISECT_STEPS = 24;

/** Most parts the pair weights are kept for (n x n). */
export const MAX_COMPACT_ITEMS = 600;

export class Compactor {
  layout: Layout;
  rng: Rng;
  budget: Budget;
  n: i32;
  /** Layout order position of each part the compactor moves. */
  pos: Int32Array;
  parts: Parts;
  sep: Separator;
  x0: f64; y0: f64; y1: f64;
  /** The stock's usable end along x (edge clearance kept). */
  x1: f64;
  /** The strip's current end: parts must stay left of it. */
  width: f64 = 0;
  improved: i32 = 0;
  attempts: i32 = 0;
  /** Set: the sweep limit moves on with each shorter strip (the stall rule, work-limit.ts). */
  sweepLimit: WorkLimit | null = null;
  /** Exploration ended by its share of the clock with sweeps left: what follows depends on the clock. */
  cutByClock: bool = false;
  private largeArea: f64 = 0;
  /** Snapshots of a cleared pool, for the next near misses (a solve never frees memory: see nesting.ts). */
  private spare: Array<Parts> = new Array<Parts>(0);

  /** All of the layout's parts on its first sheet's stock row, or the given positions on `stockRow`. */
  constructor(layout: Layout, rng: Rng, budget: Budget, maxSweeps: i64, positions: Int32Array | null = null, stockRow: i32 = -1) {
    this.layout = layout;
    this.rng = rng;
    this.budget = budget;
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
    const shapes = new Array<Array<Shape>>(n);
    for (let p = 0; p < n; p++) shapes[p] = inst.types[layout.itemType[layout.order[pos[p]]]].shapes;
    const parts = new Parts(shapes);
    for (let p = 0; p < n; p++) {
      parts.turn(p, layout.shapeOf[pos[p]]);
      parts.xs[p] = layout.xs[pos[p]];
      parts.ys[p] = layout.ys[pos[p]];
    }
    this.parts = parts;
    this.sep = new Separator(parts, inst.gap, rng, budget, maxSweeps);
    const st = inst.stock[stockRow >= 0 ? stockRow : layout.sheets[0].stock];
    this.x1 = st.x1 - inst.edge;
    this.x0 = st.x0 + inst.edge;
    this.y0 = st.y0 + inst.edge;
    this.y1 = st.y1 - inst.edge;
  }

  get sweeps(): i64 {
    return this.sep.sweeps;
  }

  /** Shrinks the strip while the budget and sweeps last; writes the shortest feasible layout back. */
  run(): void {
    const parts = this.parts;
    const sep = this.sep;
    this.largeArea = this.largeCutoff();
    let bestLength = parts.usedTo(this.x0);
    const best = parts.snapshot();
    // settleLeft's scratch, once per run: sheet fitting's compactors never settle.
    const byX = new Int32Array(parts.n);
    const left = this.budget.deadline - now();
    sep.budget = new Budget(left * EXPLORE_SHARE);
    // Exploration.
    const pool = new Array<Parts>(0);
    const poolLoss = new Array<f64>(0);
    while (!sep.stopped()) {
      this.setWidth(bestLength);
      const ratio = RATIO_MIN + this.rng.float() * (RATIO_MAX - RATIO_MIN);
      this.shrink(this.x0 + (bestLength - this.x0) * (1.0 - ratio), this.x0 + (bestLength - this.x0) * 0.5);
      this.attempts++;
      while (pool.length > 0) this.spare.push(pool.pop());
      poolLoss.length = 0;
      while (true) {
        if (sep.separate(EXPLORE_STRIKES, EXPLORE_IDLE_ROUNDS)) {
          this.keepIfShorter(byX, best, bestLength);
          bestLength = parts.usedTo(this.x0);
          break;
        }
        if (sep.stopped()) break;
        // Keep the near miss, then restart from one of the better ones, shaken up.
        this.keepNearMiss(pool, poolLoss, sep.tracker.total);
        const pick = <i32>(Math.min(0.999, Math.abs(this.normal()) * POOL_SPREAD) * <f64>pool.length);
        // Fresh weights: those learnt on the last miss would steer the new start into the same collisions.
        sep.tracker.resetWeights();
        sep.restore(pool[pick]);
        this.disrupt();
      }
      parts.copyFrom(best);
    }
    if (sep.sweeps < sep.maxSweeps && sep.maxSweeps < i64.MAX_VALUE) this.cutByClock = true;
    // Compression: small shrinks at a random place, ever smaller; a failure simply goes back.
    sep.budget = this.budget;
    const start = now();
    const span = Math.max(1.0, this.budget.deadline - start);
    while (!sep.stopped()) {
      const t = Math.min(1.0, (now() - start) / span);
      const ratio = COMPRESS_RATIO_FROM + (COMPRESS_RATIO_TO - COMPRESS_RATIO_FROM) * t;
      this.setWidth(bestLength);
      this.shrink(this.x0 + (bestLength - this.x0) * (1.0 - ratio), this.x0 + this.rng.float() * (bestLength - this.x0));
      this.attempts++;
      if (sep.separate(COMPRESS_STRIKES, COMPRESS_IDLE_ROUNDS)) this.keepIfShorter(byX, best, bestLength);
      parts.copyFrom(best);
      bestLength = parts.usedTo(this.x0);
    }
    parts.copyFrom(best);
    this.writeBack();
  }

  /**
   * Separates the parts inside the whole stock (no shrinking): true and the layout updated
   * when none collide any more; false and the layout untouched otherwise.
   */
  fitInside(): bool {
    this.setWidth(this.x1);
    this.sep.tracker.resetWeights();
    this.sep.tracker.rebuild(this.parts);
    this.attempts++;
    if (!this.sep.separate(COMPRESS_STRIKES, COMPRESS_IDLE_ROUNDS)) return false;
    this.writeBack();
    return true;
  }

  private setWidth(w: f64): void {
    this.width = w;
    this.sep.setContainer(this.x0, this.y0, w, this.y1);
  }

  /**
   * After a separation that cleared every pair: slides the parts left and keeps them as the
   * best when the strip got shorter. It does not when a part wider than the cut strip sticks
   * out past its end (walls only bound where poses are sampled): nothing shorter is possible
   * there, and such an attempt, which took no sweep, still counts one so the effort limit ends
   * the search (3 small parts in one column used to shrink in vain until the budget ran out).
   */
  private keepIfShorter(byX: Int32Array, best: Parts, bestLength: f64): void {
    const parts = this.parts;
    if (this.settleLeft(byX) < bestLength) {
      best.copyFrom(parts);
      this.improved++;
      const limit = this.sweepLimit;
      if (limit !== null) {
        limit.improved(this.sep.sweeps);
        this.sep.maxSweeps = limit.limit;
      }
    } else {
      parts.copyFrom(best);
      this.sep.sweeps++;
    }
  }

  /** Cuts the strip to `target`: parts whose centre is right of `split` move left by the cut. */
  private shrink(target: f64, split: f64): void {
    const parts = this.parts;
    const cut = this.width - target;
    for (let p = 0; p < parts.n; p++) {
      const s = parts.shape(p);
      let x = parts.xs[p];
      if (x + s.w * 0.5 > split) x -= cut;
      parts.xs[p] = Math.max(this.x0, Math.min(target - s.w, x));
    }
    this.setWidth(target);
    this.sep.tracker.resetWeights();
    this.sep.tracker.rebuild(parts);
  }

  /** Slides every part left as far as it stays clear, leftmost first (byX: scratch for their order); returns the new length. */
  private settleLeft(byX: Int32Array): f64 {
    const parts = this.parts;
    const tracker = this.sep.tracker;
    const n = parts.n;
    for (let p = 0; p < n; p++) {
      let k = p;
      while (k > 0 && parts.xs[byX[k - 1]] > parts.xs[p]) {
        byX[k] = byX[k - 1];
        k--;
      }
      byX[k] = p;
    }
    for (let k = 0; k < n; k++) {
      const p = byX[k];
      const s = parts.shape(p);
      const y = parts.ys[p];
      const step = Math.min(s.w, s.h) * 0.25;
      let x = parts.xs[p];
      while (x > this.x0) {
        const next = Math.max(this.x0, x - step);
        if (tracker.cost(parts, p, s, next, y, 0) > 0) {
          let lo = next;
          for (let i = 0; i < BISECT_STEPS; i++) {
            const mid = 0.5 * (lo + x);
            if (tracker.cost(parts, p, s, mid, y, 0) > 0) lo = mid;
            else x = mid;
          }
          break;
        }
        x = next;
      }
      parts.xs[p] = x;
    }
    tracker.rebuild(parts);
    return parts.usedTo(this.x0);
  }

  /**
   * Adds the parts as they stand to the pool (sorted by loss, best first, at most POOL_SIZE);
   * a miss no better than a full pool's worst is not copied at all.
   */
  private keepNearMiss(pool: Array<Parts>, poolLoss: Array<f64>, loss: f64): void {
    if (pool.length >= POOL_SIZE) {
      if (loss >= poolLoss[pool.length - 1]) return;
      this.spare.push(pool.pop());
      poolLoss.pop();
    }
    const copy = this.copyOfParts();
    let k = pool.length;
    pool.push(copy);
    poolLoss.push(loss);
    while (k > 0 && poolLoss[k - 1] > loss) {
      pool[k] = pool[k - 1];
      poolLoss[k] = poolLoss[k - 1];
      k--;
    }
    pool[k] = copy;
    poolLoss[k] = loss;
  }

  /** A copy of the parts as they stand, in a spare snapshot when there is one. */
  private copyOfParts(): Parts {
    if (this.spare.length == 0) return this.parts.snapshot();
    const c = this.spare.pop();
    c.copyFrom(this.parts);
    return c;
  }

  /** Gives the separator's n x n matrices back for the next compactor; this one is done. */
  release(): void {
    this.sep.release();
  }

  /** Area from which a part counts as large: the largest parts make up LARGE_SHARE of the total. */
  private largeCutoff(): f64 {
    const parts = this.parts;
    const areas = new Array<f64>(parts.n);
    let total: f64 = 0;
    for (let p = 0; p < parts.n; p++) {
      areas[p] = parts.shape(p).area;
      total += areas[p];
    }
    areas.sort((a: f64, b: f64): i32 => (a < b ? 1 : a > b ? -1 : 0));
    let sum: f64 = 0;
    for (let k = 0; k < areas.length; k++) {
      sum += areas[k];
      if (sum >= total * LARGE_SHARE) return areas[k];
    }
    return 0;
  }

  /** Swaps the places (box centres) of two large parts of different sizes, or of a large one and any other. */
  private disrupt(): void {
    const parts = this.parts;
    const n = parts.n;
    if (n < 2) return;
    const rng = this.rng;
    let a = rng.int(n);
    for (let tries = 0; tries < 4 * n && parts.shape(a).area < this.largeArea; tries++) a = rng.int(n);
    const areaA = parts.shape(a).area;
    let b = -1;
    for (let tries = 0; tries < 4 * n && b < 0; tries++) {
      const c = rng.int(n);
      const area = parts.shape(c).area;
      if (c != a && area >= this.largeArea && Math.abs(area - areaA) > areaA * 0.01) b = c;
    }
    if (b < 0) {
      b = rng.int(n - 1);
      if (b >= a) b++;
    }
    const sa = parts.shape(a);
    const sb = parts.shape(b);
    const ax = parts.xs[a] + sa.w * 0.5, ay = parts.ys[a] + sa.h * 0.5;
    const bx = parts.xs[b] + sb.w * 0.5, by = parts.ys[b] + sb.h * 0.5;
    this.place(a, bx, by);
    this.place(b, ax, ay);
  }

  /** Puts part p's box centre at (cx, cy), kept inside the strip. */
  private place(p: i32, cx: f64, cy: f64): void {
    const parts = this.parts;
    const s = parts.shape(p);
    parts.xs[p] = Math.max(this.x0, Math.min(this.width - s.w, cx - s.w * 0.5));
    parts.ys[p] = Math.max(this.y0, Math.min(this.y1 - s.h, cy - s.h * 0.5));
    this.sep.tracker.moved(parts, p);
  }

  /** A standard normal draw (Box-Muller). */
  private normal(): f64 {
    const u = Math.max(1e-12, this.rng.float());
    return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2.0 * Math.PI * this.rng.float());
  }

  private writeBack(): void {
    const l = this.layout;
    for (let p = 0; p < this.n; p++) {
      const at = this.pos[p];
      l.shapeOf[at] = this.parts.sh[p];
      l.xs[at] = this.parts.xs[p];
      l.ys[at] = this.parts.ys[p];
    }
  }
}
