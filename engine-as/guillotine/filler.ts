// Long (over 400 lines) because the stage-by-stage fill is one recursion over bands whose opener choice, band growth and trim share its state.
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
//    few candidate openers, keep the densest, roll the others back. With genome.wide the
//    look-ahead also tries bands 2-5 openers thick, whose rows then hold several parts.
//  - genome.dp: a last-stage stack is completed by a knapsack over its remaining room.
//  - Head cuts (instance.headCuts): the unused tail of the first-stage bands is cut off
//    across the sheet and filled as a region of its own.
// The rules only read the genome, so search strategies can change above this file
// without touching geometry.

import { Instance, AXIS_X, typeL, typeW, typeArea } from "../sheets/instance";
import { fitBuild, fitSet, fitTighten, fitSetStock, fitAny, fitFirst, fitMask, fitLeafType } from "./fitindex";
import { Genome } from "./genome";
import { F64Vec } from "../common/arrays";
import { NODE_STRIDE, N_KIND, N_ITEM, N_CHILDREN, N_DIR, KIND_CUT, KIND_PART, appendNode } from "../sheets/layout";

/** Largest stack room (in size units) and table size the knapsack takes on; beyond, FIT fills. */
const DP_MAX_CAP: i32 = 2000;
const DP_MAX_CELLS: i32 = 400000;
/** Widest band tried, in opener extents. */
const WIDE_MAX: i32 = 5;
/** Head cut positions: leading parts whose extents are tried, and copies of each. */
const HEAD_LEADS: i32 = 3;
const HEAD_COPIES: i32 = 3;

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
  /** Band thickness in copies of the opener's extent (wide bands; see bestBand). */
  private pickM: i32 = 1;
  private trialDepth: i32 = 0;
  /** Opener of the band being filled (-1 at the root), for genome.sameFirst. */
  private openT: i32 = -1;
  private openR: i32 = 0;
  private dpCand: F64Vec = new F64Vec(256);
  private dpVal: Float64Array = new Float64Array(64);
  private dpTake: Uint8Array = new Uint8Array(1024);
  private headCands: F64Vec = new F64Vec(16);

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
    const ox = unchecked(inst.sX0[s]);
    const oy = unchecked(inst.sY0[s]);
    const A = dir == AXIS_X ? X : Y;
    const B = dir == AXIS_X ? Y : X;
    if (inst.headCuts) {
      this.fillHeaded(dir, ox, oy, A, B, this.bestHeadRegion(dir, ox, oy, A, B));
    } else {
      this.fillNode(1, dir, ox, oy, A, B, -1, 0);
    }
    if (this.placedCount == 0) this.nodes.clear();
    return this.placedArea;
  }

  /** The first-stage region of extent `head` along the first cuts, then the head cut and its tail. */
  private fillHeaded(dir: i32, ox: f64, oy: f64, A: f64, B: f64, head: f64): void {
    this.fillNode(1, dir, ox, oy, head, B, -1, 0);
    if (this.placedCount > 0) this.headCut(dir, ox, oy, A, B);
  }

  /**
   * Head cut position: besides letting the bands run the whole sheet (the tail is what they
   * leave), the first-stage region is tried as long as one to a few copies of the leading
   * parts, which leaves a wider tail for what the bands would otherwise crowd out. Each
   * trial is built and rolled back; returns the extent that placed the most area.
   */
  private bestHeadRegion(dir: i32, ox: f64, oy: f64, A: f64, B: f64): f64 {
    const eps = this.inst.eps;
    const kerf = this.inst.kerf;
    const cands = this.headCands;
    cands.clear();
    cands.push(A);
    let from = 0;
    for (let k = 0; k < HEAD_LEADS; k++) {
      const leaf = fitFirst(from, (dir == AXIS_X ? A : B) + eps, (dir == AXIS_X ? B : A) + eps);
      if (leaf < 0) break;
      from = leaf + 1;
      const t = fitLeafType(leaf);
      const fm = fitMask(leaf, (dir == AXIS_X ? A : B) + eps, (dir == AXIS_X ? B : A) + eps);
      for (let r = 0; r < 2; r++) {
        if ((fm & (1 << r)) == 0) continue;
        const e = (dir == AXIS_X) == (r == 0) ? typeL(t) : typeW(t);
        const most = <i32>Math.floor((A + kerf + eps) / (e + kerf));
        for (let m = 1; m <= most && m <= HEAD_COPIES; m++) {
          const a = <f64>m * e + <f64>(m - 1) * kerf;
          if (a < A - kerf - eps) cands.push(a);
        }
      }
    }
    if (cands.len == 1) return A;
    let best = A;
    let bestArea: f64 = -1;
    for (let i = 0; i < cands.len; i++) {
      const a = unchecked(cands.data[i]);
      let dup = false;
      for (let j = 0; j < i; j++) if (Math.abs(unchecked(cands.data[j]) - a) <= eps) dup = true;
      if (dup) continue;
      this.fillHeaded(dir, ox, oy, A, B, a);
      // A shortened region must end in a head cut; without one its tree would not span the sheet.
      const headed = this.nodes.len > 0 && <i32>unchecked(this.nodes.data[N_DIR]) != dir;
      if ((a >= A - eps || headed) && this.placedArea > bestArea + eps) {
        bestArea = this.placedArea;
        best = a;
      }
      this.rollback(0);
      this.placedArea = 0;
      this.placedCount = 0;
    }
    return best;
  }

  /**
   * Head cut: the first-stage bands rarely use their whole length, so the sheet is cut
   * across once where the longest band ends and the tail is filled as a region of its own
   * (stage 1 again). The tree gets a root along the other direction with those two children.
   */
  private headCut(dir: i32, ox: f64, oy: f64, A: f64, B: f64): void {
    const inst = this.inst;
    const kerf = inst.kerf;
    const eps = inst.eps;
    const v = this.nodes;
    const d = v.data;
    const o = dir == AXIS_X ? ox : oy;
    let used: f64 = 0;
    for (let i = 0; i < v.len; i += NODE_STRIDE) {
      if (<i32>unchecked(d[i + N_KIND]) != KIND_PART) continue;
      const end = dir == AXIS_X ? unchecked(d[i + 3]) + unchecked(d[i + 5]) : unchecked(d[i + 4]) + unchecked(d[i + 6]);
      used = Math.max(used, end - o);
    }
    const rest = A - used - kerf;
    if (rest <= eps) return;
    if (!fitAny((dir == AXIS_X ? rest : B) + eps, (dir == AXIS_X ? B : rest) + eps)) return;
    // Keep the current tree, then rebuild: head root, the clamped old root, the tail.
    const old = new Float64Array(v.len);
    memory.copy(old.dataStart, d.dataStart, <usize>v.len << 3);
    const count0 = this.placedCount;
    v.clear();
    appendNode(this.nodes, KIND_CUT, 1 - dir, -1, ox, oy, dir == AXIS_X ? A : B, dir == AXIS_X ? B : A);
    unchecked((v.data[N_CHILDREN] = 2.0));
    const limit = o + used;
    for (let i = 0; i < old.length; i += NODE_STRIDE) {
      v.reserve(NODE_STRIDE);
      const b = v.len;
      for (let k = 0; k < NODE_STRIDE; k++) unchecked((v.data[b + k] = unchecked(old[i + k])));
      // Cut nodes that ran the full length now end where the head cut is.
      if (<i32>unchecked(old[i + N_KIND]) == KIND_CUT) {
        if (dir == AXIS_X) unchecked((v.data[b + 5] = Math.min(unchecked(old[i + 5]), limit - unchecked(old[i + 3]))));
        else unchecked((v.data[b + 6] = Math.min(unchecked(old[i + 6]), limit - unchecked(old[i + 4]))));
      }
      v.len = b + NODE_STRIDE;
    }
    const tx = dir == AXIS_X ? ox + used + kerf : ox;
    const ty = dir == AXIS_X ? oy : oy + used + kerf;
    this.fillNode(1, dir, tx, ty, rest, B, -1, 0);
    if (this.placedCount == count0) {
      // Nothing went into the tail: back to the plain tree.
      v.clear();
      v.reserve(old.length);
      memory.copy(v.data.dataStart, old.dataStart, <usize>old.length << 3);
      v.len = old.length;
    }
  }

  /**
   * Fills the cut node with origin (ox, oy), extent A along dir and B across. ft/fr: the
   * item (and rotation) that opened this node in the parent band; it is placed first.
   */
  private fillNode(stage: i32, dir: i32, ox: f64, oy: f64, A: f64, B: f64, ft: i32, fr: i32, wide: bool = false): void {
    const inst = this.inst;
    const me = this.nodes.len;
    appendNode(this.nodes, KIND_CUT, dir, -1, ox, oy, dir == AXIS_X ? A : B, dir == AXIS_X ? B : A);
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
      let m: i32 = 1;
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
        this.pickM = 1;
        this.openT = ft;
        this.openR = fr;
        if (L > 1 && deeper) ok = this.bestBand(stage, dir, ox, oy, A, start, X, Y, L, ft >= 0);
        else ok = ft < 0 ? this.lead(X, Y) : this.fit(dir, X, Y, A);
        if (!ok) break;
        t = this.pickT;
        r = this.pickR;
        m = this.pickM;
      }
      const ex = r == 0 ? typeL(t) : typeW(t);
      const ey = r == 0 ? typeW(t) : typeL(t);
      const across = dir == AXIS_X ? <f64>m * ey + <f64>(m - 1) * kerf : <f64>m * ex + <f64>(m - 1) * kerf;
      const bx = dir == AXIS_X ? ox : ox + start;
      const by = dir == AXIS_X ? oy + start : oy;
      if (!forced) this.take(t); // the opener was taken by the parent band
      if (forced && wide && deeper) {
        // A wide band's opener opens a row of its own, where more parts go beside it.
        this.fillNode(stage + 1, 1 - dir, bx, by, across, A, t, r);
      } else if (forced || !deeper) {
        appendNode(this.nodes, KIND_PART, r, t, bx, by, ex, ey);
      } else {
        // The band: along extent `across`, and the whole of A available for its pieces.
        this.fillNode(stage + 1, 1 - dir, bx, by, across, A, t, r, m > 1);
      }
      pos = start + across;
      n++;
      // Last stage inside a band: the rest of the stack by knapsack when the genome asks.
      if (forced && !deeper && this.g.dp) {
        const added = this.dpStack(dir, ox, oy, A, B, pos);
        if (added >= 0) {
          n += added;
          break;
        }
      }
    }
    unchecked((this.nodes.data[me + N_CHILDREN] = <f64>n));
  }

  /**
   * Fills the rest of a last-stage stack (extent A along dir, B across, pieces so far end at
   * `pos`) with the item set of largest area whose extents across, each plus one kerf, fit
   * in B - pos: a bounded knapsack over integer sizes. Returns the pieces added, or -1 when
   * the sizes are not small integers (the caller then goes on greedily).
   */
  private dpStack(dir: i32, ox: f64, oy: f64, A: f64, B: f64, pos: f64): i32 {
    const inst = this.inst;
    const kerf = inst.kerf;
    const eps = inst.eps;
    const capF = B - pos;
    if (capF - kerf <= eps) return 0;
    if (capF > <f64>DP_MAX_CAP || kerf != Math.floor(kerf)) return -1;
    const cap = <i32>Math.floor(capF + eps);
    if (Math.abs(<f64>cap - capF) > eps) return -1;
    const X = dir == AXIS_X ? A : capF - kerf;
    const Y = dir == AXIS_X ? capF - kerf : A;
    // Candidates: every fitting type once, in the orientation reaching furthest along A.
    const cand = this.dpCand;
    cand.clear();
    let items = 0;
    let from = 0;
    while (true) {
      const leaf = fitFirst(from, X + eps, Y + eps);
      if (leaf < 0) break;
      from = leaf + 1;
      const t = fitLeafType(leaf);
      const fm = fitMask(leaf, X + eps, Y + eps);
      let r = -1;
      let bestAlong: f64 = -1;
      for (let o = 0; o < 2; o++) {
        if ((fm & (1 << o)) == 0) continue;
        const along = (dir == AXIS_X) == (o == 0) ? typeL(t) : typeW(t);
        if (along > bestAlong + eps) {
          bestAlong = along;
          r = o;
        }
      }
      if (r < 0) continue;
      const across = (dir == AXIS_X) == (r == 0) ? typeW(t) : typeL(t);
      if (across != Math.floor(across)) return -1;
      const wgt = <i32>across + <i32>kerf;
      if (wgt <= 0) return -1;
      const copies = min(unchecked(this.counts[t]), cap / wgt);
      // Copies split in powers of two: each group is one 0/1 item.
      let left = copies;
      for (let g = 1; left > 0; g <<= 1) {
        const m = g < left ? g : left;
        cand.push(<f64>t);
        cand.push(<f64>r);
        cand.push(<f64>m);
        cand.push(<f64>(wgt * m));
        left -= m;
        items++;
      }
      if (items * (cap + 1) > DP_MAX_CELLS) return -1;
    }
    if (items == 0) return 0;
    // 0/1 knapsack with a take-table for reconstruction.
    if (this.dpVal.length < cap + 1) this.dpVal = new Float64Array(cap + 1);
    const val = this.dpVal;
    for (let c = 0; c <= cap; c++) unchecked((val[c] = 0));
    const cells = items * (cap + 1);
    if (this.dpTake.length < cells) this.dpTake = new Uint8Array(cells);
    const take = this.dpTake;
    const cd = cand.data;
    for (let i = 0; i < items; i++) {
      const b = i * 4;
      const t = <i32>unchecked(cd[b]);
      const m = unchecked(cd[b + 2]);
      const w = <i32>unchecked(cd[b + 3]);
      const v = typeArea(t) * m;
      const row = i * (cap + 1);
      for (let c = 0; c < w && c <= cap; c++) unchecked((take[row + c] = 0));
      for (let c = cap; c >= w; c--) {
        const nv = unchecked(val[c - w]) + v;
        if (nv > unchecked(val[c]) + 1e-9) {
          unchecked((val[c] = nv));
          unchecked((take[row + c] = 1));
        } else unchecked((take[row + c] = 0));
      }
    }
    // Walk back from the full capacity; emit the chosen pieces one kerf apart.
    let c = cap;
    let p = pos;
    let added = 0;
    for (let i = items - 1; i >= 0; i--) {
      if (unchecked(take[i * (cap + 1) + c]) == 0) continue;
      const b = i * 4;
      const t = <i32>unchecked(cd[b]);
      const r = <i32>unchecked(cd[b + 1]);
      const m = <i32>unchecked(cd[b + 2]);
      c -= <i32>unchecked(cd[b + 3]);
      const ex = r == 0 ? typeL(t) : typeW(t);
      const ey = r == 0 ? typeW(t) : typeL(t);
      const across = dir == AXIS_X ? ey : ex;
      for (let k = 0; k < m; k++) {
        const start = p + kerf;
        this.take(t);
        appendNode(this.nodes, KIND_PART, r, t, dir == AXIS_X ? ox : ox + start, dir == AXIS_X ? oy + start : oy, ex, ey);
        p = start + across;
        added++;
      }
    }
    return added;
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
    let bestM = 1;
    let firstT = -1;
    let firstR = 0;
    if (inner) {
      if (!this.fit(dir, X, Y, A)) return false;
      firstT = this.pickT;
      firstR = this.pickR;
      const sc = this.trialBand(stage, dir, ox, oy, A, start, firstT, firstR, 1);
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
        const score = this.trialBand(stage, dir, ox, oy, A, start, t, r, 1);
        if (score > bestScore + 1e-12) {
          bestScore = score;
          bestT = t;
          bestR = r;
          bestM = 1;
        }
        // Wide bands: as thick as m openers side by side, so a row of the band's stacks can
        // hold several parts (a band's thickness otherwise always equals one part's extent).
        if (this.g.wide && stage + 2 <= this.inst.maxStage) {
          const one = (dir == AXIS_X) == (r == 0) ? typeW(t) : typeL(t);
          const room = (dir == AXIS_X ? Y : X) + eps;
          for (let m = 2; m <= WIDE_MAX && <f64>m * one + <f64>(m - 1) * this.inst.kerf <= room; m++) {
            const sm = this.trialBand(stage, dir, ox, oy, A, start, t, r, m);
            if (sm > bestScore + 1e-12) {
              bestScore = sm;
              bestT = t;
              bestR = r;
              bestM = m;
            }
          }
        }
      }
    }
    if (bestT < 0) return false;
    this.pickT = bestT;
    this.pickR = bestR;
    this.pickM = bestM;
    return true;
  }

  /** Builds the band opened by (t, r) at `start`, measures its density and rolls it back. */
  private trialBand(stage: i32, dir: i32, ox: f64, oy: f64, A: f64, start: f64, t: i32, r: i32, m: i32): f64 {
    const ex = r == 0 ? typeL(t) : typeW(t);
    const ey = r == 0 ? typeW(t) : typeL(t);
    const across = <f64>m * (dir == AXIS_X ? ey : ex) + <f64>(m - 1) * this.inst.kerf;
    const mark = this.nodes.len;
    const area0 = this.placedArea;
    const count0 = this.placedCount;
    this.take(t);
    this.trialDepth++;
    this.fillNode(stage + 1, 1 - dir, dir == AXIS_X ? ox : ox + start, dir == AXIS_X ? oy + start : oy, across, A, t, r, m > 1);
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
    // Strategy 'time': another copy of the band's opener first, as it lies; identical pieces
    // stacked in a band need no trim cuts and make repeatable patterns.
    const o = this.openT;
    if (this.g.sameFirst && o >= 0 && unchecked(this.counts[o]) > 0) {
      const ex = this.openR == 0 ? typeL(o) : typeW(o);
      const ey = this.openR == 0 ? typeW(o) : typeL(o);
      if (ex <= X + eps && ey <= Y + eps) {
        this.pickT = o;
        this.pickR = this.openR;
        return true;
      }
    }
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
}
