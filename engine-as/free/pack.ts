// Free (non-guillotine) packing for CNC routers: sheets filled by maximal-rectangles
// placement, improved by the same destroy-and-repack search as the guillotine engine.
//
// A construction takes the item types in a priority order and fills one sheet at a time:
// each type in turn goes in as often as it fits, every copy at the free rectangle the
// placement rule scores best (both orientations the grain allows). Each new sheet is tried
// on a few stock types and the fullest kept. The search then frees a weak sheet and a few
// partners, re-packs their parts with a random order and rule, and keeps the result when
// the objective (placed area, sheet area, cost, fill concentration) is not worse. That loop,
// the move's bookkeeping and the stock choice are the guillotine engine's own
// (sheets/sheet-search.ts, sheets/stock-choice.ts); only the sheet filling is here.

import { Instance, typeL, typeW, typeArea, maskOn } from "../sheets/instance";
import { Sheet } from "../sheets/solution";
import { SheetSearch } from "../sheets/sheet-search";
import { NODE_STRIDE, N_KIND, N_ITEM, N_CHILDREN, KIND_PART, KIND_FREE, appendNode } from "../sheets/layout";
import { F64Vec, ensureI32, ensureF64, sortByKey } from "../common/arrays";
import { Budget, now } from "../common/clock";
import { candidateStocks, efficiencyPrefers } from "../sheets/stock-choice";
import { MaxRects, FREE_RULES, RULE_SHORT_SIDE, freeScans } from "./maxrects";

/** 'smallest' takes a smaller sheet when its fill is at least this fraction of the best. */
const SMALLEST_SLACK: f64 = 0.9;
/** Base orderings of the fixed constructions (see orderValue). */
const ORDERS: i32 = 5;
const NOISE_LEVELS: StaticArray<f64> = [0.0, 0.03, 0.1, 0.3];

export class FreeSearch extends SheetSearch {
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

  constructor(inst: Instance, budget: Budget, lowerBound: Int32Array) {
    super(inst, budget, lowerBound);
    this.key = new Float64Array(inst.nTypes > 0 ? inst.nTypes : 1);
  }

  /** Work done so far (deterministic): free-rectangle scans. */
  work(): i64 {
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

  protected shapeRandomly(types: Int32Array, n: i32): void {
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
    appendNode(v, KIND_FREE, 0, -1, x0, y0, X, Y);
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
        appendNode(v, KIND_PART, r, t, x0 + bx, y0 + by, ex, ey);
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
  protected packDemand(types: Int32Array, nt: i32, c: i32, out: Array<Sheet>, deadline: f64, abortable: bool): bool {
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
    // Offcuts first, as in the guillotine constructor (stock-choice.ts).
    let offcutsLeft = true;
    while (remaining > 0) {
      if (deadline > 0 && now() >= deadline) {
        if (abortable) return false;
        late = true;
        this.stoppedByDeadline = true;
      }
      let nc = 0;
      let fromOffcuts = false;
      if (late && last >= 0 && unchecked(avail[last]) != 0) {
        unchecked((this.cand[nc++] = last));
      } else {
        if (offcutsLeft) {
          nc = candidateStocks(inst, s0, ns, avail, this.cand, false, true);
          fromOffcuts = nc > 0;
        }
        if (nc == 0) nc = candidateStocks(inst, s0, ns, avail, this.cand, false);
      }
      if (nc == 0) break;
      let kept = -1;
      for (let j = 0; j < nc; j++) {
        const s = unchecked(this.cand[j]);
        unchecked((this.candPlaced[j] = this.fill(s, n, demand)));
        unchecked((this.candCount[j] = this.placedCount));
        giveBack(this.nodes, demand);
        if (this.placedCount > 0 && (kept < 0 || efficiencyPrefers(inst, this.cand, this.candPlaced, this.candCount, nc, j, kept, remaining))) {
          const t = this.keep;
          this.keep = this.nodes;
          this.nodes = t;
          kept = j;
        }
      }
      if (kept < 0 && fromOffcuts) {
        offcutsLeft = false;
        continue;
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

  /** First complete solution of component c (area order, short-side rule); never aborted. */
  initial(c: i32, deadline: f64): void {
    const inst = this.inst;
    const t0 = unchecked(inst.cTypeStart[c]);
    const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
    this.shape(types, types.length, 0, 0.0, RULE_SHORT_SIDE);
    this.install(c, this.constructAll(c, deadline, false)!);
  }

  /** The fixed genomes (every ordering with every rule) first; then destroy-and-repack, or a random full construction while the solution is small. */
  protected step(c: i32, deadline: f64, n: i32): void {
    const fixed = n < ORDERS * FREE_RULES;
    if (!fixed && this.sheets[c].length > 3 && this.rng.float() >= 0.05) {
      this.lns(c, deadline);
      return;
    }
    const inst = this.inst;
    const t0 = unchecked(inst.cTypeStart[c]);
    const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
    if (fixed) this.shape(types, types.length, n % ORDERS, 0.0, n / ORDERS);
    else this.shapeRandomly(types, types.length);
    this.restart(c, deadline);
  }

  /** Frees a weak sheet and up to three partners, re-packs their parts (and the unplaced). */
  private lns(c: i32, deadline: f64): void {
    const cur = this.sheets[c];
    const ch = this.chosen;
    ch.clear();
    // Only reached with more than three sheets (see step), so 1-3 partners always exist.
    ch.push(this.weakSheetByTournament(cur));
    this.addPartnersByWaste(cur);
    this.repackChosen(c, deadline);
  }
}

// ---------------------------------------------------------------- node helpers

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
