// Best-fit decreasing over several stock rows, and the "shrink" pass that moves each bar's
// content to the cheapest (then shortest) stock row that holds it. Used for the first
// plan, and to complete the residual demand of every search node into a full plan.

import { Instance } from "./instance";
import { Bar } from "./plan";
import { sortByKey } from "../common/arrays";
import { now } from "../common/clock";

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
  let pieces: i64 = 0;
  for (let i = 0; i < inst.nI; i++) pieces += dr[i];
  if (inst.nT == 1 && pieces > TREE_PIECES) {
    firstFitByTree(inst, dr, qr, order, bars, <i32>pieces);
    return;
  }
  const first = bars.length;
  // Room left, stock row and bar of each open bar that can still take a piece, in flat
  // arrays: the scan is the hot loop. A bar with less room than the shortest piece wanted is
  // dropped from the scan (swapped out), so tens of thousands of pieces stay fast.
  let room = new Float64Array(64);
  let type = new Int32Array(64);
  let barOf = new Int32Array(64);
  let nb: i32 = 0;
  const eps = inst.eps;
  let shortest: f64 = Infinity;
  for (let i = 0; i < inst.nI; i++) if (dr[i] > 0 && inst.size[i] < shortest) shortest = inst.size[i];
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
          const b2 = new Int32Array(nb << 1);
          memory.copy(r2.dataStart, room.dataStart, <usize>nb << 3);
          memory.copy(t2.dataStart, type.dataStart, <usize>nb << 2);
          memory.copy(b2.dataStart, barOf.dataStart, <usize>nb << 2);
          room = r2;
          type = t2;
          barOf = b2;
        }
        room[nb] = inst.cap[t];
        type[nb] = t;
        barOf[nb] = bars.length - 1;
        pick = nb++;
      }
      bars[barOf[pick]].add(i, s);
      room[pick] -= s;
      dr[i]--;
      if (room[pick] < shortest - eps) {
        nb--;
        room[pick] = room[nb];
        type[pick] = type[nb];
        barOf[pick] = barOf[nb];
      }
    }
  }
  shrink(inst, bars, qr, first);
}

/** Above this many pieces (one stock row) the greedy is first fit on a tree, O(n log n). */
const TREE_PIECES: i64 = 5000;

/**
 * First fit decreasing for one stock row with a max-room tree over the bars: the first bar
 * with room for a piece is found in O(log n), so 40,000 pieces take milliseconds where the
 * best-fit scan takes seconds. Nearly as good as best fit on such long lists.
 */
function firstFitByTree(inst: Instance, dr: Int32Array, qr: Int32Array, order: Int32Array, bars: Array<Bar>, pieces: i32): void {
  const first = bars.length;
  const eps = inst.eps;
  const cap = inst.cap[0];
  let size: i32 = 1;
  while (size < pieces) size <<= 1;
  // tree[size + slot] = room of bar `slot` (-1: not open); inner nodes hold the max below.
  const tree = new Float64Array(size << 1);
  tree.fill(-1.0);
  let nb: i32 = 0;
  for (let o = 0; o < order.length; o++) {
    const i = order[o];
    const s = inst.size[i];
    while (dr[i] > 0) {
      let slot: i32;
      if (tree[1] >= s - eps) {
        let node: i32 = 1;
        while (node < size) node = tree[node << 1] >= s - eps ? node << 1 : (node << 1) + 1;
        slot = node - size;
      } else {
        if (qr[0] == 0 || nb >= size) break;
        if (qr[0] > 0) qr[0]--;
        bars.push(new Bar(0));
        slot = nb++;
        tree[size + slot] = cap;
      }
      bars[first + slot].add(i, s);
      let node = size + slot;
      tree[node] -= s;
      node >>= 1;
      while (node >= 1) {
        const a = tree[node << 1], b = tree[(node << 1) + 1];
        tree[node] = a > b ? a : b;
        node >>= 1;
      }
      dr[i]--;
    }
  }
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

/** Largest room (integral lengths) and table size for the exact fill of one bar. */
const TABLE_MAX_ROOM: i32 = 200000;
const TABLE_MAX_CELLS: f64 = 400000;

/**
 * Minimum bin slack (Gupta and Ho): bar by bar, the largest piece left plus the subset of
 * the other pieces left that fills the bar best (depth-first over item types by decreasing
 * size, `nodeLimit` nodes per bar, stops at zero slack; exactly by a subset-sum table when
 * lengths are whole numbers and the bar is short). Slower than best fit, much better
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

  /** Past `deadline` it stops early, leaving the rest of dr unplaced (an incomplete plan). */
  run(dr: Int32Array, qr: Int32Array, bars: Array<Bar>, smallest: bool, deadline: f64 = Infinity): void {
    const inst = this.inst;
    const first = bars.length;
    const n = this.order.length;
    this.dr = dr;
    let head: i32 = 0;
    const skipped = new Int32Array(inst.nI);
    for (;;) {
      while (head < n && dr[this.order[head]] == 0) head++;
      if (head >= n) break;
      if (deadline < Infinity && now() >= deadline) break;
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
      // Integral lengths on a short bar: the best fill exactly, by a subset-sum table.
      if (!this.fillByTable(head, room)) this.dfs(head, room);
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

  // Subset-sum table for fillByTable: reach[c] = some subset of the pieces so far fills c;
  // from[c] = the piece (item position, count) that first reached c. A cell is set once, by
  // a piece later than the ones that reached c - weight, so walking back from the best cell
  // recovers one subset.
  reach: Uint8Array = new Uint8Array(0);
  fromPos: Int32Array = new Int32Array(0);
  fromCnt: Int32Array = new Int32Array(0);

  /** Best fill of `room` by the pieces left at positions k.. of the order; false when not applicable. */
  private fillByTable(k: i32, room: f64): bool {
    const inst = this.inst;
    const n = this.order.length;
    if (room != Math.floor(room) || room > <f64>TABLE_MAX_ROOM || room < 0) return false;
    const R = <i32>room;
    let pieces: f64 = 0;
    for (let q = k; q < n; q++) {
      const j = this.order[q];
      if (this.dr[j] == 0 || !inst.ok(j, this.t)) continue;
      if (inst.size[j] != Math.floor(inst.size[j])) return false;
      pieces += Math.floor(Math.log2(<f64>this.dr[j])) + 1.0;
    }
    if (pieces * (<f64>R + 1.0) > <f64>TABLE_MAX_CELLS) return false;
    if (this.reach.length < R + 1) {
      this.reach = new Uint8Array(R + 1);
      this.fromPos = new Int32Array(R + 1);
      this.fromCnt = new Int32Array(R + 1);
    }
    const reach = this.reach;
    memory.fill(reach.dataStart, 0, <usize>(R + 1));
    reach[0] = 1;
    let top: i32 = 0;
    // The first piece to reach a length wins: decreasing size, so larger pieces first.
    const rp = reach.dataStart;
    for (let q = k; q < n && top < R; q++) {
      const j = this.order[q];
      if (this.dr[j] == 0 || !inst.ok(j, this.t)) continue;
      const s = <i32>inst.size[j];
      if (s > R) continue;
      // Binary splitting of the count left: pieces of 1, 2, 4, ... copies.
      let left = this.dr[j];
      let c: i32 = 1;
      while (left > 0 && top < R) {
        const cnt = c < left ? c : left;
        left -= cnt;
        c <<= 1;
        const w = s * cnt;
        if (w > R) break;
        for (let x = R; x >= w; x--) {
          if (load<u8>(rp + <usize>x) == 0 && load<u8>(rp + <usize>(x - w)) != 0) {
            unchecked((reach[x] = 1));
            unchecked((this.fromPos[x] = q));
            unchecked((this.fromCnt[x] = cnt));
            if (x > top) top = x;
          }
        }
      }
    }
    for (let q = 0; q < n; q++) this.bestTake[q] = 0;
    let x = top;
    while (x > 0) {
      const q = this.fromPos[x];
      const cnt = this.fromCnt[x];
      this.bestTake[q] += cnt;
      x -= <i32>inst.size[this.order[q]] * cnt;
    }
    this.bestSlack = room - <f64>top;
    return true;
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
