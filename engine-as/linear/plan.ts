// A complete cutting plan: bars, each a stock row and the items cut from it. Plans are
// compared by the objective (unplaced items, then bars or cost, then distinct patterns,
// then the longest remnant), so every search stage can keep the best it has seen.

import { Instance } from "./instance";

export class Bar {
  t: i32;
  items: Int32Array;
  n: i32 = 0;
  load: f64 = 0;

  constructor(t: i32, cap: i32 = 8) {
    this.t = t;
    this.items = new Int32Array(cap < 4 ? 4 : cap);
  }

  add(i: i32, size: f64): void {
    if (this.n >= this.items.length) {
      const d = new Int32Array(this.items.length << 1);
      memory.copy(d.dataStart, this.items.dataStart, <usize>this.n << 2);
      this.items = d;
    }
    unchecked((this.items[this.n++] = i));
    this.load += size;
  }

  clone(): Bar {
    const b = new Bar(this.t, this.n);
    memory.copy(b.items.dataStart, this.items.dataStart, <usize>this.n << 2);
    b.n = this.n;
    b.load = this.load;
    return b;
  }

  /** Items by decreasing size (ties by index): the cut order, and a canonical pattern key. */
  sortItems(inst: Instance): void {
    for (let a = 1; a < this.n; a++) {
      const v = this.items[a];
      let j = a - 1;
      while (j >= 0 && before(inst, v, this.items[j])) {
        this.items[j + 1] = this.items[j];
        j--;
      }
      this.items[j + 1] = v;
    }
  }

  samePattern(o: Bar): bool {
    if (o.t != this.t || o.n != this.n) return false;
    for (let k = 0; k < this.n; k++) if (this.items[k] != o.items[k]) return false;
    return true;
  }
}

@inline function before(inst: Instance, a: i32, b: i32): bool {
  const sa = unchecked(inst.size[a]);
  const sb = unchecked(inst.size[b]);
  return sa > sb || (sa == sb && a < b);
}

export class Plan {
  bars: Array<Bar> = new Array<Bar>();
  unplaced: i32 = 0;
  objective: f64 = 0;
  patterns: i32 = 0;
  /** Total capacity used (the tie-break for bars of several lengths). */
  length: f64 = 0;
  remnant: f64 = 0;

  clone(): Plan {
    const p = new Plan();
    for (let k = 0; k < this.bars.length; k++) p.bars.push(this.bars[k].clone());
    p.unplaced = this.unplaced;
    p.objective = this.objective;
    p.patterns = this.patterns;
    p.length = this.length;
    p.remnant = this.remnant;
    return p;
  }

  /** Sorts bars and their items canonically and recomputes the objective terms. */
  finish(inst: Instance): void {
    const bars = this.bars;
    for (let k = 0; k < bars.length; k++) bars[k].sortItems(inst);
    // Identical patterns next to each other, fuller bars first: the last bar keeps the remnant.
    bars.sort((a: Bar, b: Bar): i32 => {
      if (a.t != b.t) return a.t - b.t;
      if (a.load != b.load) return a.load > b.load ? -1 : 1;
      const n = a.n < b.n ? a.n : b.n;
      for (let k = 0; k < n; k++) if (a.items[k] != b.items[k]) return a.items[k] - b.items[k];
      return a.n - b.n;
    });
    const placed = new Int32Array(inst.nI);
    let obj: f64 = 0;
    let len: f64 = 0;
    let pats: i32 = 0;
    let rem: f64 = 0;
    for (let k = 0; k < bars.length; k++) {
      const b = bars[k];
      for (let j = 0; j < b.n; j++) placed[b.items[j]]++;
      obj += inst.weight[b.t];
      len += inst.cap[b.t];
      if (k == 0 || !b.samePattern(bars[k - 1])) pats++;
      const free = inst.cap[b.t] - b.load;
      if (free > rem) rem = free;
    }
    let un: i32 = 0;
    for (let i = 0; i < inst.nI; i++) if (inst.want[i] > placed[i]) un += inst.want[i] - placed[i];
    this.unplaced = un;
    this.objective = obj;
    this.length = len;
    this.patterns = pats;
    this.remnant = rem;
  }

  /** True when this plan is strictly better than `o`. */
  better(o: Plan | null, inst: Instance): bool {
    if (o === null) return true;
    if (this.unplaced != o.unplaced) return this.unplaced < o.unplaced;
    const tol = 1e-9 * Math.max(1.0, Math.abs(o.objective));
    if (Math.abs(this.objective - o.objective) > tol) return this.objective < o.objective;
    if (this.patterns != o.patterns) return this.patterns < o.patterns;
    if (Math.abs(this.length - o.length) > inst.eps) return this.length < o.length;
    return this.remnant > o.remnant + inst.eps;
  }
}
