// Reduced-cost column enumeration for a plan of k bars of one stock row, which either finds
// such a plan or proves that none exists.
//
// The argument. Take duals y >= 0 scaled so that every pattern p (at most the demand of each
// item) has y(p) <= 1 (Farley; any dual-feasible y will do, only y.d matters). A plan of at
// most k bars cuts at least the demand d; taking surplus pieces out of its bars leaves
// patterns that cut d exactly, still at most k of them. Their reduced costs 1 - y(p) are each
// >= 0 and add up to (bars) - y.d <= k - y.d (the gap); their wastes add up to (bars) x
// capacity - (length of d) <= k x capacity - (length of d) (the room). So every bar of such a
// plan has reduced cost <= gap and waste <= room: it is among the patterns enumerated here
// (a depth-first search over item counts, bounded by the best dual per unit of room left),
// and the plan is an exact cover of d by at most k of them within both budgets, which the
// cover search looks for. When the enumeration is complete and the cover search ends
// without a cover (RC_EXHAUSTED), no plan of k bars exists: the bound is k + 1 bars. When
// the LP bound is within a small fraction of k the patterns are few (hundreds). Both searches
// are capped by counted work (RC_GAVE_UP), so a run is deterministic. The argument holds for
// every dual-feasible y at once, so with other duals a pattern must fit each one's gap too;
// and patterns that the LP over the enumerated patterns alone rules out leave the cover search
// (rc-probe.ts).

import { Instance } from "./instance";
import { Bar } from "./plan";
import { Knapsack } from "./knapsack";
import { I32Vec, F64Vec, sortByKey } from "../common/arrays";
import { CoverProbe, PROBE_NO_PLAN, PROBE_STOPPED } from "./rc-probe";
import { now } from "../common/clock";
import { Rng } from "../common/rng";

const RC_TOL: f64 = 1e-9;
/** Rounding between two sums of the same reduced costs in another order, far below RC_TOL. */
const MEMO_TOL: f64 = 1e-12;

/** run's answers: a plan of k bars found; none exists (the search ended); the work ran out. */
export const RC_FOUND: i32 = 0;
export const RC_EXHAUSTED: i32 = 1;
export const RC_GAVE_UP: i32 = 2;
/** Work counted for one pivot of the probe's simplex (the search counts this much work a pivot). */
export const RC_WORK_PER_PIVOT: f64 = 2000;
/**
 * When the patterns exceed their cap, the search takes the duals of this many LP re-solves
 * with the demands tilted by up to RC_TILT per item too (Master.tiltedDuals).
 */
export const RC_TILTS: i32 = 8;
export const RC_TILT: f64 = 1e-3;

export class ReducedCostCover {
  inst: Instance;
  /** Work done by the last run (enumeration nodes plus pattern checks of the cover search). */
  work: f64 = 0;
  /** Patterns enumerated, those left by the probe, and cover nodes of the last run (for the bench's figures). */
  patterns: i32 = 0;
  kept: i32 = 0;
  nodes: i32 = 0;
  /** The enumeration of the last run stopped at its pattern cap. */
  capped: bool = false;
  /** The job's deadline (host clock, ms), and whether the last run stopped on it. */
  deadline: f64 = Infinity;
  timedOut: bool = false;
  /** k - y.d at the scaled duals of the last run. */
  gap: f64 = 0;
  /** The plan found by the last run (RC_FOUND). */
  bars: Array<Bar> = new Array<Bar>();
  private maxWork: f64 = 0;
  private gaveUp: bool = false;
  private y: Float64Array;
  /** Other duals (scaled), each with its own need and bound: a pattern must fit all of them. */
  private ys: Array<Float64Array> = new Array<Float64Array>();
  private needs: Float64Array = new Float64Array(0);
  private bestFrom: Array<Float64Array> = new Array<Float64Array>();
  private values: Float64Array = new Float64Array(0);
  private order: Int32Array = new Int32Array(0);
  private nOrder: i32 = 0;
  private bestRatioFrom: Float64Array = new Float64Array(0);
  private count: Int32Array;
  private cap: f64 = 0;
  private need: f64 = 0;
  private maxWaste: f64 = 0;
  // Patterns: entries start[p] .. start[p+1] of (item, cnt), reduced cost and waste.
  private start: I32Vec = new I32Vec(256);
  private item: I32Vec = new I32Vec(1024);
  private cnt: I32Vec = new I32Vec(1024);
  private rc: F64Vec = new F64Vec(256);
  private waste: F64Vec = new F64Vec(256);
  private pieces: I32Vec = new I32Vec(256);
  private maxPatterns: i32 = 0;
  // Cover search state.
  private rem: Int32Array;
  private left: i32 = 0;
  private barred: Uint8Array = new Uint8Array(0);
  /** Patterns holding each item: entries byItemStart[i] .. byItemStart[i+1] of byItem. */
  private byItemStart: Int32Array;
  private byItem: Int32Array = new Int32Array(0);
  private chosen: I32Vec = new I32Vec(64);
  private found: bool = false;
  // Failed residuals: two additive hashes of rem[] (random 64-bit keys per item, updated as
  // pieces are cut), the first with the bars left as the map's key, the second checked.
  private key1: Uint64Array;
  private key2: Uint64Array;
  private hash1: u64 = 0;
  private hash2: u64 = 0;
  private failed: Map<u64, i32> = new Map<u64, i32>();
  private failedHash2: Array<u64> = new Array<u64>();
  private failedGap: Array<f64> = new Array<f64>();

  constructor(inst: Instance) {
    this.inst = inst;
    this.y = new Float64Array(inst.nI);
    this.count = new Int32Array(inst.nI);
    this.rem = new Int32Array(inst.nI);
    this.byItemStart = new Int32Array(inst.nI + 1);
    this.key1 = new Uint64Array(inst.nI + 1);
    this.key2 = new Uint64Array(inst.nI);
    const keys = new Rng(0);
    for (let i = 0; i <= inst.nI; i++) {
      this.key1[i] = keys.next();
      if (i < inst.nI) this.key2[i] = keys.next();
    }
  }

  /**
   * Looks for a plan of k bars of stock row t cutting the demand exactly, from duals y (per
   * item, any sign; clamped and scaled here): RC_FOUND (the plan in bars), RC_EXHAUSTED (no
   * plan of k bars exists) or RC_GAVE_UP (the work, the gap (maxGap) or the patterns
   * (maxPatterns) exceeded their caps) or the deadline passed (timedOut). The cover search
   * gets firstWork on its own, then, when it gave up, the probe (rc-probe.ts) and a second
   * search share the rest of maxWork.
   */
  run(duals: Float64Array, t: i32, k: i32, maxGap: f64, maxPatterns: i32, maxWork: f64, firstWork: f64,
    others: Array<Float64Array> = new Array<Float64Array>()): i32 {
    const inst = this.inst;
    this.work = 0;
    this.patterns = 0;
    this.kept = 0;
    this.nodes = 0;
    this.capped = false;
    this.timedOut = false;
    this.maxWork = maxWork;
    this.gaveUp = false;
    this.found = false;
    this.bars = new Array<Bar>();
    this.maxPatterns = maxPatterns;
    this.cap = inst.cap[t] + inst.eps;
    let gap = this.scaleDuals(duals, t, k, this.y);
    this.gap = gap;
    // y.d above k is itself a proof (the LP bound exceeds k); a hair above is rounding.
    if (gap < -RC_TOL) return RC_EXHAUSTED;
    // Every bar of a plan has reduced cost within the gap at each dual-feasible y at once.
    this.ys = new Array<Float64Array>();
    this.needs = new Float64Array(others.length);
    for (let j = 0; j < others.length; j++) {
      const yj = new Float64Array(inst.nI);
      const gj = this.scaleDuals(others[j], t, k, yj);
      if (gj < -RC_TOL) return RC_EXHAUSTED;
      this.needs[j] = 1.0 - Math.max(0.0, gj) - RC_TOL;
      this.ys.push(yj);
    }
    if (!(gap <= maxGap)) return RC_GAVE_UP;
    if (gap < 0) gap = 0;
    this.need = 1.0 - gap - RC_TOL;
    let length: f64 = 0;
    for (let i = 0; i < inst.nI; i++) length += <f64>inst.dem[i] * inst.size[i];
    this.maxWaste = <f64>k * inst.cap[t] - length + inst.eps * <f64>k;
    if (this.maxWaste < -inst.eps) return RC_EXHAUSTED;
    this.enumerate(t);
    if (this.gaveUp) return RC_GAVE_UP;
    this.kept = this.rc.len;
    this.indexByItem();
    // The cover search alone first: cheap where it ends (a plan, or few patterns).
    this.maxWork = Math.min(maxWork, firstWork);
    this.startCover();
    this.cover(gap, k, this.maxWaste);
    if (!this.found && this.gaveUp && !this.timedOut && this.work < maxWork) {
      // Then the patterns that the LP over the patterns shows to be in no plan leave it, and
      // the search starts over on the others (its memo too: it held for the full set).
      this.maxWork = maxWork;
      this.gaveUp = false;
      const probe = new CoverProbe(inst);
      const np = this.rc.len;
      const st = probe.run(this.start.data, this.item.data, this.cnt.data, np, k, <i32>Math.min(1e9, Math.floor((maxWork - this.work) / RC_WORK_PER_PIVOT)), this.deadline);
      this.work += <f64>probe.pivots * RC_WORK_PER_PIVOT;
      if (probe.timedOut) {
        this.timedOut = true;
        return RC_GAVE_UP;
      }
      if (st == PROBE_NO_PLAN) {
        this.kept = 0;
        return RC_EXHAUSTED;
      }
      this.kept = 0;
      for (let p = 0; p < np; p++) {
        if (probe.removed[p] != 0) this.barred[p] = 1;
        else this.kept++;
      }
      // Stopped early, or nothing removed: the first search would only run again (unless there was none).
      if ((st == PROBE_STOPPED || this.kept == np) && this.nodes > 0) return RC_GAVE_UP;
      this.startCover();
      this.cover(gap, k, this.maxWaste);
    }
    if (!this.found) return this.gaveUp ? RC_GAVE_UP : RC_EXHAUSTED;
    for (let c = 0; c < this.chosen.len; c++) {
      const p = this.chosen.data[c];
      const bar = new Bar(t);
      for (let a = this.start.data[p]; a < this.start.data[p + 1]; a++) {
        for (let r = 0; r < this.cnt.data[a]; r++) bar.add(this.item.data[a], inst.size[this.item.data[a]]);
      }
      this.bars.push(bar);
    }
    return RC_FOUND;
  }

  /** The cover search's state at its root: the whole demand left, nothing chosen, no memo. */
  private startCover(): void {
    const inst = this.inst;
    this.rem.set(inst.dem);
    this.left = 0;
    for (let i = 0; i < inst.nI; i++) this.left += inst.dem[i];
    this.chosen.clear();
    this.hash1 = 0;
    this.hash2 = 0;
    for (let i = 0; i < inst.nI; i++) {
      this.hash1 += <u64>inst.dem[i] * this.key1[i];
      this.hash2 += <u64>inst.dem[i] * this.key2[i];
    }
    this.failed.clear();
    this.failedHash2.length = 0;
    this.failedGap.length = 0;
  }

  /** Clamps the duals at 0 and scales them so no pattern of row t exceeds 1; returns k - y.d. */
  private scaleDuals(duals: Float64Array, t: i32, k: i32, y: Float64Array): f64 {
    const inst = this.inst;
    const ks = new Knapsack();
    ks.reset(inst.cap[t], inst.eps);
    for (let i = 0; i < inst.nI; i++) {
      const v = duals[i] > 0 && inst.dem[i] > 0 && inst.ok(i, t) ? duals[i] : 0.0;
      y[i] = v;
      if (v <= 0) continue;
      let c = <i32>Math.floor(this.cap / inst.size[i]);
      if (c > inst.dem[i]) c = inst.dem[i];
      if (c > 0) ks.add(i, v, inst.size[i], c);
    }
    ks.solve();
    const scale = ks.upper > 1.0 ? 1.0 / ks.upper : 1.0;
    let yd: f64 = 0;
    for (let i = 0; i < inst.nI; i++) {
      y[i] *= scale;
      yd += y[i] * <f64>inst.dem[i];
    }
    return <f64>k - yd;
  }

  /** Every pattern of row t with reduced cost <= gap and waste <= the plan's waste room. */
  private enumerate(t: i32): void {
    const inst = this.inst;
    this.start.clear();
    this.start.push(0);
    this.item.clear();
    this.cnt.clear();
    this.rc.clear();
    this.waste.clear();
    this.pieces.clear();
    // Items by decreasing dual: the bound below then tightens fast.
    const order = new Int32Array(inst.nI);
    const key = new Float64Array(inst.nI);
    let n: i32 = 0;
    for (let i = 0; i < inst.nI; i++) {
      key[i] = -this.y[i];
      if (inst.dem[i] > 0 && inst.ok(i, t)) order[n++] = i;
    }
    sortByKey(order, n, key, new Int32Array(n));
    this.order = order;
    this.nOrder = n;
    this.bestRatioFrom = new Float64Array(n + 1);
    for (let a = n - 1; a >= 0; a--) {
      const r = this.y[order[a]] / inst.size[order[a]];
      this.bestRatioFrom[a] = Math.max(this.bestRatioFrom[a + 1], r);
    }
    this.bestFrom = new Array<Float64Array>();
    for (let j = 0; j < this.ys.length; j++) {
      const yj = this.ys[j];
      const b = new Float64Array(n + 1);
      for (let a = n - 1; a >= 0; a--) b[a] = Math.max(b[a + 1], yj[order[a]] / inst.size[order[a]]);
      this.bestFrom.push(b);
    }
    // Their values per depth (item a of the order), so no sum drifts as counts come and go.
    this.values = new Float64Array(this.ys.length * (n + 1));
    this.count.fill(0);
    this.extend(0, this.cap, 0);
  }

  private extend(a: i32, room: f64, value: f64): void {
    if (this.gaveUp) return;
    this.work += 1;
    if (this.work > this.maxWork) {
      this.gaveUp = true;
      return;
    }
    if (value + room * this.bestRatioFrom[a] < this.need) return;
    const nd = this.ys.length;
    const n1 = this.nOrder + 1;
    for (let j = 0; j < nd; j++) {
      if (this.values[j * n1 + a] + room * this.bestFrom[j][a] < this.needs[j]) return;
    }
    if (a == this.nOrder) {
      if (room <= this.maxWaste + this.inst.eps) this.keep(room, value);
      return;
    }
    const i = this.order[a];
    const size = this.inst.size[i];
    let most = <i32>Math.floor(room / size);
    if (most > this.inst.dem[i]) most = this.inst.dem[i];
    for (let c = most; c >= 0; c--) {
      this.count[i] = c;
      for (let j = 0; j < nd; j++) this.values[j * n1 + a + 1] = this.values[j * n1 + a] + <f64>c * this.ys[j][i];
      this.extend(a + 1, room - <f64>c * size, value + <f64>c * this.y[i]);
      if (this.gaveUp) break;
    }
    this.count[i] = 0;
  }

  private keep(room: f64, value: f64): void {
    if (this.rc.len >= this.maxPatterns) {
      this.capped = true;
      this.gaveUp = true;
      return;
    }
    let pieces: i32 = 0;
    for (let a = 0; a < this.nOrder; a++) {
      const i = this.order[a];
      const c = this.count[i];
      if (c == 0) continue;
      this.item.push(i);
      this.cnt.push(c);
      pieces += c;
    }
    if (pieces == 0) {
      this.item.len = this.start.data[this.start.len - 1];
      this.cnt.len = this.item.len;
      return;
    }
    this.start.push(this.item.len);
    this.rc.push(Math.max(0.0, 1.0 - value));
    this.waste.push(room);
    this.pieces.push(pieces);
    this.patterns = this.rc.len;
  }

  private indexByItem(): void {
    const nI = this.inst.nI;
    const np = this.rc.len;
    this.byItemStart.fill(0);
    for (let p = 0; p < np; p++) {
      for (let a = this.start.data[p]; a < this.start.data[p + 1]; a++) this.byItemStart[this.item.data[a] + 1]++;
    }
    for (let i = 0; i < nI; i++) this.byItemStart[i + 1] += this.byItemStart[i];
    this.byItem = new Int32Array(this.byItemStart[nI]);
    const fill = new Int32Array(nI);
    for (let p = 0; p < np; p++) {
      for (let a = this.start.data[p]; a < this.start.data[p + 1]; a++) {
        const i = this.item.data[a];
        this.byItem[this.byItemStart[i] + fill[i]++] = p;
      }
    }
    this.barred = new Uint8Array(np);
  }

  /** Pattern p may be cut next: not barred, within the budgets and the demand left. */
  private fits(p: i32, gap: f64, waste: f64): bool {
    this.work += 1;
    const o = <usize>p << 3;
    if (load<u8>(this.barred.dataStart + <usize>p) != 0 || load<f64>(this.rc.data.dataStart + o) > gap + RC_TOL || load<f64>(this.waste.data.dataStart + o) > waste + this.inst.eps) return false;
    // By address: an indexed read, even unchecked, compiles to a call here (not inlined).
    const rem = this.rem.dataStart;
    const item = this.item.data.dataStart;
    const cnt = this.cnt.data.dataStart;
    const sp = this.start.data.dataStart + (<usize>p << 2);
    const end = load<i32>(sp, 4);
    for (let a = load<i32>(sp); a < end; a++) {
      const e = <usize>a << 2;
      if (load<i32>(rem + (<usize>load<i32>(item + e) << 2)) < load<i32>(cnt + e)) return false;
    }
    return true;
  }

  /**
   * Depth first: the item with the fewest patterns that fit is cut next, by each of them in
   * turn (lowest reduced cost first); a pattern tried is barred for its later siblings (any
   * cover using it was in its own branch). A node ends when the reduced costs or the waste
   * that the pieces left need at least (each piece's least share of a pattern's) exceed what
   * is left of the budgets, or when the same pieces were left before with as many bars and as
   * much reduced cost or more, and that node failed. That memo holds although barred patterns
   * were left out there: a cover of those pieces using a pattern barred at that node,
   * completed by the path to it, is a cover that the earlier sibling branch of the pattern
   * would have found. (The waste left follows from the pieces and the bars left.)
   */
  private cover(gap: f64, barsLeft: i32, waste: f64): void {
    if (this.found || this.gaveUp) return;
    if (this.work > this.maxWork) {
      this.gaveUp = true;
      return;
    }
    // The job's deadline stops it too (a run so stopped depends on the clock: timedOut).
    if ((this.nodes & 1023) == 1023 && now() >= this.deadline) {
      this.timedOut = true;
      this.gaveUp = true;
      return;
    }
    this.nodes++;
    if (this.left == 0) {
      this.found = true;
      return;
    }
    if (barsLeft == 0) return;
    // The same pieces left failed before with the same bars and as much reduced cost or more.
    const key = this.hash1 + <u64>barsLeft * this.key1[this.inst.nI];
    if (this.failed.has(key)) {
      const f = this.failed.get(key);
      if (this.failedHash2[f] == this.hash2 && gap <= this.failedGap[f] + MEMO_TOL) return;
    }
    this.search(gap, barsLeft, waste);
    if (this.found || this.gaveUp) return;
    if (this.failed.has(key)) {
      const f = this.failed.get(key);
      if (this.failedHash2[f] == this.hash2 && gap > this.failedGap[f]) this.failedGap[f] = gap;
    } else {
      this.failed.set(key, this.failedGap.length);
      this.failedHash2.push(this.hash2);
      this.failedGap.push(gap);
    }
  }

  /** The children of a cover node (see cover). */
  private search(gap: f64, barsLeft: i32, waste: f64): void {
    const nI = this.inst.nI;
    let pick: i32 = -1;
    let fewest: i32 = i32.MAX_VALUE;
    let needRc: f64 = 0, needWaste: f64 = 0;
    const remp = this.rem.dataStart;
    const bsp = this.byItemStart.dataStart;
    const bip = this.byItem.dataStart;
    const pcp = this.pieces.data.dataStart;
    const rcp = this.rc.data.dataStart;
    const wp = this.waste.data.dataStart;
    for (let i = 0; i < nI; i++) {
      const ri = load<i32>(remp + (<usize>i << 2));
      if (ri == 0) continue;
      let c: i32 = 0;
      let shareRc: f64 = Infinity, shareWaste: f64 = Infinity;
      const end = load<i32>(bsp + (<usize>i << 2), 4);
      for (let a = load<i32>(bsp + (<usize>i << 2)); a < end; a++) {
        const p = load<i32>(bip + (<usize>a << 2));
        if (!this.fits(p, gap, waste)) continue;
        c++;
        const np = <f64>load<i32>(pcp + (<usize>p << 2));
        shareRc = Math.min(shareRc, load<f64>(rcp + (<usize>p << 3)) / np);
        shareWaste = Math.min(shareWaste, load<f64>(wp + (<usize>p << 3)) / np);
      }
      if (c == 0) return;
      if (c < fewest) {
        fewest = c;
        pick = i;
      }
      needRc += <f64>ri * shareRc;
      needWaste += <f64>ri * shareWaste;
    }
    if (needRc > gap + RC_TOL || needWaste > waste + this.inst.eps) return;
    const cand = new Int32Array(fewest);
    let nc: i32 = 0;
    for (let a = this.byItemStart[pick]; a < this.byItemStart[pick + 1]; a++) {
      const p = this.byItem[a];
      if (this.fits(p, gap, waste)) cand[nc++] = p;
    }
    // Lowest reduced cost first; ties by index (a stable sort), so the order is deterministic.
    sortByKey(cand, nc, this.rc.data, new Int32Array(nc));
    const barredHere = new Array<i32>();
    for (let c = 0; c < nc; c++) {
      const p = cand[c];
      this.cut(p, 1);
      this.chosen.push(p);
      this.cover(gap - this.rc.data[p], barsLeft - 1, waste - this.waste.data[p]);
      if (this.found) break;
      this.chosen.len--;
      this.cut(p, -1);
      if (this.gaveUp) break;
      this.barred[p] = 1;
      barredHere.push(p);
    }
    for (let c = 0; c < barredHere.length; c++) this.barred[barredHere[c]] = 0;
  }

  /** Takes (sign 1) or gives back (sign -1) the pieces of pattern p. */
  private cut(p: i32, sign: i32): void {
    for (let a = this.start.data[p]; a < this.start.data[p + 1]; a++) {
      const i = this.item.data[a];
      const c = sign * this.cnt.data[a];
      this.rem[i] -= c;
      this.left -= c;
      this.hash1 -= <u64>c * this.key1[i];
      this.hash2 -= <u64>c * this.key2[i];
    }
  }
}
