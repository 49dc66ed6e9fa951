// Bar elimination by local search, for plans one or two bars above the lower bound. A round
// takes the lightest bar and a random other one apart; their pieces are "free". Every other
// bar then trades pieces with the free set whenever that makes the bar fuller (add one free
// piece, or swap 1 or 2 of its pieces for 1 or 2 free ones), so the free set drifts towards
// few, short pieces. When it empties, the plan has lost bars; otherwise the free pieces go to
// new bars by first fit decreasing and the result replaces the current plan when it has no
// more bars (a random walk over plans of equal count). The idea follows the swap local search
// of Levine and Ducatelle's ant colony bin packing, with an iterated-local-search frame.
//
// Only for plans whose bars all come from one stock row that every piece may use (the bench
// sets and most jobs); several stock rows keep the dives' plans.

import { Instance } from "./instance";
import { Bar, Plan } from "./plan";
import { Rng } from "../common/rng";
import { now } from "../common/clock";

const MAX_PASSES: i32 = 30;
/** Work units a round costs per bar besides its swaps (copying the plan). */
const ROUND_COST: i32 = 50;
/** Random bars taken apart per round besides the lightest. */
const VICTIMS: i32 = 1;
/** Chance per bar and pass of a neutral swap when no swap makes it fuller. */
const NEUTRAL_RATE: f64 = 0.1;

export class BarEmptier {
  inst: Instance;
  rng: Rng;
  t: i32 = 0;
  cap: f64 = 0;
  eps: f64 = 0;
  free: Int32Array = new Int32Array(16);
  nFree: i32 = 0;
  /** Swap candidates looked at in this call: the effort measure (counted, not timed). */
  evals: f64 = 0;
  walk: Array<Bar> | null = null;
  walkFrom: Plan | null = null;

  constructor(inst: Instance, rng: Rng) {
    this.inst = inst;
    this.rng = rng;
  }

  /** True when every bar is cut from one stock row and every piece may use it. */
  applicable(plan: Plan): bool {
    if (plan.unplaced > 0 || plan.bars.length < 2) return false;
    const t = plan.bars[0].t;
    for (let b = 1; b < plan.bars.length; b++) if (plan.bars[b].t != t) return false;
    for (let i = 0; i < this.inst.nI; i++) if (this.inst.dem[i] > 0 && !this.inst.ok(i, t)) return false;
    return true;
  }

  /**
   * Runs rounds until `deadline`, `maxEvals` swap candidates or a plan of `goal` bars;
   * returns the plan with the fewest bars found when it has fewer than the start, else null.
   * New bars are only ever made in place of released ones, so stock limits still hold.
   */
  run(start: Plan, goal: i32, deadline: f64, maxEvals: f64): Plan | null {
    const inst = this.inst;
    this.t = start.bars[0].t;
    this.cap = inst.cap[this.t];
    this.eps = inst.eps;
    // The walk goes on from where the last call left it while the start plan is the same.
    let cur = new Array<Bar>();
    if (this.walkFrom === start && this.walk !== null) cur = this.walk!;
    else for (let b = 0; b < start.bars.length; b++) cur.push(start.bars[b].clone());
    let bestCount = cur.length;
    let best: Array<Bar> | null = null;
    this.evals = 0;
    while (this.evals < maxEvals && bestCount > goal) {
      if (now() >= deadline) break;
      // A round copies every bar: count that as work too.
      this.evals += <f64>(ROUND_COST * cur.length);
      const work = new Array<Bar>();
      for (let b = 0; b < cur.length; b++) work.push(cur[b].clone());
      this.nFree = 0;
      // Victims: the lightest bar and random others.
      let light: i32 = 0;
      for (let b = 1; b < work.length; b++) if (work[b].load < work[light].load) light = b;
      this.release(work, light);
      for (let v = 0; v < VICTIMS && work.length > 1; v++) this.release(work, this.rng.int(work.length));
      this.search(work);
      if (this.nFree > 0) this.firstFit(work);
      if (work.length <= cur.length) cur = work;
      if (cur.length < bestCount) {
        bestCount = cur.length;
        const copy = new Array<Bar>();
        for (let b = 0; b < cur.length; b++) copy.push(cur[b].clone());
        best = copy;
      }
    }
    this.walk = cur;
    this.walkFrom = start;
    if (best === null) return null;
    const p = new Plan();
    p.bars = best!;
    return p;
  }

  /** Moves bar b's pieces to the free set and drops the bar. */
  private release(work: Array<Bar>, b: i32): void {
    const bar = work[b];
    for (let k = 0; k < bar.n; k++) this.pushFree(bar.items[k]);
    work[b] = work[work.length - 1];
    work.pop();
  }

  private pushFree(i: i32): void {
    if (this.nFree >= this.free.length) {
      const f = new Int32Array(this.free.length << 1);
      memory.copy(f.dataStart, this.free.dataStart, <usize>this.nFree << 2);
      this.free = f;
    }
    this.free[this.nFree++] = i;
  }

  private dropFree(k: i32): void {
    this.free[k] = this.free[--this.nFree];
  }

  /** Improving passes over the bars until none trades or the free set is empty. */
  private search(work: Array<Bar>): void {
    const nb = work.length;
    for (let pass = 0; pass < MAX_PASSES && this.nFree > 0; pass++) {
      let improved = false;
      const off = this.rng.int(nb);
      for (let z = 0; z < nb && this.nFree > 0; z++) {
        const bar = work[(z + off) % nb];
        if (this.insert(bar)) improved = true;
        if (this.nFree > 0 && this.swap(bar, false)) improved = true;
        else if (this.nFree > 0 && this.rng.float() < NEUTRAL_RATE) this.swap(bar, true);
      }
      if (!improved) break;
    }
  }

  /** Adds free pieces (largest first) while they fit. */
  private insert(bar: Bar): bool {
    const s = this.inst.size;
    let any = false;
    let pick: i32 = 0;
    while (pick >= 0) {
      pick = -1;
      for (let k = 0; k < this.nFree; k++) {
        const v = s[this.free[k]];
        if (bar.load + v <= this.cap + this.eps && (pick < 0 || v > s[this.free[pick]])) pick = k;
      }
      if (pick < 0) break;
      bar.add(this.free[pick], s[this.free[pick]]);
      this.dropFree(pick);
      any = true;
    }
    return any;
  }

  /** The best swap of 1-2 bar pieces for 1-2 free pieces that makes the bar fuller; false when none. */
  private swap(bar: Bar, allowNeutral: bool): bool {
    const s = this.inst.size;
    const room = this.cap + this.eps - bar.load;
    const nf = this.nFree;
    const n = bar.n;
    this.evals += <f64>(n * (n + 1) / 2) * <f64>(nf * (nf + 1) / 2) + 1.0;
    let bestGain: f64 = this.eps;
    let o1: i32 = -1, o2: i32 = -1, i1: i32 = -1, i2: i32 = -1;
    // Neutral swaps (same total, other pieces) are sampled uniformly: they reshuffle the free
    // set so that it may fit the room somewhere else later.
    let neutral: i32 = 0;
    let n1: i32 = -1, n2: i32 = -1, m1: i32 = -1, m2: i32 = -1;
    for (let a = 0; a < n; a++) {
      const sa = s[bar.items[a]];
      for (let b = a; b < n; b++) {
        // b == a: one piece out; else two.
        const out = b == a ? sa : sa + s[bar.items[b]];
        for (let f = 0; f < nf; f++) {
          const sf = s[this.free[f]];
          for (let g = f; g < nf; g++) {
            const inn = g == f ? sf : sf + s[this.free[g]];
            const gain = inn - out;
            if (gain > bestGain && gain <= room) {
              bestGain = gain;
              o1 = a; o2 = b; i1 = f; i2 = g;
            } else if (allowNeutral && Math.abs(gain) <= this.eps && (b == a) != (g == f) && this.rng.int(++neutral) == 0) {
              n1 = a; n2 = b; m1 = f; m2 = g;
            }
          }
        }
      }
    }
    if (o1 < 0) {
      if (neutral == 0) return false;
      o1 = n1; o2 = n2; i1 = m1; i2 = m2;
    }
    // Pieces in (remember them before the free set is edited), then out.
    const in1 = this.free[i1];
    const in2 = i2 != i1 ? this.free[i2] : -1;
    if (in2 >= 0) {
      if (i1 > i2) { this.dropFree(i1); this.dropFree(i2); } else { this.dropFree(i2); this.dropFree(i1); }
    } else this.dropFree(i1);
    const out1 = bar.items[o1];
    const out2 = o2 != o1 ? bar.items[o2] : -1;
    this.removeAt(bar, o1 > o2 ? o1 : o2);
    if (out2 >= 0) this.removeAt(bar, o1 < o2 ? o1 : o2);
    this.pushFree(out1);
    if (out2 >= 0) this.pushFree(out2);
    bar.add(in1, s[in1]);
    if (in2 >= 0) bar.add(in2, s[in2]);
    return true;
  }

  private removeAt(bar: Bar, k: i32): void {
    bar.load -= this.inst.size[bar.items[k]];
    bar.items[k] = bar.items[bar.n - 1];
    bar.n--;
  }

  /** Free pieces into new bars, first fit decreasing. */
  private firstFit(work: Array<Bar>): void {
    const s = this.inst.size;
    // Largest first (the free set is small: insertion sort).
    for (let a = 1; a < this.nFree; a++) {
      const v = this.free[a];
      let j = a - 1;
      while (j >= 0 && s[this.free[j]] < s[v]) {
        this.free[j + 1] = this.free[j];
        j--;
      }
      this.free[j + 1] = v;
    }
    const first = work.length;
    for (let k = 0; k < this.nFree; k++) {
      const i = this.free[k];
      let placed = false;
      for (let b = first; b < work.length && !placed; b++) {
        if (work[b].load + s[i] <= this.cap + this.eps) {
          work[b].add(i, s[i]);
          placed = true;
        }
      }
      if (!placed) {
        const bar = new Bar(this.t);
        bar.add(i, s[i]);
        work.push(bar);
      }
    }
    this.nFree = 0;
  }
}
