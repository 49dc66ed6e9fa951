// Sheet filler: builds one sheet's guillotine tree greedily, stage by stage.
//
// A cut node at stage s runs its cuts along `dir`; it has a fixed extent A along dir and B
// across. It is filled band after band. Each band is opened by one item whose extent across
// fixes the band's height; when a deeper stage is allowed the band becomes a cut node of
// stage s + 1 in the other direction, whose first child is that item and whose remaining
// room is filled the same way (strips -> stacks -> ..., alternating). At the last allowed
// stage the band is the part itself and the free trim cut takes it to size.
//
// Choosing the opener of a band:
//  - LEAD (root): the first item of the priority order that fits, preferred orientation.
//  - FIT (inside a band): among the first K fitting items, the one that fills the band's
//    height best.
//  - Look-ahead (genome.strips at the root, genome.stacks inside): build the band for a
//    few candidate openers, keep the densest, roll the others back.
// The rules only read the genome, so search strategies can change above this file
// without touching geometry.

import { Instance, AXIS_X, typeL, typeW, typeArea } from "./instance";
import { fitBuild, fitSet, fitTighten, fitSetStock, fitAny, fitFirst, fitMask, fitLeafType } from "./fitindex";
import { Genome } from "./genome";
import { F64Vec } from "../common/arrays";
import { NODE_STRIDE, N_KIND, N_ITEM, N_CHILDREN, KIND_CUT, KIND_PART } from "./layout";

export class Filler {
  inst: Instance;
  /** Pattern of the last fill, NODE_STRIDE values per node in pre-order. */
  nodes: F64Vec = new F64Vec(1024);
  placedArea: f64 = 0;
  placedCount: i32 = 0;
  leafOf: Int32Array;
  private counts: Int32Array = new Int32Array(0);
  private g: Genome;
  private pickT: i32 = -1;
  private pickR: i32 = 0;
  private trialDepth: i32 = 0;

  constructor(inst: Instance) {
    this.inst = inst;
    this.leafOf = new Int32Array(inst.nTypes > 0 ? inst.nTypes : 1);
    this.g = new Genome(1);
  }

  /** Indexes the types seq[0..n) in priority order for the fills of one construction run. */
  prepare(seq: Int32Array, n: i32): void {
    fitBuild(seq, n, this.leafOf);
  }

  /** Type t has instances again (a trial fill was undone). */
  @inline revive(t: i32): void {
    fitSet(unchecked(this.leafOf[t]), true);
  }

  /** Type t is used up for good in this run: prune it from the index's inner nodes too. */
  @inline retire(t: i32): void {
    const leaf = unchecked(this.leafOf[t]);
    fitSet(leaf, false);
    fitTighten(leaf);
  }

  /**
   * Fills one sheet of stock type s with the prepared types, taking instances from
   * `counts` (decremented; a type reaching 0 is switched off in the index). Returns the
   * placed area; the tree is in `nodes` (empty when nothing fits).
   */
  fill(s: i32, counts: Int32Array, g: Genome): f64 {
    const inst = this.inst;
    this.counts = counts;
    this.g = g;
    this.nodes.clear();
    this.placedArea = 0;
    this.placedCount = 0;
    fitSetStock(s);
    const X = unchecked(inst.sXL[s]);
    const Y = unchecked(inst.sYL[s]);
    if (!fitAny(X + inst.eps, Y + inst.eps)) return 0;
    const dir = inst.firstDir;
    this.fillNode(1, dir, unchecked(inst.sX0[s]), unchecked(inst.sY0[s]), dir == AXIS_X ? X : Y, dir == AXIS_X ? Y : X, -1, 0);
    if (this.placedCount == 0) this.nodes.clear();
    return this.placedArea;
  }

  /**
   * Fills the cut node with origin (ox, oy), extent A along dir and B across. ft/fr: the
   * item (and rotation) that opened this node in the parent band; it is placed first.
   */
  private fillNode(stage: i32, dir: i32, ox: f64, oy: f64, A: f64, B: f64, ft: i32, fr: i32): void {
    const inst = this.inst;
    const me = this.nodes.len;
    this.emit(KIND_CUT, dir, -1, ox, oy, dir == AXIS_X ? A : B, dir == AXIS_X ? B : A);
    const kerf = inst.kerf;
    const eps = inst.eps;
    const deeper = stage < inst.maxStage;
    let pos: f64 = 0;
    let n = 0;
    while (true) {
      // Consecutive children are exactly one kerf apart.
      const start = n == 0 ? 0.0 : pos + kerf;
      let t: i32;
      let r: i32;
      const forced = n == 0 && ft >= 0;
      if (forced) {
        t = ft;
        r = fr;
      } else {
        const avail = B - start;
        if (avail + eps <= 0) break;
        const X = dir == AXIS_X ? A : avail;
        const Y = dir == AXIS_X ? avail : A;
        // Look-ahead (build candidate bands, keep the densest) when the band has room to fill.
        // Inside a trial band only the greedy rules run, so the cost stays linear in L.
        const L = this.trialDepth > 0 ? 1 : ft < 0 ? this.g.strips : this.g.stacks;
        let ok: bool;
        if (L > 1 && deeper) ok = this.bestBand(stage, dir, ox, oy, A, start, X, Y, L, ft >= 0);
        else ok = ft < 0 ? this.lead(X, Y) : this.fit(dir, X, Y, A);
        if (!ok) break;
        t = this.pickT;
        r = this.pickR;
      }
      const ex = r == 0 ? typeL(t) : typeW(t);
      const ey = r == 0 ? typeW(t) : typeL(t);
      const across = dir == AXIS_X ? ey : ex;
      const bx = dir == AXIS_X ? ox : ox + start;
      const by = dir == AXIS_X ? oy + start : oy;
      if (!forced) this.take(t); // the opener was taken by the parent band
      if (forced || !deeper) {
        this.emit(KIND_PART, r, t, bx, by, ex, ey);
      } else {
        // The band: along extent `across`, and the whole of A available for its pieces.
        this.fillNode(stage + 1, 1 - dir, bx, by, across, A, t, r);
      }
      pos = start + across;
      n++;
    }
    unchecked((this.nodes.data[me + N_CHILDREN] = <f64>n));
  }

  /**
   * Band look-ahead: builds the band opened by each of L candidate (type, rotation)
   * openers, keeps the one whose band is densest and rolls the others back. Candidates are
   * the first fitting openers in priority order; inside a band (`inner`) the FIT choice is
   * tried first.
   */
  private bestBand(stage: i32, dir: i32, ox: f64, oy: f64, A: f64, start: f64, X: f64, Y: f64, L: i32, inner: bool): bool {
    const eps = this.inst.eps;
    let bestT = -1;
    let bestR = 0;
    let bestScore: f64 = -1;
    let firstT = -1;
    let firstR = 0;
    if (inner) {
      if (!this.fit(dir, X, Y, A)) return false;
      firstT = this.pickT;
      firstR = this.pickR;
      const sc = this.trialBand(stage, dir, ox, oy, A, start, firstT, firstR);
      bestScore = sc;
      bestT = firstT;
      bestR = firstR;
    }
    let tried = inner ? 1 : 0;
    let from = 0;
    while (tried < L) {
      const leaf = fitFirst(from, X + eps, Y + eps);
      if (leaf < 0) break;
      from = leaf + 1;
      const t = fitLeafType(leaf);
      const fm = fitMask(leaf, X + eps, Y + eps);
      const pr = unchecked(this.g.prefRot[t]);
      for (let j = 0; j < 2 && tried < L; j++) {
        const r = j == 0 ? pr : 1 - pr;
        if ((fm & (1 << r)) == 0 || (t == firstT && r == firstR)) continue;
        tried++;
        const score = this.trialBand(stage, dir, ox, oy, A, start, t, r);
        if (score > bestScore + 1e-12) {
          bestScore = score;
          bestT = t;
          bestR = r;
        }
      }
    }
    if (bestT < 0) return false;
    this.pickT = bestT;
    this.pickR = bestR;
    return true;
  }

  /** Builds the band opened by (t, r) at `start`, measures its density and rolls it back. */
  private trialBand(stage: i32, dir: i32, ox: f64, oy: f64, A: f64, start: f64, t: i32, r: i32): f64 {
    const ex = r == 0 ? typeL(t) : typeW(t);
    const ey = r == 0 ? typeW(t) : typeL(t);
    const across = dir == AXIS_X ? ey : ex;
    const mark = this.nodes.len;
    const area0 = this.placedArea;
    const count0 = this.placedCount;
    this.take(t);
    this.trialDepth++;
    this.fillNode(stage + 1, 1 - dir, dir == AXIS_X ? ox : ox + start, dir == AXIS_X ? oy + start : oy, across, A, t, r);
    this.trialDepth--;
    const score = (this.placedArea - area0) / (across * A);
    this.rollback(mark);
    this.placedArea = area0;
    this.placedCount = count0;
    return score;
  }

  /** Gives back the parts written after node offset `mark` and drops those nodes. */
  private rollback(mark: i32): void {
    const d = this.nodes.data;
    for (let i = mark; i < this.nodes.len; i += NODE_STRIDE) {
      if (<i32>unchecked(d[i + N_KIND]) != KIND_PART) continue;
      const t = <i32>unchecked(d[i + N_ITEM]);
      const c = unchecked(this.counts[t]) + 1;
      unchecked((this.counts[t] = c));
      if (c == 1) fitSet(unchecked(this.leafOf[t]), true);
    }
    this.nodes.len = mark;
  }

  /** LEAD rule: first fitting item in priority order, preferred orientation when it fits. */
  private lead(X: f64, Y: f64): bool {
    const eps = this.inst.eps;
    const leaf = fitFirst(0, X + eps, Y + eps);
    if (leaf < 0) return false;
    const t = fitLeafType(leaf);
    const fm = fitMask(leaf, X + eps, Y + eps);
    const pr = unchecked(this.g.prefRot[t]);
    this.pickT = t;
    this.pickR = fm & (1 << pr) ? pr : fm & 1 ? 0 : 1;
    return true;
  }

  /** FIT rule: among the first K fitting items, the one with the longest extent along the node (fills the band's height best). */
  private fit(dir: i32, X: f64, Y: f64, A: f64): bool {
    const eps = this.inst.eps;
    const K = this.g.K;
    let bestT = -1;
    let bestR = 0;
    let bestAlong: f64 = -1;
    let from = 0;
    for (let k = 0; k < K; k++) {
      const leaf = fitFirst(from, X + eps, Y + eps);
      if (leaf < 0) break;
      from = leaf + 1;
      const fm = fitMask(leaf, X + eps, Y + eps);
      const t = fitLeafType(leaf);
      const l = typeL(t);
      const w = typeW(t);
      const pr = unchecked(this.g.prefRot[t]);
      for (let j = 0; j < 2; j++) {
        const o = j == 0 ? pr : 1 - pr;
        if ((fm & (1 << o)) == 0) continue;
        const along = (dir == AXIS_X) == (o == 0) ? l : w;
        if (along > bestAlong + eps) {
          bestAlong = along;
          bestT = t;
          bestR = o;
        }
      }
      // An exact fit along cannot be beaten.
      if (bestAlong >= A - eps) break;
    }
    if (bestT < 0) return false;
    this.pickT = bestT;
    this.pickR = bestR;
    return true;
  }

  @inline private take(t: i32): void {
    const c = unchecked(this.counts[t]) - 1;
    unchecked((this.counts[t] = c));
    this.placedArea += typeArea(t);
    this.placedCount++;
    if (c == 0) fitSet(unchecked(this.leafOf[t]), false);
  }

  private emit(kind: i32, dirOrRot: i32, item: i32, x: f64, y: f64, l: f64, w: f64): void {
    const v = this.nodes;
    v.reserve(NODE_STRIDE);
    const d = v.data;
    const b = v.len;
    unchecked((d[b] = <f64>kind));
    unchecked((d[b + 1] = <f64>dirOrRot));
    unchecked((d[b + 2] = <f64>item));
    unchecked((d[b + 3] = x));
    unchecked((d[b + 4] = y));
    unchecked((d[b + 5] = l));
    unchecked((d[b + 6] = w));
    unchecked((d[b + 7] = 0));
    v.len = b + NODE_STRIDE;
  }
}
