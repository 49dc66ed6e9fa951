// Long (over 400 lines) because the revised simplex, its basis updates and the column pool are one LP object whose parts read each other's arrays.
// The Gilmore-Gomory LP by column generation: min sum(w_t x_p) s.t. sum(a_ip x_p) >= d_i,
// x >= 0, over cutting patterns p (a stock row t and item counts a_ip). A revised simplex
// with an explicit dense basis inverse (m x m, m = item types still demanded) is enough for
// a few hundred item types. Columns come from a pool shared by every solve of a run, and
// new ones from the knapsack pricing of each stock row. Stock quantities are NOT rows of
// this LP: dropping them relaxes the problem, so its value is still a valid lower bound;
// rows whose quantity is used up are simply excluded from pricing in a search node.

import { Instance } from "./instance";
import { Knapsack } from "./knapsack";
import { invert, perturbation, subScaledRow } from "./dense";
import { F64Vec, I32Vec } from "../common/arrays";
import { now } from "../common/clock";
import { HASH_START, hashStep } from "../common/hash";
import { Rng } from "../common/rng";

export const LP_OPTIMAL: i32 = 0;
export const LP_STOPPED: i32 = 1;
export const LP_INFEASIBLE: i32 = 2;
/** Stopped early: the bound already reaches `target`. */
export const LP_BOUNDED: i32 = 3;

@inline function roundUp(inst: Instance, v: f64): f64 {
  return inst.integral ? Math.ceil(v - 1e-6) : v * (1.0 - 1e-9);
}

const RC_TOL: f64 = 1e-9;
const PIV_TOL: f64 = 1e-9;
const REFACTOR_EVERY: i32 = 100;
/** Weight of the stability centre in the smoothed pricing duals (0 = no smoothing). */
const SMOOTHING: f64 = 0.5;

/** Hash of a pattern of stock row t: entries from .. to of (item, count), in item order. */
function patternHash(t: i32, item: Int32Array, cnt: Int32Array, from: i32, to: i32): u64 {
  let h = HASH_START ^ <u64>t;
  for (let a = from; a < to; a++) {
    h = hashStep(h, <u64>item[a]);
    h = hashStep(h, <u64>cnt[a] << 20);
  }
  return h;
}

export class Master {
  inst: Instance;
  // Column pool: pattern p has stock row patType[p], cost patCost[p] and entries
  // patStart[p] .. patStart[p+1] of (patItem, patCnt).
  patType: I32Vec = new I32Vec(256);
  patCost: F64Vec = new F64Vec(256);
  patStart: I32Vec = new I32Vec(256);
  patItem: I32Vec = new I32Vec(1024);
  patCnt: I32Vec = new I32Vec(1024);
  seen: Map<u64, i32> = new Map<u64, i32>();

  m: i32 = 0;
  rowItem: Int32Array;
  rowOf: Int32Array;
  dem: Float64Array;
  /** Added to each item's demand: 0 but while the cover collects other optimal duals (search.ts). */
  tilt: Float64Array;
  binv: Float64Array = new Float64Array(0);
  /** Basic column per row: a pool index, or -(r + 1) for the surplus of row r. */
  basis: Int32Array = new Int32Array(0);
  cB: Float64Array = new Float64Array(0);
  xB: Float64Array = new Float64Array(0);
  y: Float64Array = new Float64Array(0);
  u: Float64Array = new Float64Array(0);
  value: f64 = 0;
  /** Best valid lower bound on this LP found during the solve (Farley bound, or the optimum). */
  bound: f64 = 0;
  pivots: i32 = 0;
  /** Solves from the homogeneous basis after the first one (a warm re-solve was not possible). */
  coldSolves: i32 = 0;
  private solved: bool = false;
  /** Knapsack pricing rounds (every stock row priced once per round). */
  pricings: i32 = 0;
  lastAdded: i32 = -1;
  /** Objective value the bound may stop at (see LP_BOUNDED); Infinity = solve fully. */
  target: f64 = Infinity;
  /** Set only inside solveToOptimum: no stop at the target or at the tail-off, and a pivot cap. */
  private finish: bool = false;
  private pivotLimit: i32 = i32.MAX_VALUE;
  /** The basis belongs to the current rows (a warm re-solve is possible). */
  warm: bool = false;
  /** Reduced cost of the column the last pricing returned. */
  pricedRc: f64 = 0;
  /**
   * Dual-optimal inequalities y_big >= y_small (Ben Amor, Desrosiers and Valerio de Carvalho)
   * as zero-cost exchange columns "+1 on the smaller item's row, -1 on the larger one's":
   * a piece may stand in for a shorter one. They cut off dual zig-zag (far fewer pivots and
   * pricing rounds) and only relax the primal, so every bound stays valid. Column code of
   * exchange k: -(m + 1 + k). Only between rows whose items may use the same stock rows.
   */
  exBig: Int32Array = new Int32Array(0);
  exSmall: Int32Array = new Int32Array(0);
  nEx: i32 = 0;
  /** Stability centre of the smoothing: the duals with the best Lagrangian bound of this solve. */
  center: Float64Array = new Float64Array(0);
  centerBound: f64 = 0;
  centerOk: bool = false;
  ySep: Float64Array = new Float64Array(0);
  fa: Float64Array = new Float64Array(0);
  fi: Float64Array = new Float64Array(0);
  ks: Knapsack = new Knapsack();
  scratchItem: I32Vec = new I32Vec(64);
  scratchCnt: I32Vec = new I32Vec(64);

  constructor(inst: Instance) {
    this.inst = inst;
    this.rowItem = new Int32Array(inst.nI);
    this.rowOf = new Int32Array(inst.nI);
    this.dem = new Float64Array(inst.nI);
    this.tilt = new Float64Array(inst.nI);
    this.patStart.push(0);
  }

  get poolSize(): i32 {
    return this.patType.len;
  }

  /** Adds a pattern (items and counts in scratchItem/scratchCnt) unless already pooled. */
  addPattern(t: i32): i32 {
    const k = this.scratchItem.len;
    // Canonical order (by item) so equal patterns hash equally.
    for (let a = 1; a < k; a++) {
      const iv = this.scratchItem.data[a], cv = this.scratchCnt.data[a];
      let j = a - 1;
      while (j >= 0 && this.scratchItem.data[j] > iv) {
        this.scratchItem.data[j + 1] = this.scratchItem.data[j];
        this.scratchCnt.data[j + 1] = this.scratchCnt.data[j];
        j--;
      }
      this.scratchItem.data[j + 1] = iv;
      this.scratchCnt.data[j + 1] = cv;
    }
    const h = patternHash(t, this.scratchItem.data, this.scratchCnt.data, 0, k);
    if (this.seen.has(h)) {
      const p = this.seen.get(h);
      if (this.samePattern(p, t)) return p;
    }
    const p = this.patType.len;
    this.patType.push(t);
    this.patCost.push(this.inst.weight[t]);
    for (let a = 0; a < k; a++) {
      this.patItem.push(this.scratchItem.data[a]);
      this.patCnt.push(this.scratchCnt.data[a]);
    }
    this.patStart.push(this.patItem.len);
    this.seen.set(h, p);
    return p;
  }

  /** Drops the patterns pooled since the pool held n, so a look-ahead leaves no trace. */
  truncatePool(n: i32): void {
    for (let p = this.patType.len - 1; p >= n; p--) {
      const h = patternHash(this.patType.data[p], this.patItem.data, this.patCnt.data, this.patStart.data[p], this.patStart.data[p + 1]);
      if (this.seen.has(h) && this.seen.get(h) == p) this.seen.delete(h);
    }
    this.patType.len = n;
    this.patCost.len = n;
    this.patStart.len = n + 1;
    this.patItem.len = this.patStart.data[n];
    this.patCnt.len = this.patItem.len;
    if (this.lastAdded >= n) this.lastAdded = -1;
  }

  private samePattern(p: i32, t: i32): bool {
    if (this.patType.data[p] != t) return false;
    const s = this.patStart.data[p], e = this.patStart.data[p + 1];
    if (e - s != this.scratchItem.len) return false;
    for (let a = 0; a < e - s; a++) {
      if (this.patItem.data[s + a] != this.scratchItem.data[a] || this.patCnt.data[s + a] != this.scratchCnt.data[a]) return false;
    }
    return true;
  }

  /** Pools the patterns of a plan's bars: good columns to start from. */
  seed(items: Int32Array, n: i32, t: i32): void {
    this.scratchItem.clear();
    this.scratchCnt.clear();
    for (let k = 0; k < n; k++) {
      const i = items[k];
      let found = false;
      for (let a = 0; a < this.scratchItem.len && !found; a++) {
        if (this.scratchItem.data[a] == i) {
          this.scratchCnt.data[a]++;
          found = true;
        }
      }
      if (!found) {
        this.scratchItem.push(i);
        this.scratchCnt.push(1);
      }
    }
    this.lastAdded = this.scratchItem.len > 0 ? this.addPattern(t) : -1;
  }

  /**
   * Solves the LP for residual demands dr with the stock rows qr allows (qr[t] == 0: none
   * left). Returns LP_OPTIMAL when no column prices out (and every pricing was exact),
   * LP_STOPPED at the deadline or iteration cap (x is feasible, `bound` may still be valid),
   * LP_INFEASIBLE when some demanded item has no stock left.
   */
  solve(dr: Int32Array, qr: Int32Array, deadline: f64): i32 {
    const inst = this.inst;
    if (this.solved) this.coldSolves++;
    this.solved = true;
    const m = this.setRows(dr);
    if (m == 0) return LP_OPTIMAL;
    // Start from one homogeneous pattern per row: a diagonal basis.
    const binv = this.binv;
    for (let k = 0; k < m * m; k++) unchecked((binv[k] = 0));
    for (let r = 0; r < m; r++) {
      const i = this.rowItem[r];
      let bestT: i32 = -1;
      let bestC: i32 = 0;
      let bestScore: f64 = Infinity;
      for (let t = 0; t < inst.nT; t++) {
        if (!inst.ok(i, t) || qr[t] == 0) continue;
        let c = <i32>Math.floor((inst.cap[t] + inst.eps) / inst.size[i]);
        if (c > dr[i]) c = dr[i];
        if (c <= 0) continue;
        const score = inst.weight[t] / <f64>c + 1e-12 * inst.cap[t];
        if (score < bestScore) {
          bestScore = score;
          bestT = t;
          bestC = c;
        }
      }
      if (bestT < 0) return LP_INFEASIBLE;
      this.scratchItem.clear();
      this.scratchCnt.clear();
      this.scratchItem.push(i);
      this.scratchCnt.push(bestC);
      this.basis[r] = this.addPattern(bestT);
      this.cB[r] = inst.weight[bestT];
      binv[r * m + r] = 1.0 / <f64>bestC;
      this.xB[r] = this.dem[r] / <f64>bestC;
    }
    this.warm = true;
    return this.iterate(dr, qr, deadline);
  }

  /**
   * Solves starting from the patterns of a complete plan (`nb` bars, items of bar b in
   * items[starts[b] .. starts[b+1]), stock row types[b]) instead of the homogeneous basis:
   * the start is as good as the plan, so far fewer pivots are needed. Each distinct pattern is
   * basic on one row it covers, every other row basic in its surplus. Falls back to the cold
   * solve when that basis is singular or infeasible.
   */
  solveFrom(types: Int32Array, starts: Int32Array, items: Int32Array, nb: i32, dr: Int32Array, qr: Int32Array, deadline: f64): i32 {
    const inst = this.inst;
    const m = this.setRows(dr);
    if (m == 0) return LP_OPTIMAL;
    for (let r = 0; r < m; r++) {
      this.basis[r] = -(r + 1);
      this.cB[r] = 0;
    }
    // Distinct patterns of the plan, and how many of them cover each row.
    const pats = new Array<i32>();
    const seen = new Map<i32, bool>();
    const cover = new Int32Array(m);
    for (let b = 0; b < nb; b++) {
      this.seed(items.subarray(starts[b], starts[b + 1]), starts[b + 1] - starts[b], types[b]);
      const p = this.lastAdded;
      if (p < 0 || seen.has(p)) continue;
      seen.set(p, true);
      pats.push(p);
      const e = this.patStart.data[p + 1];
      for (let a = this.patStart.data[p]; a < e; a++) {
        const r = this.rowOf[this.patItem.data[a]];
        if (r >= 0) cover[r]++;
      }
    }
    // Each pattern is basic on a row only it covers (the one needing the most copies): the
    // basis is then a permuted diagonal plus surpluses, never singular.
    for (let j = 0; j < pats.length; j++) {
      const p = pats[j];
      let best: i32 = -1;
      let need: f64 = -1;
      const e = this.patStart.data[p + 1];
      for (let a = this.patStart.data[p]; a < e; a++) {
        const r = this.rowOf[this.patItem.data[a]];
        if (r < 0 || cover[r] != 1) continue;
        const v = this.dem[r] / <f64>this.patCnt.data[a];
        if (v > need) { need = v; best = r; }
      }
      if (best < 0) continue;
      this.basis[best] = p;
      this.cB[best] = this.patCost.data[p];
    }
    if (!this.refactor()) return this.solve(dr, qr, deadline);
    for (let k = 0; k < m; k++) if (this.xB[k] < 0) return this.solve(dr, qr, deadline);
    this.warm = true;
    this.solved = true;
    return this.iterate(dr, qr, deadline);
  }

  /**
   * One LP row per item with residual demand, and room for an m-row basis; returns m. A tiny
   * distinct perturbation of each demand avoids degenerate pivots (and cycling); bounds are
   * computed from the duals with the true demands, so they stay valid.
   */
  private setRows(dr: Int32Array): i32 {
    let m: i32 = 0;
    for (let i = 0; i < this.inst.nI; i++) {
      this.rowOf[i] = -1;
      if (dr[i] > 0) {
        this.rowOf[i] = m;
        this.rowItem[m] = i;
        this.dem[m] = <f64>dr[i] + perturbation(m) + this.tilt[i];
        m++;
      }
    }
    this.m = m;
    this.value = 0;
    this.bound = 0;
    this.centerOk = false;
    if (m > 0) this.ensure(m);
    this.setExchanges();
    return m;
  }

  /** Chains the rows by decreasing item size; an exchange links neighbours with the same stock rows. */
  private setExchanges(): void {
    const inst = this.inst;
    const m = this.m;
    this.nEx = 0;
    if (m < 2) return;
    const order = new Int32Array(m);
    for (let r = 0; r < m; r++) order[r] = r;
    // Insertion sort by size, decreasing (rows are item indices in order: nearly sorted or small).
    for (let a = 1; a < m; a++) {
      const v = order[a];
      const sv = inst.size[this.rowItem[v]];
      let j = a - 1;
      while (j >= 0 && inst.size[this.rowItem[order[j]]] < sv) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = v;
    }
    for (let k = 0; k + 1 < m; k++) {
      const big = this.rowItem[order[k]], small = this.rowItem[order[k + 1]];
      let same = true;
      for (let t = 0; t < inst.nT && same; t++) if (inst.ok(big, t) != inst.ok(small, t)) same = false;
      if (!same) continue;
      this.exBig[this.nEx] = order[k];
      this.exSmall[this.nEx] = order[k + 1];
      this.nEx++;
    }
  }

  private ensure(m: i32): void {
    if (this.binv.length < m * m) this.binv = new Float64Array(m * m);
    if (this.basis.length < m) {
      // Rows grown onto a basis keep its columns and costs.
      const basis = new Int32Array(m), cB = new Float64Array(m);
      basis.set(this.basis);
      cB.set(this.cB);
      this.basis = basis;
      this.cB = cB;
      this.xB = new Float64Array(m);
      this.y = new Float64Array(m);
      this.u = new Float64Array(m);
      this.center = new Float64Array(m);
      this.ySep = new Float64Array(m);
    }
    // Grown rows add exchanges beyond the chain's m - 1.
    if (this.exBig.length < 2 * m) {
      const big = new Int32Array(2 * m), small = new Int32Array(2 * m);
      for (let k = 0; k < this.nEx; k++) {
        big[k] = this.exBig[k];
        small[k] = this.exSmall[k];
      }
      this.exBig = big;
      this.exSmall = small;
    }
  }

  /**
   * A copy of the current rows and basis, to come back to (a dive backtracking to a node),
   * into `into` when given: a dive keeps one per depth, since allocating an m x m copy per
   * node costs more than the copy itself.
   */
  saveBasis(into: BasisCopy | null = null): BasisCopy {
    const c = into !== null ? into : new BasisCopy();
    c.set(this);
    return c;
  }

  /**
   * Makes a saved basis current again, with the rows and exchanges it was saved with (rows
   * grown or dropped since are undone, so the parent's basis always fits a child's residual).
   * resolve() then recomputes the values and duals for the new demands.
   */
  restoreBasis(copy: BasisCopy): void {
    if (copy.m < 0) return;
    const m = copy.m;
    this.m = m;
    this.ensure(m);
    for (let i = 0; i < this.inst.nI; i++) this.rowOf[i] = -1;
    for (let r = 0; r < m; r++) {
      this.rowItem[r] = copy.rowItem[r];
      this.rowOf[copy.rowItem[r]] = r;
    }
    this.nEx = copy.nEx;
    for (let k = 0; k < copy.nEx; k++) {
      this.exBig[k] = copy.exBig[k];
      this.exSmall[k] = copy.exSmall[k];
    }
    memory.copy(this.basis.dataStart, copy.basis.dataStart, <usize>m << 2);
    memory.copy(this.cB.dataStart, copy.cB.dataStart, <usize>m << 3);
    memory.copy(this.binv.dataStart, copy.binv.dataStart, <usize>(m * m) << 3);
    this.warm = true;
  }

  /**
   * Adds a row for every item demanded in dr that has none (a shrink by a cold solve dropped
   * it), keeping the basis: each new row's surplus becomes basic, so the basis inverse is
   * [[B^-1, 0], [C B^-1, -I]] with C the new rows' entries in the basic columns. The new
   * rows' duals are 0, so the basis stays dual feasible and the dual simplex restores the
   * rest; no re-solve from scratch. Each new row gets an exchange from the next longer row.
   */
  private growRows(dr: Int32Array): void {
    const inst = this.inst;
    const m0 = this.m;
    let m1 = m0;
    for (let i = 0; i < inst.nI; i++) if (dr[i] > 0 && this.rowOf[i] < 0) m1++;
    if (m1 == m0) return;
    // Old inverse, m0 x m0, before the arrays are re-laid out with stride m1.
    const old = new Float64Array(m0 * m0);
    memory.copy(old.dataStart, this.binv.dataStart, <usize>(m0 * m0) << 3);
    this.ensure(m1);
    for (let i = 0, r = m0; i < inst.nI; i++) {
      if (dr[i] > 0 && this.rowOf[i] < 0) {
        this.rowOf[i] = r;
        this.rowItem[r] = i;
        r++;
      }
    }
    const binv = this.binv;
    for (let k = 0; k < m1 * m1; k++) unchecked((binv[k] = 0));
    for (let k = 0; k < m0; k++) for (let r = 0; r < m0; r++) unchecked((binv[k * m1 + r] = old[k * m0 + r]));
    // Exchange columns are numbered after the surpluses: renumber the basic ones.
    for (let k = 0; k < m0; k++) {
      const col = this.basis[k];
      if (col < -m0) this.basis[k] = col - (m1 - m0);
    }
    for (let r = m0; r < m1; r++) {
      const i = this.rowItem[r];
      // Row r of the inverse: (entries of item i in the basic columns) x B^-1, then -1 on itself.
      const dst = binv.dataStart + (<usize>(r * m1) << 3);
      for (let k = 0; k < m0; k++) {
        const col = this.basis[k];
        if (col < 0) continue;
        const c = this.count(col, i);
        if (c == 0) continue;
        const src = binv.dataStart + (<usize>(k * m1) << 3);
        subScaledRow(dst, src, -<f64>c, 0, m0, true);
      }
      binv[r * m1 + r] = -1.0;
      this.basis[r] = -(r + 1);
      this.cB[r] = 0;
      // Exchange from the shortest longer row with the same stock rows (a valid dual inequality).
      let big: i32 = -1;
      for (let q = 0; q < r; q++) {
        const j = this.rowItem[q];
        if (inst.size[j] < inst.size[i] || (big >= 0 && inst.size[j] >= inst.size[this.rowItem[big]])) continue;
        let same = true;
        for (let t = 0; t < inst.nT && same; t++) if (inst.ok(i, t) != inst.ok(j, t)) same = false;
        if (same) big = q;
      }
      if (big >= 0) {
        this.exBig[this.nEx] = big;
        this.exSmall[this.nEx] = r;
        this.nEx++;
      }
    }
    this.m = m1;
  }

  /** How many pieces of item i pattern p cuts. */
  private count(p: i32, i: i32): i32 {
    const e = this.patStart.data[p + 1];
    for (let a = this.patStart.data[p]; a < e; a++) if (this.patItem.data[a] == i) return this.patCnt.data[a];
    return 0;
  }

  /**
   * Duals (per item) of the LP re-solved to optimality `rounds` times with the demands tilted
   * by up to `size` per item (seeded directions): other optimal duals of a degenerate LP, or
   * near-optimal ones, all dual feasible; within maxPivots pivots in all (a round cut short
   * ends them). The basis and the pool are put back after.
   */
  tiltedDuals(dr: Int32Array, qr: Int32Array, rounds: i32, size: f64, deadline: f64, maxPivots: i32): Array<Float64Array> {
    const nI = this.inst.nI;
    const out = new Array<Float64Array>();
    const saved = this.saveBasis();
    const pool = this.poolSize;
    const directions = new Rng(0);
    const start = this.pivots;
    for (let j = 0; j < rounds; j++) {
      for (let i = 0; i < nI; i++) this.tilt[i] = size * directions.float();
      const left = maxPivots - (this.pivots - start);
      if (left <= 0 || this.solveToOptimum(dr, qr, deadline, left) != LP_OPTIMAL) break;
      const y = new Float64Array(nI);
      for (let r = 0; r < this.m; r++) y[this.rowItem[r]] = this.y[r];
      out.push(y);
    }
    this.tilt.fill(0);
    this.restoreBasis(saved);
    this.truncatePool(pool);
    return out;
  }

  /**
   * Re-solves to the optimum, for its duals (a solve may otherwise stop once its bound meets
   * the target or rounds up as far as it will go), within maxPivots more pivots (a cap the
   * clock does not move: a degenerate tail can stall); LP_STOPPED past it.
   */
  solveToOptimum(dr: Int32Array, qr: Int32Array, deadline: f64, maxPivots: i32): i32 {
    const target = this.target;
    this.target = Infinity;
    this.finish = true;
    // Widened: maxPivots may be i32.MAX_VALUE (no cap), which would wrap to a negative limit.
    this.pivotLimit = <i32>min(<i64>this.pivots + <i64>maxPivots, <i64>i32.MAX_VALUE);
    const st = this.resolve(dr, qr, deadline);
    this.finish = false;
    this.pivotLimit = i32.MAX_VALUE;
    this.target = target;
    return st;
  }

  /**
   * Re-solves after the demands changed (a search node fixed some bars), from the last basis:
   * the rows stay those of the last cold solve (a row whose demand reached 0 stays, with
   * demand 0), the duals stay feasible, so a dual simplex restores primal feasibility and the
   * primal loop resumes. Falls back to a cold solve when that is not possible.
   */
  resolve(dr: Int32Array, qr: Int32Array, deadline: f64): i32 {
    if (!this.warm || this.m == 0) return this.solve(dr, qr, deadline);
    this.growRows(dr);
    const m = this.m;
    for (let k = 0; k < m; k++) {
      const p = this.basis[k];
      if (p >= 0 && qr[this.patType.data[p]] == 0) return this.solve(dr, qr, deadline);
    }
    this.value = 0;
    this.bound = 0;
    this.centerOk = false;
    for (let r = 0; r < m; r++) this.dem[r] = <f64>dr[this.rowItem[r]] + perturbation(r) + this.tilt[this.rowItem[r]];
    for (let k = 0; k < m; k++) {
      let v: f64 = 0;
      const row = this.binv.dataStart + (<usize>(k * m) << 3);
      for (let r = 0; r < m; r++) v += load<f64>(row + (<usize>r << 3)) * this.dem[r];
      this.xB[k] = v;
    }
    this.duals();
    // A basis left by a stop at the bound is not dual feasible, and from one the dual simplex
    // may wander for thousands of pivots: past 2m + 50 a solve from scratch (about 4m pivots
    // on Hard28) is cheaper.
    for (let it = 0; it < 2 * m + 50; it++) {
      if ((it & 15) == 15 && now() >= deadline) return LP_STOPPED;
      // Leaving: the most negative basic value.
      let l: i32 = -1;
      let worst: f64 = -1e-9;
      for (let k = 0; k < m; k++) {
        if (this.xB[k] < worst) {
          worst = this.xB[k];
          l = k;
        }
      }
      if (l < 0) {
        for (let k = 0; k < m; k++) if (this.xB[k] < 0) this.xB[k] = 0;
        return this.iterate(dr, qr, deadline);
      }
      // Entering: alpha = (row l of Binv) . a_j < 0, least rc / -alpha.
      const rho = this.binv.dataStart + (<usize>(l * m) << 3);
      let enter: i32 = -2147483647;
      let bestRatio: f64 = Infinity;
      let bestRc: f64 = 0;
      for (let r = 0; r < m; r++) {
        const alpha = -load<f64>(rho + (<usize>r << 3));
        if (alpha < -PIV_TOL) {
          const rc = Math.max(0.0, this.y[r]);
          const ratio = rc / -alpha;
          if (ratio < bestRatio) { bestRatio = ratio; enter = -(r + 1); bestRc = this.y[r]; }
        }
      }
      for (let k = 0; k < this.nEx; k++) {
        const alpha = load<f64>(rho + (<usize>this.exSmall[k] << 3)) - load<f64>(rho + (<usize>this.exBig[k] << 3));
        if (alpha < -PIV_TOL) {
          const rc = this.y[this.exBig[k]] - this.y[this.exSmall[k]];
          const ratio = Math.max(0.0, rc) / -alpha;
          if (ratio < bestRatio) { bestRatio = ratio; enter = -(m + 1 + k); bestRc = rc; }
        }
      }
      const np = this.patType.len;
      const tp = this.patType.data.dataStart;
      const sp = this.patStart.data.dataStart;
      const ip = this.patItem.data.dataStart;
      const np2 = this.patCnt.data.dataStart;
      const rp = this.rowOf.dataStart;
      const yp = this.y.dataStart;
      const qp = qr.dataStart;
      for (let p = 0; p < np; p++) {
        if (load<i32>(qp + (<usize>load<i32>(tp + (<usize>p << 2)) << 2)) == 0) continue;
        let alpha: f64 = 0;
        let v: f64 = 0;
        const e = load<i32>(sp + (<usize>(p + 1) << 2));
        for (let a = load<i32>(sp + (<usize>p << 2)); a < e; a++) {
          const r = load<i32>(rp + (<usize>load<i32>(ip + (<usize>a << 2)) << 2));
          if (r < 0) continue;
          const c = <f64>load<i32>(np2 + (<usize>a << 2));
          alpha += c * load<f64>(rho + (<usize>r << 3));
          v += c * load<f64>(yp + (<usize>r << 3));
        }
        if (alpha < -PIV_TOL) {
          const rc = this.patCost.data[p] - v;
          const ratio = Math.max(0.0, rc) / -alpha;
          if (ratio < bestRatio) { bestRatio = ratio; enter = p; bestRc = rc; }
        }
      }
      if (enter == -2147483647) return this.solve(dr, qr, deadline);
      this.column(enter);
      this.pivot(l, enter, this.xB[l] / this.u[l]);
      // y' = y + rc_enter * (row l of the new inverse), as in the primal loop: O(m), not O(m^2).
      const row = this.binv.dataStart + (<usize>(l * m) << 3);
      for (let r = 0; r < m; r++) {
        const o = <usize>r << 3;
        store<f64>(yp + o, load<f64>(yp + o) + bestRc * load<f64>(row + o));
      }
    }
    return this.solve(dr, qr, deadline);
  }

  /** The primal simplex with column generation, from a primal feasible basis. */
  private iterate(dr: Int32Array, qr: Int32Array, deadline: f64): i32 {
    const inst = this.inst;
    const m = this.m;
    let sinceRefactor: i32 = 0;
    let degenerate: i32 = 0;
    let iter: i32 = 0;
    let allExact = true;
    this.duals();
    for (;;) {
      iter++;
      if ((iter & 15) == 0 && now() >= deadline) return this.stop();
      if (iter > 100000 || this.pivots >= this.pivotLimit) return this.stop();
      const bland = degenerate > 40;
      // 1. Pooled columns and surpluses.
      let enter: i32 = -2147483647;
      let bestRc: f64 = -RC_TOL;
      const yd = this.y.dataStart;
      for (let r = 0; r < m; r++) {
        const rc = load<f64>(yd + (<usize>r << 3));
        if (rc < bestRc) {
          bestRc = rc;
          enter = -(r + 1);
          if (bland) break;
        }
      }
      if (!(bland && enter != -2147483647)) {
        for (let k = 0; k < this.nEx; k++) {
          const rc = load<f64>(yd + (<usize>unchecked(this.exBig[k]) << 3)) - load<f64>(yd + (<usize>unchecked(this.exSmall[k]) << 3));
          if (rc < bestRc) {
            bestRc = rc;
            enter = -(m + 1 + k);
            if (bland) break;
          }
        }
      }
      if (!(bland && enter != -2147483647)) {
        const np = this.patType.len;
        const tp = this.patType.data.dataStart;
        const sp = this.patStart.data.dataStart;
        const ip = this.patItem.data.dataStart;
        const np2 = this.patCnt.data.dataStart;
        const cp = this.patCost.data.dataStart;
        const rp = this.rowOf.dataStart;
        const yp = this.y.dataStart;
        const qp = qr.dataStart;
        for (let p = 0; p < np; p++) {
          const t = load<i32>(tp + (<usize>p << 2));
          if (load<i32>(qp + (<usize>t << 2)) == 0) continue;
          let v: f64 = 0;
          const e = load<i32>(sp + (<usize>(p + 1) << 2));
          for (let a = load<i32>(sp + (<usize>p << 2)); a < e; a++) {
            const r = load<i32>(rp + (<usize>load<i32>(ip + (<usize>a << 2)) << 2));
            if (r >= 0) v += load<f64>(yp + (<usize>r << 3)) * <f64>load<i32>(np2 + (<usize>a << 2));
          }
          const rc = load<f64>(cp + (<usize>p << 3)) - v;
          if (rc < bestRc * (1.0 + 1e-9)) {
            bestRc = rc;
            enter = p;
            if (bland) break;
          }
        }
      }
      // 2. Pricing by knapsack when the pool has nothing.
      if (enter == -2147483647) {
        let res: i32 = -1;
        // Wentges smoothing: price at a point between the best-bound duals and the RMP's,
        // which zig-zag less; a column that does not price out at the RMP duals is a
        // mispricing, and then the RMP duals themselves are priced (exact test).
        if (this.centerOk && SMOOTHING > 0) {
          const ys = this.ySep, yc = this.center;
          for (let r = 0; r < m; r++) unchecked((ys[r] = SMOOTHING * yc[r] + (1.0 - SMOOTHING) * this.y[r]));
          res = this.price(dr, qr, ys);
          if (!this.ks.exact) allExact = false;
        }
        if (res < 0) res = this.price(dr, qr, this.y);
        if (res < 0) {
          if (!this.ks.exact || !allExact) return this.stop();
          // The dual objective with the true demands (price() just set it) is the LP value.
          this.value = this.bound;
          return LP_OPTIMAL;
        }
        if (!this.ks.exact) allExact = false;
        // The caller only needs to know the bound reaches its target (a plan it already has):
        // no need to finish the LP.
        if (!this.finish && roundUp(inst, this.bound) >= this.target - 1e-9) {
          this.value = this.bound;
          return LP_BOUNDED;
        }
        enter = res;
        bestRc = this.pricedRc;
        // Tail-off: the rounded-up LP value is already known.
        if (!this.finish && inst.integral && Math.ceil(this.bound - 1e-6) >= Math.ceil(this.objective() - 1e-6)) {
          this.value = this.bound;
          return LP_OPTIMAL;
        }
      }
      // 3. Ratio test.
      this.column(enter);
      let leave: i32 = -1;
      let theta: f64 = Infinity;
      let bestU: f64 = 0;
      for (let k = 0; k < m; k++) {
        const uk = unchecked(this.u[k]);
        if (uk > PIV_TOL) {
          const ratio = unchecked(this.xB[k]) / uk;
          if (ratio < theta - 1e-12 || (ratio <= theta + 1e-12 && (bland ? false : uk > bestU))) {
            theta = ratio;
            leave = k;
            bestU = uk;
          }
        }
      }
      if (leave < 0) return this.stop(); // unbounded cannot happen with costs >= 0; be safe
      if (theta > 1e-9) degenerate = 0;
      else degenerate++;
      this.pivot(leave, enter, theta);
      // A refactor costs O(m^3): amortise it over at least 3m pivots.
      if (++sinceRefactor >= (REFACTOR_EVERY > 3 * m ? REFACTOR_EVERY : 3 * m)) {
        this.refactor();
        this.duals();
        sinceRefactor = 0;
      } else {
        // y' = y + rc_q * (row `leave` of the new inverse): the entering column prices to 0.
        const yp = this.y.dataStart;
        const row = this.binv.dataStart + (<usize>(leave * m) << 3);
        for (let r = 0; r < m; r++) {
          const o = <usize>r << 3;
          store<f64>(yp + o, load<f64>(yp + o) + bestRc * load<f64>(row + o));
        }
      }
    }
    return LP_STOPPED;
  }

  private stop(): i32 {
    this.value = this.objective();
    return LP_STOPPED;
  }

  objective(): f64 {
    let v: f64 = 0;
    for (let k = 0; k < this.m; k++) v += this.cB[k] * Math.max(0.0, this.xB[k]);
    return v;
  }

  // Hot loops use raw pointers: typed-array indexing through fields is ~10x slower here.
  private duals(): void {
    const m = this.m;
    const yp = this.y.dataStart;
    const bp = this.binv.dataStart;
    const cp = this.cB.dataStart;
    memory.fill(yp, 0, <usize>m << 3);
    for (let k = 0; k < m; k++) {
      const c = load<f64>(cp + (<usize>k << 3));
      if (c == 0) continue;
      const row = bp + (<usize>(k * m) << 3);
      for (let r = 0; r < m; r++) {
        const o = <usize>r << 3;
        store<f64>(yp + o, load<f64>(yp + o) + c * load<f64>(row + o));
      }
    }
  }

  /** u = Binv * a for column `col`. */
  private column(col: i32): void {
    const m = this.m;
    const bp = this.binv.dataStart;
    const up = this.u.dataStart;
    const stride = <usize>m << 3;
    if (col < -m) {
      const k = -col - m - 1;
      let big = bp + (<usize>this.exBig[k] << 3);
      let small = bp + (<usize>this.exSmall[k] << 3);
      for (let j = 0; j < m; j++) {
        store<f64>(up + (<usize>j << 3), load<f64>(small) - load<f64>(big));
        big += stride;
        small += stride;
      }
      return;
    }
    if (col < 0) {
      let src = bp + (<usize>(-col - 1) << 3);
      for (let k = 0; k < m; k++) {
        store<f64>(up + (<usize>k << 3), -load<f64>(src));
        src += stride;
      }
      return;
    }
    memory.fill(up, 0, stride);
    const e = this.patStart.data[col + 1];
    for (let a = this.patStart.data[col]; a < e; a++) {
      const r = this.rowOf[this.patItem.data[a]];
      if (r < 0) continue;
      const c = <f64>this.patCnt.data[a];
      let src = bp + (<usize>r << 3);
      for (let k = 0; k < m; k++) {
        const o = up + (<usize>k << 3);
        store<f64>(o, load<f64>(o) + c * load<f64>(src));
        src += stride;
      }
    }
  }

  private pivot(l: i32, col: i32, theta: f64): void {
    const m = this.m;
    const bp = this.binv.dataStart;
    const up = this.u.dataStart;
    const xp = this.xB.dataStart;
    const piv = load<f64>(up + (<usize>l << 3));
    const lrow = bp + (<usize>(l * m) << 3);
    for (let r = 0; r < m; r++) {
      const o = lrow + (<usize>r << 3);
      store<f64>(o, load<f64>(o) / piv);
    }
    for (let k = 0; k < m; k++) {
      if (k == l) continue;
      const f = load<f64>(up + (<usize>k << 3));
      if (f == 0) continue;
      const krow = bp + (<usize>(k * m) << 3);
      subScaledRow(krow, lrow, f, 0, m, true);
      const xo = xp + (<usize>k << 3);
      let x = load<f64>(xo) - theta * f;
      if (x < 0 && x > -1e-9) x = 0;
      store<f64>(xo, x);
    }
    this.xB[l] = theta;
    this.basis[l] = col;
    this.cB[l] = col < 0 ? 0 : this.patCost.data[col];
    this.pivots++;
  }

  /** Recomputes Binv from the basic columns (Gauss-Jordan, partial pivoting) and xB = Binv d. */
  private refactor(): bool {
    const m = this.m;
    const mm = m * m;
    if (this.fa.length < mm) {
      this.fa = new Float64Array(mm);
      this.fi = new Float64Array(mm);
    }
    const a = this.fa;
    const inv = this.fi;
    for (let k = 0; k < mm; k++) unchecked((a[k] = 0));
    for (let k = 0; k < m; k++) {
      const col = this.basis[k];
      if (col < -m) {
        a[this.exSmall[-col - m - 1] * m + k] = 1;
        a[this.exBig[-col - m - 1] * m + k] = -1;
        continue;
      }
      if (col < 0) {
        a[(-col - 1) * m + k] = -1;
        continue;
      }
      const e = this.patStart.data[col + 1];
      for (let q = this.patStart.data[col]; q < e; q++) {
        const r = this.rowOf[this.patItem.data[q]];
        if (r >= 0) a[r * m + k] = <f64>this.patCnt.data[q];
      }
    }
    if (!invert(a, inv, m)) return false; // singular: keep the product-form inverse
    // inv is B^-1 with rows indexed by basis position.
    memory.copy(this.binv.dataStart, inv.dataStart, <usize>mm << 3);
    for (let k = 0; k < m; k++) {
      let v: f64 = 0;
      for (let r = 0; r < m; r++) v += unchecked(inv[k * m + r]) * unchecked(this.dem[r]);
      this.xB[k] = v < 0 && v > -1e-9 ? 0 : v;
    }
    return true;
  }

  /**
   * Knapsack pricing over every stock row still available. Adds each improving pattern to
   * the pool and returns the best one, or -1 when none prices out. Updates `bound` with the
   * Farley bound, from each knapsack's proven upper bound (ks.exact reports whether every
   * knapsack was solved exactly, which an LP optimality claim needs).
   */
  private price(dr: Int32Array, qr: Int32Array, yv: Float64Array): i32 {
    const inst = this.inst;
    const m = this.m;
    this.pricings++;
    let best: i32 = -1;
    let bestRc: f64 = -RC_TOL;
    let theta: f64 = Infinity;
    let exact = true;
    for (let t = 0; t < inst.nT; t++) {
      if (qr[t] == 0) continue;
      // Skip a row identical in length, cost and items to an earlier one: same knapsack.
      let dup = false;
      for (let s = 0; s < t && !dup; s++) {
        if (qr[s] == 0 || inst.cap[s] != inst.cap[t] || inst.weight[s] != inst.weight[t]) continue;
        let same = true;
        for (let i = 0; i < inst.nI && same; i++) if (inst.ok(i, s) != inst.ok(i, t)) same = false;
        dup = same;
      }
      if (dup) continue;
      const ks = this.ks;
      ks.reset(inst.cap[t], inst.eps);
      for (let r = 0; r < m; r++) {
        const yr = yv[r];
        if (yr <= 1e-12) continue;
        const i = this.rowItem[r];
        if (!inst.ok(i, t)) continue;
        let c = <i32>Math.floor((inst.cap[t] + inst.eps) / inst.size[i]);
        if (c > dr[i]) c = dr[i];
        if (c > 0) ks.add(i, yr, inst.size[i], c);
      }
      ks.solve();
      if (!ks.exact) exact = false;
      // The bound needs an upper bound on the knapsack optimum (the optimum when exact).
      if (ks.upper > 1e-12) {
        const th = inst.weight[t] / ks.upper;
        if (th < theta) theta = th;
      }
      // Reduced cost at the RMP duals (the pattern is best for yv, which may differ).
      let rc = inst.weight[t];
      for (let k = 0; k < ks.n; k++) {
        const c = ks.bestTake[k];
        if (c > 0) rc -= <f64>c * this.y[this.rowOf[ks.id[k]]];
      }
      if (rc < -RC_TOL * Math.max(1.0, inst.weight[t])) {
        this.scratchItem.clear();
        this.scratchCnt.clear();
        for (let k = 0; k < ks.n; k++) {
          if (ks.bestTake[k] > 0) {
            this.scratchItem.push(ks.id[k]);
            this.scratchCnt.push(ks.bestTake[k]);
          }
        }
        const p = this.addPattern(t);
        if (rc < bestRc) {
          bestRc = rc;
          best = p;
        }
      }
    }
    this.ks.exact = exact;
    this.pricedRc = bestRc;
    {
      let dy: f64 = 0;
      for (let r = 0; r < m; r++) if (yv[r] > 0) dy += <f64>dr[this.rowItem[r]] * yv[r];
      const farley = dy * (theta < 1.0 ? theta : 1.0);
      if (farley > this.bound) this.bound = farley;
      // The duals with the best bound so far are the stability centre.
      if (!this.centerOk || farley > this.centerBound) {
        if (yv !== this.center) memory.copy(this.center.dataStart, yv.dataStart, <usize>m << 3);
        this.centerBound = farley;
        this.centerOk = true;
      }
    }
    return best;
  }
}

/**
 * A saved basis: its rows, exchanges, basic columns, their costs and the basis inverse (the
 * first m entries, m x m; the arrays grow and are reused).
 */
export class BasisCopy {
  m: i32 = -1;
  nEx: i32 = 0;
  rowItem: Int32Array = new Int32Array(0);
  exBig: Int32Array = new Int32Array(0);
  exSmall: Int32Array = new Int32Array(0);
  basis: Int32Array = new Int32Array(0);
  cB: Float64Array = new Float64Array(0);
  binv: Float64Array = new Float64Array(0);

  set(mp: Master): void {
    const m = mp.m;
    if (this.basis.length < m) {
      this.rowItem = new Int32Array(m);
      this.basis = new Int32Array(m);
      this.cB = new Float64Array(m);
    }
    if (this.exBig.length < mp.nEx) {
      this.exBig = new Int32Array(mp.exBig.length);
      this.exSmall = new Int32Array(mp.exBig.length);
    }
    if (this.binv.length < m * m) this.binv = new Float64Array(m * m);
    this.m = m;
    this.nEx = mp.nEx;
    memory.copy(this.rowItem.dataStart, mp.rowItem.dataStart, <usize>m << 2);
    memory.copy(this.exBig.dataStart, mp.exBig.dataStart, <usize>mp.nEx << 2);
    memory.copy(this.exSmall.dataStart, mp.exSmall.dataStart, <usize>mp.nEx << 2);
    memory.copy(this.basis.dataStart, mp.basis.dataStart, <usize>m << 2);
    memory.copy(this.cB.dataStart, mp.cB.dataStart, <usize>m << 3);
    memory.copy(this.binv.dataStart, mp.binv.dataStart, <usize>(m * m) << 3);
  }
}
