// Probing the reduced-cost cover's patterns (rc-cover.ts) by the LP over those patterns alone.
//
// The argument. A plan of at most k bars is an exact cover of the demand d by at most k of the
// enumerated patterns (rc-cover.ts's header). If it uses pattern p, its other bars cover
// d - a_p exactly with at most k - 1 patterns of the set S still possible, so the LP
// min sum x, A_S x = d - a_p, x >= 0 is at most k - 1. Any y with y.a_q <= 1 for every q in S
// bounds that LP from below by y.(d - a_p) (weak duality; y free, the rows being equations).
// So a p whose bound exceeds k - 1 is in no such plan and leaves S, which can only raise the
// other bounds; rounds repeat while patterns leave. Unlike the enumeration's duals, these
// need be feasible only on S, not on every pattern, which is what makes them strong.
// Each bound is a dual simplex from the LP's optimal basis at d, with a column e_r of cost
// BIG per row (a relaxation: more columns only lower the LP, and the start is feasible);
// whatever the simplex does, a removal rests on y scaled into feasibility on S and the
// columns e_r and evaluated at the exact d - a_p.

import { Instance } from "./instance";
import { subScaledRow, perturbation } from "./dense";
import { now } from "../common/clock";

const TOL: f64 = 1e-9;
/** A bound must exceed k - 1 by this much to remove a pattern (floating-point sums of y). */
const MARGIN: f64 = 1e-7;
/** Pivots a probe may take (the bound checked before each); a probe stopped keeps its pattern. */
const PROBE_PIVOTS: i32 = 60;
/** Patterns are probed every PROBE_STRIDE-th (a spread sample first, for the rule below). */
const PROBE_STRIDE: i32 = 8;
/**
 * The first round stops after this many probes when under a fifth of them removed their
 * pattern (Hard28 at k = optimum - 1, where no plan exists: 25-54 of the first 100; at
 * k = optimum, where one does: BPP144 14, 40 13, but 709 22, 419 30 and 485 48: fitted to
 * spare the two whose optimum the dives find late).
 */
const PROBE_SAMPLE: i32 = 100;
/**
 * Removals between two solves of the LP at d within a round (Hard28 at k = optimum - 1, the
 * cover alone: BPP14, 175, 359, 716 then take 1.4e8 work in all where whole rounds took
 * 2.2e8, BPP716 2.2e7 where 5.6e7; every 8 to 32 removals gave about the same).
 */
const PROBE_REFRESH: i32 = 8;

/** run's answers: no plan of k bars at all; rounds until none removed; stopped early. */
export const PROBE_NO_PLAN: i32 = 0;
export const PROBE_DONE: i32 = 1;
export const PROBE_STOPPED: i32 = 2;

export class CoverProbe {
  inst: Instance;
  /** Simplex pivots of the last run (the caller counts them as work). */
  pivots: i32 = 0;
  /** Probes of the last run, and whether it stopped on the job's deadline. */
  probes: i32 = 0;
  timedOut: bool = false;
  /** Rounds of the last run. */
  rounds: i32 = 0;
  /** removed[p] != 0: pattern p is in no plan of k bars. */
  removed: Uint8Array = new Uint8Array(0);
  private m: i32 = 0;
  private np: i32 = 0;
  private big: f64 = 0;
  private rowOf: Int32Array;
  private start: Int32Array = new Int32Array(0);
  // Each entry's LP row and count, resolved once: dot and ftran run in every pivot.
  private entryRow: Int32Array = new Int32Array(0);
  private entryCnt: Float64Array = new Float64Array(0);
  private b: Float64Array = new Float64Array(0);
  private bp: Float64Array = new Float64Array(0);
  private binv: Float64Array = new Float64Array(0);
  private basis: Int32Array = new Int32Array(0);
  private pos: Int32Array = new Int32Array(0);
  private xb: Float64Array = new Float64Array(0);
  private y: Float64Array = new Float64Array(0);
  private col: Float64Array = new Float64Array(0);
  // The LP's optimum at d, the start of every probe.
  private binv0: Float64Array = new Float64Array(0);
  private basis0: Int32Array = new Int32Array(0);
  private xb0: Float64Array = new Float64Array(0);
  private y0: Float64Array = new Float64Array(0);

  constructor(inst: Instance) {
    this.inst = inst;
    this.rowOf = new Int32Array(inst.nI);
  }

  /**
   * Removes the patterns (entries start[p] .. start[p+1] of (item, cnt), p < np) that no plan
   * of k bars can use, within maxPivots (PROBE_*) and the deadline (host clock, ms).
   */
  run(start: Int32Array, item: Int32Array, cnt: Int32Array, np: i32, k: i32, maxPivots: i32, deadline: f64): i32 {
    const inst = this.inst;
    this.pivots = 0;
    this.probes = 0;
    this.timedOut = false;
    this.rounds = 0;
    this.np = np;
    this.start = start;
    this.removed = new Uint8Array(np);
    let m: i32 = 0;
    for (let i = 0; i < inst.nI; i++) this.rowOf[i] = inst.dem[i] > 0 ? m++ : -1;
    const entries = start[np];
    this.entryRow = new Int32Array(entries);
    this.entryCnt = new Float64Array(entries);
    for (let a = 0; a < entries; a++) {
      this.entryRow[a] = this.rowOf[item[a]];
      this.entryCnt[a] = <f64>cnt[a];
    }
    this.m = m;
    this.big = <f64>(100 * k + 100);
    this.b = new Float64Array(m);
    for (let i = 0; i < inst.nI; i++) if (this.rowOf[i] >= 0) this.b[this.rowOf[i]] = <f64>inst.dem[i];
    this.bp = new Float64Array(m);
    this.binv = new Float64Array(m * m);
    this.binv0 = new Float64Array(m * m);
    this.basis = new Int32Array(m);
    this.basis0 = new Int32Array(m);
    this.pos = new Int32Array(np + m);
    this.xb = new Float64Array(m);
    this.xb0 = new Float64Array(m);
    this.y = new Float64Array(m);
    this.y0 = new Float64Array(m);
    this.col = new Float64Array(m);
    let more = true;
    while (more) {
      more = false;
      this.rounds++;
      if (!this.solveAtDemand(maxPivots)) return PROBE_STOPPED;
      // The LP over S at d above k: no plan of k bars at all.
      if (this.certified(this.b) > <f64>k + MARGIN) return this.noPlan();
      this.saveStart();
      let removed: i32 = 0;
      let probed: i32 = 0;
      let refreshedAt: i32 = 0;
      for (let off = 0; off < PROBE_STRIDE; off++) {
        for (let p = off; p < np; p += PROBE_STRIDE) {
          if (this.removed[p] != 0) continue;
          if (this.pivots >= maxPivots) return PROBE_STOPPED;
          if ((++this.probes & 7) == 0 && now() >= deadline) {
            this.timedOut = true;
            return PROBE_STOPPED;
          }
          if (this.probe(p, k - 1, maxPivots)) {
            this.removed[p] = 1;
            removed++;
            more = true;
          }
          // Where k bars are possible, few patterns leave and each kept one costs up to
          // PROBE_PIVOTS: stop when under a fifth of the first PROBE_SAMPLE left.
          if (this.rounds == 1 && ++probed == PROBE_SAMPLE && 5 * removed < probed) return PROBE_STOPPED;
          // Every PROBE_REFRESH removals the LP at d over what is left is solved again: it may
          // already exceed k, and the probes after it start from the higher bound.
          if (removed - refreshedAt >= PROBE_REFRESH) {
            refreshedAt = removed;
            if (!this.refresh(maxPivots)) return PROBE_STOPPED;
            if (this.certified(this.b) > <f64>k + MARGIN) return this.noPlan();
          }
        }
      }
    }
    return PROBE_DONE;
  }

  private noPlan(): i32 {
    this.removed.fill(1);
    return PROBE_NO_PLAN;
  }

  @inline private cost(j: i32): f64 {
    return j < this.np ? 1.0 : this.big;
  }

  // The loops of every pivot read the arrays by address (load/store), not by index: asc
  // leaves each indexed read a call, which only the build's second pass inlines (Makefile).

  /** v . a_j, v at vp (a Float64Array's data). */
  @inline private dot(vp: usize, j: i32): f64 {
    if (j >= this.np) return load<f64>(vp + (<usize>(j - this.np) << 3));
    const rp = this.entryRow.dataStart;
    const cp = this.entryCnt.dataStart;
    const sp = this.start.dataStart;
    const end = load<i32>(sp + (<usize>(j + 1) << 2));
    let s: f64 = 0;
    for (let a = load<i32>(sp + (<usize>j << 2)); a < end; a++) {
      s += load<f64>(vp + (<usize>load<i32>(rp + (<usize>a << 2)) << 3)) * load<f64>(cp + (<usize>a << 3));
    }
    return s;
  }

  /** col = B^-1 a_j. */
  private ftran(j: i32): void {
    const m = this.m;
    const bp = this.binv.dataStart;
    const colp = this.col.dataStart;
    const stride = <usize>m << 3;
    if (j >= this.np) {
      const r = j - this.np;
      for (let i = 0; i < m; i++) store<f64>(colp + (<usize>i << 3), load<f64>(bp + <usize>i * stride + (<usize>r << 3)));
      return;
    }
    this.col.fill(0);
    for (let a = this.start[j]; a < this.start[j + 1]; a++) {
      const src = bp + (<usize>this.entryRow[a] << 3);
      const c = this.entryCnt[a];
      for (let i = 0; i < m; i++) {
        const o = colp + (<usize>i << 3);
        store<f64>(o, load<f64>(o) + c * load<f64>(src + <usize>i * stride));
      }
    }
  }

  /** Column j enters at row r (col = B^-1 a_j); y moves by t times row r of B^-1. */
  private pivot(r: i32, j: i32, t: f64): void {
    const m = this.m;
    const colp = this.col.dataStart;
    const yp = this.y.dataStart;
    const xp = this.xb.dataStart;
    const rowR = this.binv.dataStart + (<usize>(r * m) << 3);
    for (let c = 0; c < m; c++) {
      const o = <usize>c << 3;
      store<f64>(yp + o, load<f64>(yp + o) + t * load<f64>(rowR + o));
    }
    const d = load<f64>(colp + (<usize>r << 3));
    for (let c = 0; c < m; c++) {
      const o = rowR + (<usize>c << 3);
      store<f64>(o, load<f64>(o) / d);
    }
    const xr = load<f64>(xp + (<usize>r << 3)) / d;
    store<f64>(xp + (<usize>r << 3), xr);
    for (let i = 0; i < m; i++) {
      const ci = load<f64>(colp + (<usize>i << 3));
      if (i == r || ci == 0) continue;
      subScaledRow(this.binv.dataStart + (<usize>(i * m) << 3), rowR, ci, 0, m, true);
      store<f64>(xp + (<usize>i << 3), load<f64>(xp + (<usize>i << 3)) - ci * xr);
    }
    this.pos[this.basis[r]] = -1;
    this.basis[r] = j;
    this.pos[j] = r;
    this.pivots++;
  }

  /** The LP at d (slightly perturbed against cycling) by the primal simplex from the columns e_r. */
  private solveAtDemand(maxPivots: i32): bool {
    const m = this.m;
    const np = this.np;
    this.binv.fill(0);
    this.pos.fill(-1);
    for (let r = 0; r < m; r++) {
      this.binv[r * m + r] = 1;
      this.basis[r] = np + r;
      this.pos[np + r] = r;
      this.xb[r] = this.b[r] + perturbation(r);
      this.y[r] = this.big;
    }
    return this.primal(maxPivots);
  }

  /**
   * The LP at d over the patterns still in S again, from the round's start basis (a removed
   * basic column prices at BIG, so it leaves), as the start of the probes that follow.
   */
  private refresh(maxPivots: i32): bool {
    const m = this.m;
    const np = this.np;
    this.restoreStart();
    const t = this.big - 1.0;
    for (let r = 0; r < m; r++) {
      const j = this.basis[r];
      if (j < np && this.removed[j] != 0) {
        for (let c = 0; c < m; c++) this.y[c] += t * this.binv[r * m + c];
      }
    }
    if (!this.primal(maxPivots)) return false;
    this.saveStart();
    return true;
  }

  /** Primal simplex pivots from a feasible basis until optimal (true) or the pivots run out. */
  private primal(maxPivots: i32): bool {
    const m = this.m;
    const np = this.np;
    while (this.pivots < maxPivots) {
      let enter: i32 = -1;
      let most: f64 = -TOL;
      const posp = this.pos.dataStart;
      const remp = this.removed.dataStart;
      const yp = this.y.dataStart;
      for (let j = 0; j < np + m; j++) {
        if (load<i32>(posp + (<usize>j << 2)) >= 0 || (j < np && load<u8>(remp + <usize>j) != 0)) continue;
        const d = this.cost(j) - this.dot(yp, j);
        if (d < most) { most = d; enter = j; }
      }
      if (enter < 0) return true;
      this.ftran(enter);
      let r: i32 = -1;
      let best: f64 = Infinity;
      for (let i = 0; i < m; i++) {
        if (this.col[i] <= TOL) continue;
        const q = this.xb[i] / this.col[i];
        if (q < best) { best = q; r = i; }
      }
      if (r < 0) return false;
      this.pivot(r, enter, most / this.col[r]);
    }
    return false;
  }

  /** The basis every probe starts from (the LP's optimum at d). */
  private saveStart(): void {
    this.binv0.set(this.binv);
    this.basis0.set(this.basis);
    this.xb0.set(this.xb);
    this.y0.set(this.y);
  }

  private restoreStart(): void {
    this.binv.set(this.binv0);
    this.basis.set(this.basis0);
    this.xb.set(this.xb0);
    this.y.set(this.y0);
    this.pos.fill(-1);
    for (let r = 0; r < this.m; r++) this.pos[this.basis[r]] = r;
  }

  /**
   * A lower bound on the LP over S at demand v from the current y: y scaled down until no
   * column of S (nor e_r at its cost) exceeds its cost, then y.v.
   */
  private certified(v: Float64Array): f64 {
    const remp = this.removed.dataStart;
    const yp = this.y.dataStart;
    let s: f64 = 1;
    for (let p = 0; p < this.np; p++) {
      if (load<u8>(remp + <usize>p) == 0) s = Math.max(s, this.dot(yp, p));
    }
    let z: f64 = 0;
    for (let r = 0; r < this.m; r++) {
      s = Math.max(s, this.y[r] / this.big);
      z += this.y[r] * v[r];
    }
    return z / s;
  }

  /** True when the LP over S at d - a_p provably exceeds `limit`: p is in no plan. */
  private probe(p: i32, limit: f64, maxPivots: i32): bool {
    const m = this.m;
    const np = this.np;
    this.restoreStart();
    this.bp.set(this.b);
    for (let a = this.start[p]; a < this.start[p + 1]; a++) this.bp[this.entryRow[a]] -= this.entryCnt[a];
    this.ftran(p);
    for (let i = 0; i < m; i++) this.xb[i] -= this.col[i];
    const yp = this.y.dataStart;
    const bpp = this.bp.dataStart;
    const xp = this.xb.dataStart;
    const posp = this.pos.dataStart;
    const remp = this.removed.dataStart;
    const rp = this.entryRow.dataStart;
    const cp = this.entryCnt.dataStart;
    const sp = this.start.dataStart;
    for (let it = 0; it <= PROBE_PIVOTS && this.pivots < maxPivots; it++) {
      let z: f64 = 0;
      for (let c = 0; c < m; c++) z += load<f64>(yp + (<usize>c << 3)) * load<f64>(bpp + (<usize>c << 3));
      if (z > limit + MARGIN && this.certified(this.bp) > limit + MARGIN) return true;
      let r: i32 = -1;
      let most: f64 = -TOL;
      for (let i = 0; i < m; i++) {
        const x = load<f64>(xp + (<usize>i << 3));
        if (x < most) { most = x; r = i; }
      }
      if (r < 0) return false;
      // Row r of B^-1 (the pivot changes it only after this test).
      const rho = this.binv.dataStart + (<usize>(r * m) << 3);
      let enter: i32 = -1;
      let best: f64 = Infinity;
      let bestAlpha: f64 = 0;
      // The patterns, then the columns e_r (the order of j); each sum in dot's order.
      let a = load<i32>(sp);
      for (let j = 0; j < np; j++) {
        const end = load<i32>(sp + (<usize>(j + 1) << 2));
        if (load<i32>(posp + (<usize>j << 2)) >= 0 || load<u8>(remp + <usize>j) != 0) {
          a = end;
          continue;
        }
        let alpha: f64 = 0;
        let ya: f64 = 0;
        for (; a < end; a++) {
          const o = <usize>load<i32>(rp + (<usize>a << 2)) << 3;
          const c = load<f64>(cp + (<usize>a << 3));
          alpha += load<f64>(rho + o) * c;
          ya += load<f64>(yp + o) * c;
        }
        if (alpha >= -TOL) continue;
        let d = 1.0 - ya;
        if (d < 0) d = 0;
        const q = d / -alpha;
        if (q < best || (q == best && alpha < bestAlpha)) { best = q; enter = j; bestAlpha = alpha; }
      }
      for (let i = 0; i < m; i++) {
        if (load<i32>(posp + (<usize>(np + i) << 2)) >= 0) continue;
        const alpha = load<f64>(rho + (<usize>i << 3));
        if (alpha >= -TOL) continue;
        let d = this.big - load<f64>(yp + (<usize>i << 3));
        if (d < 0) d = 0;
        const q = d / -alpha;
        if (q < best || (q == best && alpha < bestAlpha)) { best = q; enter = np + i; bestAlpha = alpha; }
      }
      if (enter < 0) return false;
      this.ftran(enter);
      this.pivot(r, enter, -best);
    }
    return false;
  }
}
