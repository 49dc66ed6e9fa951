// Exact repacking of a few pieces into a given number of bars of one capacity, by bin
// completion (Korf's idea): the largest piece left opens the next bar, which is then filled
// with every maximal set of further pieces (a set another left piece would still fit in is
// dominated and skipped), and pieces of equal size are branched on once. The waste a bar
// leaves counts against the total the bar count allows, which prunes hard on the tight
// instances where plans end one bar above the bound (Falkenauer triplets: no waste at all).
// A node limit keeps each call short; a call that reaches it reports no plan.
//
// The search calls it on the residual of a dive (the pieces the fixed LP patterns left, once
// few), asking for one bar fewer than the best plan has: the LP gets the bulk of the plan
// right, and the exact search then fixes the last few bars that rounding gets wrong.

import { Instance } from "./instance";
import { Bar } from "./plan";
import { now } from "../common/clock";

/** Nodes between two looks at the clock. */
const CLOCK_EVERY: f64 = 4096;

export class Repacker {
  inst: Instance;
  cap: f64 = 0;
  eps: f64 = 0;
  /** Pieces (item indices), largest first, and the bar each one went to. */
  piece: Int32Array = new Int32Array(16);
  size: Float64Array = new Float64Array(16);
  used: Uint8Array = new Uint8Array(16);
  binOf: Int32Array = new Int32Array(16);
  n: i32 = 0;
  left: i32 = 0;
  bins: i32 = 0;
  nodes: f64 = 0;
  limit: f64 = 0;
  aborted: bool = false;
  deadline: f64 = 0;
  nextClock: f64 = 0;

  constructor(inst: Instance) {
    this.inst = inst;
  }

  /** Starts a new piece list. */
  reset(): void {
    this.n = 0;
  }

  add(i: i32): void {
    if (this.n >= this.piece.length) {
      const c = this.piece.length << 1;
      const p = new Int32Array(c);
      p.set(this.piece);
      this.piece = p;
      this.size = new Float64Array(c);
      this.used = new Uint8Array(c);
      this.binOf = new Int32Array(c);
    }
    this.piece[this.n++] = i;
  }

  /**
   * Packs the listed pieces into at most `bins` bars of stock row t within `nodeLimit` nodes
   * and the deadline; returns the bars, or null when none was found (infeasible or stopped).
   */
  solve(t: i32, bins: i32, nodeLimit: f64, deadline: f64): Array<Bar> | null {
    const inst = this.inst;
    const n = this.n;
    if (bins <= 0) return n == 0 ? new Array<Bar>() : null;
    this.cap = inst.cap[t];
    this.eps = inst.eps;
    // Largest first (insertion sort: the lists are short).
    const p = this.piece;
    for (let a = 1; a < n; a++) {
      const v = p[a];
      let j = a - 1;
      while (j >= 0 && inst.size[p[j]] < inst.size[v]) {
        p[j + 1] = p[j];
        j--;
      }
      p[j + 1] = v;
    }
    let sum: f64 = 0;
    for (let k = 0; k < n; k++) {
      this.size[k] = inst.size[p[k]];
      this.used[k] = 0;
      sum += this.size[k];
      if (this.size[k] > this.cap + this.eps) return null;
    }
    if (sum > <f64>bins * this.cap + this.eps) return null;
    this.left = n;
    this.bins = bins;
    this.nodes = 0;
    this.limit = nodeLimit;
    this.aborted = false;
    this.deadline = deadline;
    this.nextClock = CLOCK_EVERY;
    if (!this.open(bins, sum)) return null;
    const out = new Array<Bar>();
    for (let b = 0; b < bins; b++) out.push(new Bar(t));
    for (let k = 0; k < n; k++) out[this.binOf[k]].add(p[k], this.size[k]);
    // Bars left empty (fewer needed than allowed) are dropped.
    const kept = new Array<Bar>();
    for (let b = 0; b < bins; b++) if (out[b].n > 0) kept.push(out[b]);
    return kept;
  }

  /** Opens the next bar with the largest piece left. */
  private open(binsLeft: i32, remSum: f64): bool {
    if (this.left == 0) return true;
    if (binsLeft == 0) return false;
    const waste = <f64>binsLeft * this.cap - remSum;
    if (waste < -this.eps) return false;
    let f: i32 = 0;
    while (this.used[f] != 0) f++;
    const bar = this.bins - binsLeft;
    this.take(f, bar);
    const ok = this.fill(f + 1, this.cap - this.size[f], waste, binsLeft, remSum - this.size[f], bar);
    this.drop(f);
    return ok;
  }

  /** Completes the open bar with pieces from index j on (each size branched on once). */
  private fill(j: i32, room: f64, waste: f64, binsLeft: i32, remSum: f64, bar: i32): bool {
    if (this.aborted) return false;
    this.nodes += 1;
    if (this.nodes > this.limit) {
      this.aborted = true;
      return false;
    }
    if (this.nodes >= this.nextClock) {
      this.nextClock += CLOCK_EVERY;
      if (now() >= this.deadline) {
        this.aborted = true;
        return false;
      }
    }
    const n = this.n;
    let k = j;
    while (k < n && (this.used[k] != 0 || this.size[k] > room + this.eps)) k++;
    if (k == n) {
      // The bar is closed: skip it when a left piece still fits (dominated) or it wastes too much.
      if (room > waste + this.eps) return false;
      for (let z = n - 1; z >= 0; z--) {
        if (this.used[z] == 0) {
          if (this.size[z] <= room + this.eps) return false;
          break;
        }
      }
      return this.open(binsLeft - 1, remSum);
    }
    this.take(k, bar);
    if (this.fill(k + 1, room - this.size[k], waste, binsLeft, remSum - this.size[k], bar)) return true;
    this.drop(k);
    // Without k: skip every piece of the same size.
    let e = k + 1;
    while (e < n && this.size[e] == this.size[k]) e++;
    return this.fill(e, room, waste, binsLeft, remSum, bar);
  }

  @inline private take(k: i32, bar: i32): void {
    this.used[k] = 1;
    this.binOf[k] = bar;
    this.left--;
  }

  @inline private drop(k: i32): void {
    this.used[k] = 0;
    this.left++;
  }
}
