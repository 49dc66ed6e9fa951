// The search: bounds, greedy plans (best fit decreasing, minimum bin slack), the root LP
// bound (started from the best greedy plan's patterns), then branch-and-price dives.
// A dive solves the residual LP, fixes every pattern the LP uses at least once (rounding
// down), else one copy of its most used fractional pattern (later dives pick among the top
// few at random, seeded), and repeats; a node whose fixed cost plus its rounded-up LP bound
// cannot beat the best plan is abandoned. Every node is also completed by best fit into a
// full plan. A plan whose objective meets the lower bound is proven optimal and ends the run.

import { Instance } from "./instance";
import { Bar, Plan } from "./plan";
import { Master, LP_INFEASIBLE, LP_OPTIMAL } from "./master";
import { bestFitDecreasing, sizeOrder, MinSlack } from "./heuristic";
import { cheapBound, roundBound } from "./bounds";
import { Rng, seedFromF64 } from "../common/rng";
import { Budget } from "../common/clock";

const MAX_STALE_DIVES: i32 = 200;
const MAX_LP_ROWS: i32 = 1500;
const SLACK_RESIDUAL: i32 = 120;

export class Search {
  inst: Instance;
  budget: Budget;
  master: Master;
  rng: Rng;
  order: Int32Array;
  best: Plan | null = null;
  lowerBound: f64 = 0;
  lpValue: f64 = -1;
  timeToBest: f64 = 0;
  dives: i32 = 0;
  stoppedByDeadline: bool = false;
  // Scratch for a dive.
  dr: Int32Array;
  qr: Int32Array;
  minSlack: MinSlack;
  /** Minimum bin slack costs nodes per bar: used below a size where it stays cheap. */
  useMinSlack: bool;

  constructor(inst: Instance, budget: Budget) {
    this.inst = inst;
    this.budget = budget;
    this.master = new Master(inst);
    this.rng = new Rng(seedFromF64(inst.seed));
    const order = sizeOrder(inst);
    this.order = order;
    this.dr = new Int32Array(inst.nI);
    this.qr = new Int32Array(inst.nT);
    this.minSlack = new MinSlack(inst, order);
    let pieces: i64 = 0;
    for (let i = 0; i < inst.nI; i++) pieces += inst.dem[i];
    this.useMinSlack = pieces <= 5000;
  }

  optimal(): bool {
    const b = this.best;
    if (b === null || b.unplaced > 0) return false;
    return b.objective <= this.lowerBound + 1e-9 * Math.max(1.0, this.lowerBound);
  }

  private offer(p: Plan): void {
    p.finish(this.inst);
    if (p.better(this.best, this.inst)) {
      this.best = p;
      this.timeToBest = this.budget.elapsed();
    }
  }

  /** Fixed bars plus best fit (and, with `slack`, minimum bin slack) on what is left of dr and qr. */
  private complete(fixed: Array<Bar>, smallest: bool, slack: bool = true): void {
    const p = new Plan();
    for (let k = 0; k < fixed.length; k++) p.bars.push(fixed[k].clone());
    const dr = new Int32Array(this.inst.nI);
    const qr = new Int32Array(this.inst.nT);
    dr.set(this.dr);
    qr.set(this.qr);
    bestFitDecreasing(this.inst, dr, qr, this.order, p.bars, smallest);
    this.offer(p);
    if (slack && this.useMinSlack) {
      const p2 = new Plan();
      for (let k = 0; k < fixed.length; k++) p2.bars.push(fixed[k].clone());
      dr.set(this.dr);
      qr.set(this.qr);
      this.minSlack.run(dr, qr, p2.bars, smallest);
      this.offer(p2);
    }
  }

  run(): void {
    const inst = this.inst;
    this.lowerBound = roundBound(inst, cheapBound(inst));
    this.resetResidual();
    this.complete(new Array<Bar>(), inst.smallest);
    if (this.budget.expired()) {
      this.stoppedByDeadline = true;
      return;
    }
    this.complete(new Array<Bar>(), !inst.smallest);
    if (this.optimal()) return;

    // The LP keeps a dense m x m basis inverse: beyond this many demanded item types the
    // run stays with the greedy plan and the cheap bounds.
    let demanded: i32 = 0;
    for (let i = 0; i < inst.nI; i++) if (inst.dem[i] > 0) demanded++;
    if (demanded > MAX_LP_ROWS) return;
    const seedPlan = this.best!;
    const nb = seedPlan.bars.length;
    const types = new Int32Array(nb);
    const starts = new Int32Array(nb + 1);
    let total: i32 = 0;
    for (let b = 0; b < nb; b++) total += seedPlan.bars[b].n;
    const items = new Int32Array(total);
    for (let b = 0; b < nb; b++) {
      const bar = seedPlan.bars[b];
      types[b] = bar.t;
      starts[b + 1] = starts[b] + bar.n;
      for (let k = 0; k < bar.n; k++) items[starts[b] + k] = bar.items[k];
    }
    // Unplaced pieces (short stock) make every plan's objective incomparable to the bound.
    this.master.target = seedPlan.unplaced == 0 ? seedPlan.objective : Infinity;
    const st = this.master.solveFrom(types, starts, items, nb, inst.dem, inst.qty, this.budget.deadline);
    if (st != LP_INFEASIBLE) {
      if (st == LP_OPTIMAL) this.lpValue = this.master.value;
      const lb = roundBound(inst, this.master.bound);
      if (lb > this.lowerBound) this.lowerBound = lb;
    }
    // Dives until proven, out of time, or this many dives in a row found nothing better (a
    // deterministic end, so a result does not depend on the machine when the budget is ample).
    let stale: i32 = 0;
    while (!this.optimal() && stale < MAX_STALE_DIVES) {
      if (this.budget.expired()) {
        this.stoppedByDeadline = true;
        break;
      }
      const before = this.best;
      this.dive(this.dives++);
      stale = this.best === before ? stale + 1 : 0;
    }
  }

  private resetResidual(): void {
    this.dr.set(this.inst.dem);
    this.qr.set(this.inst.qty);
  }

  private fixedObjective(fixed: Array<Bar>): f64 {
    let v: f64 = 0;
    for (let k = 0; k < fixed.length; k++) v += this.inst.weight[fixed[k].t];
    return v;
  }

  /** Cuts `copies` bars of pattern p, capped by the demand left and the stock left. */
  private fix(p: i32, copies: i32, fixed: Array<Bar>): void {
    const inst = this.inst;
    const mp = this.master;
    const t = mp.patType.data[p];
    for (let c = 0; c < copies; c++) {
      if (this.qr[t] == 0) return;
      const bar = new Bar(t);
      const e = mp.patStart.data[p + 1];
      for (let a = mp.patStart.data[p]; a < e; a++) {
        const i = mp.patItem.data[a];
        let n = mp.patCnt.data[a];
        if (n > this.dr[i]) n = this.dr[i];
        for (let k = 0; k < n; k++) bar.add(i, inst.size[i]);
        this.dr[i] -= n;
      }
      if (bar.n == 0) return;
      if (this.qr[t] > 0) this.qr[t]--;
      fixed.push(bar);
    }
  }

  private dive(k: i32): void {
    const inst = this.inst;
    const mp = this.master;
    this.resetResidual();
    const fixed = new Array<Bar>();
    const cand = new Int32Array(3);
    const candX = new Float64Array(3);
    for (;;) {
      let left: i32 = 0;
      for (let i = 0; i < inst.nI; i++) left += this.dr[i];
      if (left == 0) break;
      const fixedObj = this.fixedObjective(fixed);
      mp.target = this.best!.unplaced == 0 ? this.best!.objective - fixedObj : Infinity;
      const st = mp.resolve(this.dr, this.qr, this.budget.deadline);
      if (st == LP_INFEASIBLE) break;
      const best = this.best!;
      if (best.unplaced == 0) {
        const reach = fixedObj + roundBound(inst, mp.bound);
        if (reach >= best.objective - 1e-9 * Math.max(1.0, best.objective)) return;
      }
      if (this.budget.expired()) break;
      // Round down every pattern the LP uses at least once.
      let rounded = false;
      let nc: i32 = 0;
      for (let r = 0; r < mp.m; r++) {
        const p = mp.basis[r];
        const x = mp.xB[r];
        if (p < 0 || x <= 1e-5) continue;
        const whole = <i32>Math.floor(x + 1e-6);
        if (whole >= 1) {
          this.fix(p, whole, fixed);
          rounded = true;
          continue;
        }
        // Keep the three largest fractional values.
        let pos = nc < 3 ? nc++ : 3;
        while (pos > 0 && candX[pos - 1] < x) {
          if (pos < 3) { cand[pos] = cand[pos - 1]; candX[pos] = candX[pos - 1]; }
          pos--;
        }
        if (pos < 3) { cand[pos] = p; candX[pos] = x; }
      }
      if (rounded) continue;
      if (nc == 0) break;
      // Minimum bin slack only on a small residual: there it is cheap and often exact.
      this.complete(fixed, inst.smallest, left <= SLACK_RESIDUAL);
      if (this.optimal()) return;
      let pick: i32 = 0;
      if (k > 0 && nc > 1) {
        // Later dives: a seeded choice among the top candidates, weighted by their value.
        let sum: f64 = 0;
        for (let c = 0; c < nc; c++) sum += candX[c];
        let r = this.rng.float() * sum;
        pick = nc - 1;
        for (let c = 0; c < nc; c++) {
          r -= candX[c];
          if (r < 0) { pick = c; break; }
        }
      }
      this.fix(cand[pick], 1, fixed);
    }
    this.complete(fixed, inst.smallest);
  }
}
