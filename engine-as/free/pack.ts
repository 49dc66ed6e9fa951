// Free (non-guillotine) packing for CNC routers: sheets filled by maximal-rectangles
// placement, improved by the same destroy-and-repack search as the guillotine engine.
//
// A construction takes the item types in a priority order and fills one sheet at a time:
// each type in turn goes in as often as it fits, every copy at the free rectangle the
// placement rule scores best (both orientations the grain allows). Each new sheet is tried
// on a few stock types and the fullest kept. The search then frees a weak sheet and a few
// partners, re-packs their parts with a random order and rule, and keeps the result when
// the objective (placed area, sheet area, cost, fill concentration) is not worse.

import { Instance, typeL, typeW, typeArea, maskOn } from "../guillotine/instance";
import { Sheet, Objective, compareObjectives } from "../guillotine/solution";
import { NODE_STRIDE, N_KIND, N_ITEM, N_CHILDREN, KIND_PART, KIND_FREE } from "../guillotine/layout";
import { F64Vec, I32Vec, ensureI32, ensureF64, sortByKey } from "../common/arrays";
import { Rng } from "../common/rng";
import { Budget, now } from "../common/clock";
import { MaxRects, FREE_RULES, RULE_SHORT_SIDE, freeScans } from "./maxrects";

/** Stock types tried per sheet when a component has many: the largest and smallest halves. */
const CAND_CAP: i32 = 8;
/** 'smallest' takes a smaller sheet when its fill is at least this fraction of the best. */
const SMALLEST_SLACK: f64 = 0.9;
/** Base orderings of the fixed constructions (see orderValue). */
const ORDERS: i32 = 5;
const NOISE_LEVELS: StaticArray<f64> = [0.0, 0.03, 0.1, 0.3];
/** Minimum effort charged per search step (free-rectangle scans). */
const STEP_WORK: i64 = 64;
const WASTE_FLOOR: f64 = 0.02;

export class FreeSearch {
  inst: Instance;
  budget: Budget;
  rng: Rng;
  sheets: Array<Array<Sheet>> = new Array<Array<Sheet>>();
  lowerBound: Int32Array;
  iterations: i64 = 0;
  timeToBest: f64 = 0;
  stoppedByDeadline: bool = false;

  private mr: MaxRects = new MaxRects();
  private nodes: F64Vec = new F64Vec(256);
  private keep: F64Vec = new F64Vec(256);
  private placedArea: f64 = 0;
  private placedCount: i32 = 0;
  private key: Float64Array;
  private rule: i32 = RULE_SHORT_SIDE;
  private seq: Int32Array = new Int32Array(16);
  private tmp: Int32Array = new Int32Array(16);
  private cand: Int32Array = new Int32Array(16);
  private candPlaced: Float64Array = new Float64Array(16);
  private candCount: Int32Array = new Int32Array(16);
  private demand: Int32Array;
  private avail: Int32Array;
  private used: Int32Array;
  private placed: Int32Array;
  private unplaced: Int32Array;
  private touched: I32Vec = new I32Vec(64);
  private chosen: I32Vec = new I32Vec(8);
  private oldObj: Objective = new Objective();
  private newObj: Objective = new Objective();

  constructor(inst: Instance, budget: Budget, lowerBound: Int32Array) {
    this.inst = inst;
    this.budget = budget;
    this.rng = new Rng(inst.seed);
    this.lowerBound = lowerBound;
    const nt = inst.nTypes > 0 ? inst.nTypes : 1;
    const ns = inst.nStocks > 0 ? inst.nStocks : 1;
    this.key = new Float64Array(nt);
    this.demand = new Int32Array(nt);
    this.placed = new Int32Array(nt);
    this.avail = new Int32Array(ns);
    this.used = new Int32Array(ns);
    this.unplaced = new Int32Array(inst.nComps > 0 ? inst.nComps : 1);
    for (let c = 0; c < inst.nComps; c++) this.sheets.push(new Array<Sheet>());
  }

  @inline work(): i64 {
    return freeScans();
  }

  // ---------------------------------------------------------------- genomes

  /** Keys (lower = packed earlier) of types[0..n) by ordering `order`, scaled by random noise. */
  private shape(types: Int32Array, n: i32, order: i32, noise: f64, rule: i32): void {
    for (let i = 0; i < n; i++) {
      const t = unchecked(types[i]);
      const l = typeL(t);
      const w = typeW(t);
      let v: f64;
      if (order == 0) v = l * w;
      else if (order == 1) v = Math.max(l, w) * 1e6 + Math.min(l, w);
      else if (order == 2) v = l + w;
      else if (order == 3) v = Math.min(l, w) * 1e6 + Math.max(l, w);
      else v = l * 1e6 + w;
      if (noise > 0) v *= 1.0 + noise * (2.0 * this.rng.float() - 1.0);
      unchecked((this.key[t] = -v));
    }
    this.rule = rule;
  }

  private randomShape(types: Int32Array, n: i32): void {
    const rng = this.rng;
    this.shape(types, n, rng.int(ORDERS), NOISE_LEVELS[rng.int(4)], rng.int(FREE_RULES));
  }

  // ---------------------------------------------------------------- one sheet

  /** Fills one sheet of stock type s with seq[0..n) in order; demand is decremented. */
  private fill(s: i32, n: i32, demand: Int32Array): f64 {
    const inst = this.inst;
    const k = inst.kerf;
    const eps = inst.eps;
    const seq = this.seq;
    const v = this.nodes;
    v.clear();
    this.placedArea = 0;
    this.placedCount = 0;
    const x0 = unchecked(inst.sX0[s]);
    const y0 = unchecked(inst.sY0[s]);
    const X = unchecked(inst.sXL[s]);
    const Y = unchecked(inst.sYL[s]);
    emit(v, KIND_FREE, 0, -1, x0, y0, X, Y);
    // Nothing narrower than the smallest part side (plus kerf) can hold anything.
    let minSide: f64 = Infinity;
    for (let i = 0; i < n; i++) {
      const t = unchecked(seq[i]);
      if (unchecked(demand[t]) > 0) minSide = Math.min(minSide, Math.min(typeL(t), typeW(t)));
    }
    const mr = this.mr;
    mr.reset(X + k, Y + k, eps);
    for (let i = 0; i < n; i++) {
      const t = unchecked(seq[i]);
      const m = maskOn(t, s);
      if (m == 0) continue;
      const l = typeL(t);
      const w = typeW(t);
      while (unchecked(demand[t]) > 0) {
        let r = -1;
        let bx: f64 = 0;
        let by: f64 = 0;
        let b1: f64 = Infinity;
        let b2: f64 = Infinity;
        for (let o = 0; o < 2; o++) {
          if ((m & (1 << o)) == 0) continue;
          const ex = o == 0 ? l : w;
          const ey = o == 0 ? w : l;
          if (!mr.find(ex + k, ey + k, this.rule)) continue;
          if (mr.s1 < b1 - eps || (mr.s1 <= b1 + eps && mr.s2 < b2 - eps)) {
            b1 = mr.s1;
            b2 = mr.s2;
            bx = mr.bx;
            by = mr.by;
            r = o;
          }
        }
        if (r < 0) break;
        const ex = r == 0 ? l : w;
        const ey = r == 0 ? w : l;
        mr.place(bx, by, ex + k, ey + k, minSide + k);
        unchecked((demand[t] -= 1));
        this.placedArea += typeArea(t);
        this.placedCount++;
        emit(v, KIND_PART, r, t, x0 + bx, y0 + by, ex, ey);
      }
    }
    unchecked((v.data[N_CHILDREN] = <f64>this.placedCount));
    if (this.placedCount == 0) v.clear();
    return this.placedArea;
  }

  // ---------------------------------------------------------------- construction

  /**
   * Packs the demand of types[0..nt) of component c onto new sheets appended to out. False
   * when abortable and the deadline passed (out is then incomplete).
   */
  private construct(types: Int32Array, nt: i32, c: i32, out: Array<Sheet>, deadline: f64, abortable: bool): bool {
    const inst = this.inst;
    const demand = this.demand;
    const avail = this.avail;
    this.seq = ensureI32(this.seq, nt);
    this.tmp = ensureI32(this.tmp, nt);
    let n = 0;
    let remaining: i64 = 0;
    for (let i = 0; i < nt; i++) {
      const t = unchecked(types[i]);
      if (unchecked(demand[t]) > 0) {
        unchecked((this.seq[n++] = t));
        remaining += unchecked(demand[t]);
      }
    }
    sortByKey(this.seq, n, this.key, this.tmp);
    const s0 = unchecked(inst.cStockStart[c]);
    const ns = unchecked(inst.cStockStart[c + 1]) - s0;
    this.cand = ensureI32(this.cand, ns);
    this.candPlaced = ensureF64(this.candPlaced, ns);
    this.candCount = ensureI32(this.candCount, ns);
    let late = false;
    let last = -1;
    while (remaining > 0) {
      if (deadline > 0 && now() >= deadline) {
        if (abortable) return false;
        late = true;
        this.stoppedByDeadline = true;
      }
      let nc = 0;
      if (late && last >= 0 && unchecked(avail[last]) != 0) {
        unchecked((this.cand[nc++] = last));
      } else {
        let navail = 0;
        for (let i = 0; i < ns; i++) if (unchecked(avail[unchecked(inst.cStocks[s0 + i])]) != 0) navail++;
        let k = 0;
        for (let i = 0; i < ns; i++) {
          const s = unchecked(inst.cStocks[s0 + i]);
          if (unchecked(avail[s]) == 0) continue;
          if (navail <= CAND_CAP || k < CAND_CAP / 2 || k >= navail - CAND_CAP / 2) unchecked((this.cand[nc++] = s));
          k++;
        }
      }
      if (nc == 0) break;
      let kept = -1;
      for (let j = 0; j < nc; j++) {
        const s = unchecked(this.cand[j]);
        unchecked((this.candPlaced[j] = this.fill(s, n, demand)));
        unchecked((this.candCount[j] = this.placedCount));
        giveBack(this.nodes, demand);
        if (this.placedCount > 0 && (kept < 0 || this.better(j, kept, nc, remaining))) {
          const t = this.keep;
          this.keep = this.nodes;
          this.nodes = t;
          kept = j;
        }
      }
      if (kept < 0) break;
      let chosen = kept;
      if (inst.smallest) chosen = this.smallestCandidate(nc);
      const s = unchecked(this.cand[chosen]);
      let nodes: Float64Array;
      if (chosen == kept) {
        nodes = this.keep.toArray();
        take(nodes, demand);
      } else {
        this.fill(s, n, demand);
        nodes = this.nodes.toArray();
      }
      const cnt = unchecked(this.candCount[chosen]);
      out.push(new Sheet(s, nodes, unchecked(this.candPlaced[chosen]), cnt, unchecked(inst.sArea[s]), unchecked(inst.sCost[s])));
      remaining -= cnt;
      if (unchecked(avail[s]) > 0) unchecked((avail[s] -= 1));
      last = s;
    }
    return true;
  }

  /** Efficiency rule: finishing the job wins unless it costs more than one more small sheet; else the fuller sheet. */
  private better(a: i32, b: i32, nc: i32, remaining: i64): bool {
    const inst = this.inst;
    const sa = unchecked(this.cand[a]);
    const sb = unchecked(this.cand[b]);
    const areaA = unchecked(inst.sArea[sa]);
    const areaB = unchecked(inst.sArea[sb]);
    const allA = <i64>unchecked(this.candCount[a]) == remaining;
    const allB = <i64>unchecked(this.candCount[b]) == remaining;
    const tol = 1e-9 * Math.max(areaA, areaB);
    if (allA && allB) {
      if (Math.abs(areaA - areaB) > tol) return areaA < areaB;
      return unchecked(inst.sCost[sa]) < unchecked(inst.sCost[sb]);
    }
    if (allA != allB) {
      let minArea = Infinity;
      for (let j = 0; j < nc; j++) minArea = Math.min(minArea, unchecked(inst.sArea[unchecked(this.cand[j])]));
      if (allA) return areaA <= areaB + minArea + tol;
      return !(areaB <= areaA + minArea + tol);
    }
    const fa = unchecked(this.candPlaced[a]) / areaA;
    const fb = unchecked(this.candPlaced[b]) / areaB;
    if (Math.abs(fa - fb) > 1e-12) return fa > fb;
    const ca = unchecked(inst.sCost[sa]) / areaA;
    const cb = unchecked(inst.sCost[sb]) / areaB;
    if (Math.abs(ca - cb) > 1e-15) return ca < cb;
    return areaA > areaB + tol;
  }

  /** 'smallest': the smallest sheet whose fill is close to the best fill. */
  private smallestCandidate(nc: i32): i32 {
    const inst = this.inst;
    let bestFill: f64 = 0;
    for (let j = 0; j < nc; j++) bestFill = Math.max(bestFill, unchecked(this.candPlaced[j]) / unchecked(inst.sArea[unchecked(this.cand[j])]));
    let best = -1;
    for (let j = 0; j < nc; j++) {
      if (unchecked(this.candCount[j]) == 0) continue;
      const a = unchecked(inst.sArea[unchecked(this.cand[j])]);
      if (unchecked(this.candPlaced[j]) / a < SMALLEST_SLACK * bestFill) continue;
      if (best < 0 || a < unchecked(inst.sArea[unchecked(this.cand[best])])) best = j;
    }
    return best;
  }

  // ---------------------------------------------------------------- search

  /** Full construction of component c with the current genome; null when aborted. */
  private constructAll(c: i32, deadline: f64, abortable: bool): Array<Sheet> | null {
    const inst = this.inst;
    const t0 = unchecked(inst.cTypeStart[c]);
    const t1 = unchecked(inst.cTypeStart[c + 1]);
    for (let i = t0; i < t1; i++) {
      const t = unchecked(inst.cTypes[i]);
      unchecked((this.demand[t] = unchecked(inst.tQ[t])));
    }
    for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) {
      const s = unchecked(inst.cStocks[i]);
      unchecked((this.avail[s] = unchecked(inst.sQ[s])));
    }
    const out = new Array<Sheet>();
    const ok = this.construct(inst.cTypes.subarray(t0, t1), t1 - t0, c, out, deadline, abortable);
    for (let i = t0; i < t1; i++) unchecked((this.demand[unchecked(inst.cTypes[i])] = 0));
    return ok ? out : null;
  }

  private install(c: i32, list: Array<Sheet>): void {
    const inst = this.inst;
    for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) unchecked((this.placed[unchecked(inst.cTypes[i])] = 0));
    for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) unchecked((this.used[unchecked(inst.cStocks[i])] = 0));
    let count: i64 = 0;
    for (let i = 0; i < list.length; i++) {
      const sh = unchecked(list[i]);
      sh.addCounts(this.placed, 1);
      unchecked((this.used[sh.stock] += 1));
      count += sh.placedCount;
    }
    unchecked((this.unplaced[c] = <i32>(<i64>unchecked(inst.cInstances[c]) - count)));
    this.sheets[c] = list;
  }

  /** First complete solution of component c (area order, short-side rule); never aborted. */
  initial(c: i32, deadline: f64): void {
    const inst = this.inst;
    const t0 = unchecked(inst.cTypeStart[c]);
    const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
    this.shape(types, types.length, 0, 0.0, RULE_SHORT_SIDE);
    this.install(c, this.constructAll(c, deadline, false)!);
  }

  private optimal(c: i32): bool {
    const inst = this.inst;
    if (unchecked(this.unplaced[c]) != 0) return false;
    if (unchecked(inst.cStockStart[c + 1]) - unchecked(inst.cStockStart[c]) != 1) return false;
    return this.sheets[c].length <= unchecked(this.lowerBound[c]);
  }

  /** Improves component c until the effort limit, the deadline or a proven optimum. */
  improve(c: i32, deadline: f64, workLimit: i64): void {
    const inst = this.inst;
    const w0 = this.work();
    const t0 = unchecked(inst.cTypeStart[c]);
    const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
    const fixed = ORDERS * FREE_RULES;
    let gi = 1;
    let steps: i64 = 0;
    while (!this.optimal(c)) {
      if (this.work() - w0 + steps * STEP_WORK >= workLimit) break;
      steps++;
      if (now() >= deadline) {
        this.stoppedByDeadline = true;
        break;
      }
      this.iterations++;
      if (gi < fixed) {
        this.shape(types, types.length, gi % ORDERS, 0.0, gi / ORDERS);
        gi++;
        this.restart(c, deadline);
      } else if (this.sheets[c].length <= 3 || this.rng.float() < 0.05) {
        this.randomShape(types, types.length);
        this.restart(c, deadline);
      } else {
        this.lns(c, deadline);
      }
    }
  }

  private restart(c: i32, deadline: f64): void {
    const list = this.constructAll(c, deadline, true);
    if (list === null) return;
    this.oldObj.reset();
    this.oldObj.addAll(this.sheets[c]);
    this.newObj.reset();
    this.newObj.addAll(list);
    const cmp = compareObjectives(this.newObj, this.oldObj);
    if (cmp < 0) {
      this.install(c, list);
      if (cmp >= -3) this.timeToBest = this.budget.elapsed();
    }
  }

  /** Frees a weak sheet and up to three partners, re-packs their parts (and the unplaced). */
  private lns(c: i32, deadline: f64): void {
    const inst = this.inst;
    const rng = this.rng;
    const cur = this.sheets[c];
    const m = cur.length;
    const ch = this.chosen;
    ch.clear();
    let target = rng.int(m);
    for (let k = 0; k < 2; k++) {
      const o = rng.int(m);
      if (unchecked(cur[o]).fill() < unchecked(cur[target]).fill()) target = o;
    }
    ch.push(target);
    const extra = 1 + rng.int(3);
    let wasteSum: f64 = 0;
    for (let i = 0; i < m; i++) wasteSum += WASTE_FLOOR + 1.0 - Math.min(1.0, unchecked(cur[i]).fill());
    let guard = 0;
    while (ch.len < extra + 1 && guard++ < 64) {
      let u = rng.float() * wasteSum;
      let o = m - 1;
      for (let i = 0; i < m; i++) {
        u -= WASTE_FLOOR + 1.0 - Math.min(1.0, unchecked(cur[i]).fill());
        if (u < 0) {
          o = i;
          break;
        }
      }
      let dup = false;
      for (let k = 0; k < ch.len; k++) if (ch.get(k) == o) dup = true;
      if (!dup) ch.push(o);
    }
    const tv = this.touched;
    tv.clear();
    this.oldObj.reset();
    for (let k = 0; k < ch.len; k++) {
      const sh = unchecked(cur[ch.get(k)]);
      this.oldObj.add(sh);
      const d = sh.nodes;
      for (let i = 0; i < d.length; i += NODE_STRIDE) {
        if (<i32>unchecked(d[i + N_KIND]) != KIND_PART) continue;
        const t = <i32>unchecked(d[i + N_ITEM]);
        if (unchecked(this.demand[t]) == 0) tv.push(t);
        unchecked((this.demand[t] += 1));
      }
    }
    if (unchecked(this.unplaced[c]) > 0) {
      for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
        const t = unchecked(inst.cTypes[i]);
        const u = unchecked(inst.tQ[t]) - unchecked(this.placed[t]);
        if (u <= 0) continue;
        if (unchecked(this.demand[t]) == 0) tv.push(t);
        unchecked((this.demand[t] += u));
      }
    }
    for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) {
      const s = unchecked(inst.cStocks[i]);
      const q = unchecked(inst.sQ[s]);
      unchecked((this.avail[s] = q < 0 ? -1 : q - unchecked(this.used[s])));
    }
    for (let k = 0; k < ch.len; k++) {
      const s = unchecked(cur[ch.get(k)]).stock;
      if (unchecked(this.avail[s]) >= 0) unchecked((this.avail[s] += 1));
    }
    this.randomShape(tv.data, tv.len);
    const out = new Array<Sheet>();
    const ok = this.construct(tv.data, tv.len, c, out, deadline, true);
    for (let k = 0; k < tv.len; k++) unchecked((this.demand[tv.get(k)] = 0));
    if (!ok) return;
    this.newObj.reset();
    this.newObj.addAll(out);
    const cmp = compareObjectives(this.newObj, this.oldObj);
    if (cmp > 0) return;
    const next = new Array<Sheet>();
    for (let i = 0; i < m; i++) {
      let freed = false;
      for (let k = 0; k < ch.len; k++) if (ch.get(k) == i) freed = true;
      const sh = unchecked(cur[i]);
      if (freed) {
        sh.addCounts(this.placed, -1);
        unchecked((this.used[sh.stock] -= 1));
      } else next.push(sh);
    }
    for (let i = 0; i < out.length; i++) {
      const sh = unchecked(out[i]);
      sh.addCounts(this.placed, 1);
      unchecked((this.used[sh.stock] += 1));
      next.push(sh);
    }
    unchecked((this.unplaced[c] -= this.newObj.count - this.oldObj.count));
    this.sheets[c] = next;
    if (cmp < 0 && cmp >= -3) this.timeToBest = this.budget.elapsed();
  }
}

// ---------------------------------------------------------------- node helpers

function emit(v: F64Vec, kind: i32, dirOrRot: i32, item: i32, x: f64, y: f64, l: f64, w: f64): void {
  v.reserve(NODE_STRIDE);
  v.push(<f64>kind);
  v.push(<f64>dirOrRot);
  v.push(<f64>item);
  v.push(x);
  v.push(y);
  v.push(l);
  v.push(w);
  v.push(0);
}

/** Adds the parts of a pattern back to demand. */
function giveBack(v: F64Vec, demand: Int32Array): void {
  const d = v.data;
  for (let i = 0; i < v.len; i += NODE_STRIDE) {
    if (<i32>unchecked(d[i + N_KIND]) == KIND_PART) unchecked((demand[<i32>unchecked(d[i + N_ITEM])] += 1));
  }
}

/** Takes the parts of a pattern from demand. */
function take(nodes: Float64Array, demand: Int32Array): void {
  for (let i = 0; i < nodes.length; i += NODE_STRIDE) {
    if (<i32>unchecked(nodes[i + N_KIND]) == KIND_PART) unchecked((demand[<i32>unchecked(nodes[i + N_ITEM])] -= 1));
  }
}
