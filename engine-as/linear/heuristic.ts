// Best-fit decreasing over several stock rows, and the "shrink" pass that moves each bar's
// content to the cheapest (then shortest) stock row that holds it. Used for the first
// plan, and to complete the residual demand of every search node into a full plan.

import { Instance } from "./instance";
import { Bar } from "./plan";
import { sortByKey } from "../common/arrays";

/** Stock row to open for item i: the one the selection rule prefers among those left. */
function openType(inst: Instance, i: i32, qr: Int32Array, smallest: bool): i32 {
  let best: i32 = -1;
  for (let t = 0; t < inst.nT; t++) {
    if (qr[t] == 0 || !inst.ok(i, t) || inst.size[i] > inst.cap[t] + inst.eps) continue;
    if (best < 0) { best = t; continue; }
    if (smallest) {
      if (inst.cap[t] < inst.cap[best]) best = t;
    } else {
      // Cheapest per unit of length; ties to the longer bar (more room for what follows).
      const a = inst.weight[t] / inst.cap[t], b = inst.weight[best] / inst.cap[best];
      if (a < b - 1e-12 || (Math.abs(a - b) <= 1e-12 && inst.cap[t] > inst.cap[best])) best = t;
    }
  }
  return best;
}

/**
 * Places the demand dr (item counts) into `bars` by best fit decreasing, opening bars from
 * qr (decremented). `order` lists item types by decreasing size. dr is consumed: what is
 * left afterwards found no room and no stock.
 */
export function bestFitDecreasing(inst: Instance, dr: Int32Array, qr: Int32Array, order: Int32Array, bars: Array<Bar>, smallest: bool): void {
  const first = bars.length;
  // Room left and stock row of each open bar in flat arrays: the scan is the hot loop.
  let room = new Float64Array(64);
  let type = new Int32Array(64);
  let nb: i32 = 0;
  const eps = inst.eps;
  const nT = inst.nT;
  const allowed = inst.allowed.dataStart;
  for (let o = 0; o < order.length; o++) {
    const i = order[o];
    const s = inst.size[i];
    const row = allowed + <usize>(i * nT);
    while (dr[i] > 0) {
      let pick: i32 = -1;
      let left: f64 = Infinity;
      const rp = room.dataStart;
      const tp = type.dataStart;
      for (let b = 0; b < nb; b++) {
        const r = load<f64>(rp + (<usize>b << 3)) - s;
        if (r >= -eps && r < left && load<u8>(row + <usize>load<i32>(tp + (<usize>b << 2))) != 0) {
          left = r;
          pick = b;
        }
      }
      if (pick < 0) {
        const t = openType(inst, i, qr, smallest);
        if (t < 0) break;
        if (qr[t] > 0) qr[t]--;
        bars.push(new Bar(t));
        if (nb >= room.length) {
          const r2 = new Float64Array(nb << 1);
          const t2 = new Int32Array(nb << 1);
          memory.copy(r2.dataStart, room.dataStart, <usize>nb << 3);
          memory.copy(t2.dataStart, type.dataStart, <usize>nb << 2);
          room = r2;
          type = t2;
        }
        room[nb] = inst.cap[t];
        type[nb] = t;
        pick = nb++;
      }
      bars[first + pick].add(i, s);
      room[pick] -= s;
      dr[i]--;
    }
  }
  shrink(inst, bars, qr, first);
}

/** Moves each bar from `first` on to the cheapest, then shortest, row that holds it. */
export function shrink(inst: Instance, bars: Array<Bar>, qr: Int32Array, first: i32): void {
  for (let b = first; b < bars.length; b++) {
    const bar = bars[b];
    let best = bar.t;
    for (let t = 0; t < inst.nT; t++) {
      if (t == bar.t || qr[t] == 0 || bar.load > inst.cap[t] + inst.eps) continue;
      if (inst.weight[t] > inst.weight[best] || (inst.weight[t] == inst.weight[best] && inst.cap[t] >= inst.cap[best])) continue;
      let ok = true;
      for (let k = 0; k < bar.n && ok; k++) if (!inst.ok(bar.items[k], t)) ok = false;
      if (ok) best = t;
    }
    if (best != bar.t) {
      if (qr[bar.t] >= 0) qr[bar.t]++;
      if (qr[best] > 0) qr[best]--;
      bar.t = best;
    }
  }
}

/** Item types by decreasing size (ties by index; a stable merge sort). */
export function sizeOrder(inst: Instance): Int32Array {
  const n = inst.nI;
  const o = new Int32Array(n);
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    o[i] = i;
    key[i] = -inst.size[i];
  }
  sortByKey(o, n, key, new Int32Array(n));
  return o;
}

/**
 * Minimum bin slack (Gupta and Ho): bar by bar, the largest piece left plus the subset of
 * the other pieces left that fills the bar best (depth-first over item types by decreasing
 * size, `nodeLimit` nodes per bar, stops at zero slack). Slower than best fit, much better
 * on instances where a few pieces must fill a bar exactly (triplets, large items).
 */
export class MinSlack {
  inst: Instance;
  order: Int32Array;
  take: Int32Array;
  bestTake: Int32Array;
  bestSlack: f64 = 0;
  nodes: i32 = 0;
  nodeLimit: i32 = 5000;
  t: i32 = 0;
  dr: Int32Array = new Int32Array(0);

  constructor(inst: Instance, order: Int32Array) {
    this.inst = inst;
    this.order = order;
    this.take = new Int32Array(order.length);
    this.bestTake = new Int32Array(order.length);
  }

  run(dr: Int32Array, qr: Int32Array, bars: Array<Bar>, smallest: bool): void {
    const inst = this.inst;
    const first = bars.length;
    const n = this.order.length;
    this.dr = dr;
    let head: i32 = 0;
    const skipped = new Int32Array(inst.nI);
    for (;;) {
      while (head < n && dr[this.order[head]] == 0) head++;
      if (head >= n) break;
      const i = this.order[head];
      const t = openType(inst, i, qr, smallest);
      if (t < 0) {
        // No stock left for this piece: set it aside, give it back at the end.
        skipped[i] += dr[i];
        dr[i] = 0;
        continue;
      }
      dr[i]--;
      this.t = t;
      for (let k = 0; k < n; k++) { this.take[k] = 0; this.bestTake[k] = 0; }
      const room = inst.cap[t] - inst.size[i];
      this.bestSlack = room;
      this.nodes = 0;
      this.dfs(head, room);
      if (qr[t] > 0) qr[t]--;
      const bar = new Bar(t);
      bar.add(i, inst.size[i]);
      for (let k = head; k < n; k++) {
        const c = this.bestTake[k];
        if (c == 0) continue;
        const j = this.order[k];
        for (let q = 0; q < c; q++) bar.add(j, inst.size[j]);
        dr[j] -= c;
      }
      bars.push(bar);
    }
    for (let i = 0; i < inst.nI; i++) dr[i] += skipped[i];
    shrink(inst, bars, qr, first);
  }

  private dfs(k: i32, room: f64): void {
    if (room < this.bestSlack) {
      this.bestSlack = room;
      for (let q = 0; q < this.order.length; q++) this.bestTake[q] = this.take[q];
    }
    if (this.bestSlack <= this.inst.eps || k >= this.order.length || ++this.nodes > this.nodeLimit) return;
    const inst = this.inst;
    const j = this.order[k];
    let c: i32 = 0;
    if (inst.ok(j, this.t)) {
      c = <i32>Math.floor((room + inst.eps) / inst.size[j]);
      const avail = this.dr[j];
      if (c > avail) c = avail;
    }
    for (; c >= 0; c--) {
      this.take[k] = c;
      this.dfs(k + 1, room - <f64>c * inst.size[j]);
      if (this.bestSlack <= inst.eps || this.nodes > this.nodeLimit) break;
    }
    this.take[k] = 0;
  }
}
