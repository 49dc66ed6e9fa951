// What the guillotine search (search.ts) and the free packer (free/pack.ts) share: both keep
// one list of sheets per component and improve it by the same large-neighbourhood move
// (free a weak sheet and partners drawn in proportion to their waste, re-pack their parts
// plus the unplaced ones, keep the result when the objective is not worse). Only how a set
// of parts becomes sheets differs, so the bookkeeping around the move lives here once.

import { Instance } from "./instance";
import { Sheet, Objective, compareObjectives, distinctPatterns } from "./solution";
import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART, MODE_EFFORT, MODE_STALL, MODE_SEARCH_TIME, STOP_BOUND, STOP_STALLED, STOP_EFFORT, STOP_SOFT, STOP_BUDGET } from "./layout";
import { Rng } from "../common/rng";
import { Budget, now } from "../common/clock";
import { I32Vec } from "../common/arrays";

/** Keeps full sheets drawable as partners of a freed sheet, rarely. */
const WASTE_FLOOR: f64 = 0.02;
/** Minimum effort charged per search step, in the search's own work unit. */
const STEP_WORK: i64 = 64;
/** Stop rule 1 ends at this many effort limits even while it still improves (the clock may end it first). */
const STALL_CAP: i64 = 8;

export abstract class SheetSearch {
  inst: Instance;
  budget: Budget;
  rng: Rng;
  /** Current (= best) sheets of each component. */
  sheets: Array<Array<Sheet>> = new Array<Array<Sheet>>();
  lowerBound: Int32Array;
  /** Sheets in use per stock type and instances placed per type (components are disjoint). */
  used: Int32Array;
  placed: Int32Array;
  unplaced: Int32Array;
  iterations: i64 = 0;
  timeToBest: f64 = 0;
  stoppedByDeadline: bool = false;
  /** Work done and iterations at the last improvement of the objective (the stall rule's start). */
  improvedWork: i64 = 0;
  improvedIter: i64 = 0;
  /** Objective of the greedy start (see output.summarise), set once the first solutions exist. */
  greedy: Float64Array = new Float64Array(3);

  /** Parts still to pack per type, and sheets still available per stock type (-1 = unlimited). */
  protected demand: Int32Array;
  protected avail: Int32Array;
  /** Types with demand in the current move, and the indices of the freed sheets. */
  protected touched: I32Vec = new I32Vec(256);
  protected chosen: I32Vec = new I32Vec(8);
  protected oldObj: Objective = new Objective();
  protected newObj: Objective = new Objective();
  /** Strategy 'time': objectives also count distinct patterns (the guillotine engine sets it). */
  protected countPatterns: bool = false;

  constructor(inst: Instance, budget: Budget, lowerBound: Int32Array) {
    this.inst = inst;
    this.budget = budget;
    this.rng = new Rng(inst.seed);
    this.lowerBound = lowerBound;
    const nt = inst.nTypes > 0 ? inst.nTypes : 1;
    const ns = inst.nStocks > 0 ? inst.nStocks : 1;
    this.used = new Int32Array(ns);
    this.placed = new Int32Array(nt);
    this.demand = new Int32Array(nt);
    this.avail = new Int32Array(ns);
    this.unplaced = new Int32Array(inst.nComps > 0 ? inst.nComps : 1);
    for (let c = 0; c < inst.nComps; c++) this.sheets.push(new Array<Sheet>());
  }

  /** Work done so far (deterministic), the unit of the effort limit. */
  abstract work(): i64;
  /** First complete solution of component c; never aborted. */
  abstract initial(c: i32, deadline: f64): void;
  /**
   * Packs the demand of types[0..nt) of component c onto new sheets appended to `out`;
   * false when `abortable` and the deadline passed (out is then incomplete).
   */
  protected abstract packDemand(types: Int32Array, nt: i32, c: i32, out: Array<Sheet>, deadline: f64, abortable: bool): bool;
  /** A random priority order (and packing rule) for types[0..n). */
  protected abstract shapeRandomly(types: Int32Array, n: i32): void;
  /** Search step `n` (1, 2, ...) on component c: a full construction or a destroy-and-repack move. */
  protected abstract step(c: i32, deadline: f64, n: i32): void;

  /** Multiplies component c's effort limit: searches that still gain from long runs say so. */
  effortWeight(c: i32): f64 {
    return 1.0;
  }

  /** Nothing left to gain on component c, so its search may stop early. */
  protected provenOptimal(c: i32): bool {
    return this.atAreaBound(c);
  }

  /**
   * Improves component c until its stop rule (inst.mode, MODE_*) says so and returns why it
   * stopped (STOP_*). MODE_EFFORT stops at the effort limit; MODE_STALL goes on past it while
   * the search still improves, and stops once as much work again as the last improvement took
   * (at least one limit's worth) found nothing, or at STALL_CAP limits; MODE_SEARCH_TIME
   * searches until the soft deadline, but never stops before MODE_STALL would. Effort is counted in work units, so up to that point a run is
   * the same on every machine; only the deadlines depend on the clock.
   */
  improve(c: i32, soft: f64, hard: f64, workLimit: i64): i32 {
    const why = this.search(c, soft, hard, workLimit);
    this.finish(c);
    return why;
  }

  /** Called once the search of component c has stopped: sheets[c] must then hold its best solution. */
  protected finish(c: i32): void {}

  private search(c: i32, soft: f64, hard: f64, workLimit: i64): i32 {
    const mode = this.inst.mode;
    const w0 = this.work();
    this.improvedWork = w0;
    this.improvedIter = this.iterations;
    let steps: i64 = 0;
    // MODE_SEARCH_TIME: the point where MODE_STALL would have stopped has been passed.
    let pastDefault = false;
    while (!this.provenOptimal(c)) {
      // Every step costs at least STEP_WORK, so moves that find nothing to fit still end.
      const spent = this.work() - w0 + steps * STEP_WORK;
      if (mode == MODE_EFFORT) {
        if (spent >= workLimit) return STOP_EFFORT;
      } else if (!pastDefault) {
        let why = -1;
        const quiet = this.work() - this.improvedWork + (this.iterations - this.improvedIter) * STEP_WORK;
        // Stalled: as much work again as the last improvement took, and at least one effort limit, found nothing.
        const patience = max<i64>(workLimit, this.improvedWork - w0);
        if (spent >= workLimit && quiet >= patience) why = STOP_STALLED;
        else if (workLimit < i64.MAX_VALUE / STALL_CAP && spent >= workLimit * STALL_CAP) why = STOP_EFFORT;
        if (why >= 0) {
          // The time asked already spent where the default stops: its layout, a repeatable stop.
          if (mode == MODE_STALL || now() >= soft) return why;
          pastDefault = true;
        }
      }
      steps++;
      const t = now();
      if (t >= hard) {
        this.stoppedByDeadline = true;
        return STOP_BUDGET;
      }
      const softApplies = mode != MODE_SEARCH_TIME || pastDefault;
      if (softApplies && t >= soft) {
        this.stoppedByDeadline = true;
        return STOP_SOFT;
      }
      this.iterations++;
      this.step(c, softApplies ? soft : hard, <i32>steps);
    }
    return STOP_BOUND;
  }

  /** Whether a re-pack comparing `cmp` (compareObjectives of newObj with oldObj) is kept: when not worse. */
  protected acceptable(cmp: i32): bool {
    return cmp <= 0;
  }

  /** Marks an improvement of the objective itself (not of a tie-break): the stall count restarts. */
  protected improved(): void {
    this.timeToBest = this.budget.elapsed();
    this.improvedWork = this.work();
    this.improvedIter = this.iterations;
  }

  /** Full construction of component c with the current order; null if aborted. */
  protected constructAll(c: i32, deadline: f64, abortable: bool): Array<Sheet> | null {
    const inst = this.inst;
    const t0 = unchecked(inst.cTypeStart[c]);
    const t1 = unchecked(inst.cTypeStart[c + 1]);
    // Demand: every part of the component; every sheet of its stock.
    for (let i = t0; i < t1; i++) {
      const t = unchecked(inst.cTypes[i]);
      unchecked((this.demand[t] = unchecked(inst.tQ[t])));
    }
    for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) {
      const s = unchecked(inst.cStocks[i]);
      unchecked((this.avail[s] = unchecked(inst.sQ[s])));
    }
    const out = new Array<Sheet>();
    const ok = this.packDemand(inst.cTypes.subarray(t0, t1), t1 - t0, c, out, deadline, abortable);
    for (let i = t0; i < t1; i++) unchecked((this.demand[unchecked(inst.cTypes[i])] = 0));
    return ok ? out : null;
  }

  /** Full construction with the current order; replaces the solution only when strictly better. */
  protected restart(c: i32, deadline: f64): void {
    const list = this.constructAll(c, deadline, true);
    if (list === null) return;
    this.oldObj.reset();
    this.oldObj.addAll(this.sheets[c]);
    this.newObj.reset();
    this.newObj.addAll(list);
    if (this.countPatterns) {
      this.oldObj.patterns = distinctPatterns(this.sheets[c]);
      this.newObj.patterns = distinctPatterns(list);
    }
    const cmp = compareObjectives(this.newObj, this.oldObj);
    if (cmp < 0) {
      this.install(c, list);
      if (cmp >= -3) this.improved();
    }
  }

  /**
   * The move itself, once the sheets to free are in `chosen`: re-packs their parts plus the
   * unplaced ones in a random order, and keeps the result when it is not worse.
   */
  protected repackChosen(c: i32, deadline: f64): void {
    const cur = this.sheets[c];
    this.collectFreedDemand(c, cur);
    const tv = this.touched;
    this.shapeRandomly(tv.data, tv.len);
    const out = new Array<Sheet>();
    const ok = this.packDemand(tv.data, tv.len, c, out, deadline, true);
    for (let k = 0; k < tv.len; k++) unchecked((this.demand[tv.get(k)] = 0));
    if (ok) this.keepRepackIfNotWorse(c, cur, out);
  }

  /** Makes `list` the solution of component c and recounts usage. */
  protected install(c: i32, list: Array<Sheet>): void {
    const inst = this.inst;
    for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
      unchecked((this.placed[unchecked(inst.cTypes[i])] = 0));
    }
    for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) {
      unchecked((this.used[unchecked(inst.cStocks[i])] = 0));
    }
    let placedCount: i64 = 0;
    for (let i = 0; i < list.length; i++) {
      const sh = unchecked(list[i]);
      sh.addCounts(this.placed, 1);
      unchecked((this.used[sh.stock] += 1));
      placedCount += sh.placedCount;
    }
    unchecked((this.unplaced[c] = <i32>(<i64>unchecked(inst.cInstances[c]) - placedCount)));
    this.sheets[c] = list;
  }

  /** Everything placed on one stock type with as many sheets as the area bound: nothing to gain. */
  protected atAreaBound(c: i32): bool {
    const inst = this.inst;
    if (unchecked(this.unplaced[c]) != 0) return false;
    if (unchecked(inst.cStockStart[c + 1]) - unchecked(inst.cStockStart[c]) != 1) return false;
    return this.sheets[c].length <= unchecked(this.lowerBound[c]);
  }

  /** Tournament of three: a weak sheet of `cur`, but not always the same one. */
  protected weakSheetByTournament(cur: Array<Sheet>): i32 {
    const rng = this.rng;
    const m = cur.length;
    let target = rng.int(m);
    for (let k = 0; k < 2; k++) {
      const o = rng.int(m);
      if (unchecked(cur[o]).fill() < unchecked(cur[target]).fill()) target = o;
    }
    return target;
  }

  /** Adds 1-3 partner sheets to `chosen`, drawn in proportion to their waste: full sheets have nothing to offer. */
  protected addPartnersByWaste(cur: Array<Sheet>): void {
    const rng = this.rng;
    const ch = this.chosen;
    const m = cur.length;
    const extra = 1 + rng.int(m - 1 < 3 ? m - 1 : 3);
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
  }

  /**
   * Demand of the move: the parts of the chosen sheets plus everything still unplaced, into
   * `touched` and `demand`; the chosen sheets' objective into oldObj; the stock they free
   * back into `avail`.
   */
  protected collectFreedDemand(c: i32, cur: Array<Sheet>): void {
    const inst = this.inst;
    const ch = this.chosen;
    const tv = this.touched;
    tv.clear();
    this.oldObj.reset();
    for (let k = 0; k < ch.len; k++) {
      const sh = unchecked(cur[ch.get(k)]);
      this.oldObj.add(sh);
      const d = sh.nodes;
      for (let i = 0; i < d.length; i += NODE_STRIDE) {
        if (<i32>unchecked(d[i + N_KIND]) == KIND_PART) {
          const t = <i32>unchecked(d[i + N_ITEM]);
          if (unchecked(this.demand[t]) == 0) tv.push(t);
          unchecked((this.demand[t] += 1));
        }
      }
    }
    if (unchecked(this.unplaced[c]) > 0) {
      for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
        const t = unchecked(inst.cTypes[i]);
        const u = unchecked(inst.tQ[t]) - unchecked(this.placed[t]);
        if (u > 0) {
          if (unchecked(this.demand[t]) == 0) tv.push(t);
          unchecked((this.demand[t] += u));
        }
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
  }

  /**
   * Ends a destroy-and-repack move whose chosen sheets were re-packed into `out`: keeps the
   * result when acceptable() says so (by default, when the objective is not worse). Accepting ties that concentrate waste (higher
   * sum of squared fills) drifts parts off the weakest sheet until it can be dropped.
   */
  protected keepRepackIfNotWorse(c: i32, cur: Array<Sheet>, out: Array<Sheet>): void {
    this.newObj.reset();
    this.newObj.addAll(out);
    // The solution as it would be: the sheets not chosen, then the new ones.
    const ch = this.chosen;
    const next = new Array<Sheet>();
    for (let i = 0; i < cur.length; i++) {
      let freed = false;
      for (let k = 0; k < ch.len; k++) if (ch.get(k) == i) freed = true;
      if (!freed) next.push(unchecked(cur[i]));
    }
    for (let i = 0; i < out.length; i++) next.push(unchecked(out[i]));
    if (this.countPatterns) {
      this.oldObj.patterns = distinctPatterns(cur);
      this.newObj.patterns = distinctPatterns(next);
    }
    const cmp = compareObjectives(this.newObj, this.oldObj);
    if (!this.acceptable(cmp)) return;

    // Accept: swap the freed sheets for the new ones.
    for (let k = 0; k < ch.len; k++) {
      const sh = unchecked(cur[ch.get(k)]);
      sh.addCounts(this.placed, -1);
      unchecked((this.used[sh.stock] -= 1));
    }
    for (let i = 0; i < out.length; i++) {
      const sh = unchecked(out[i]);
      sh.addCounts(this.placed, 1);
      unchecked((this.used[sh.stock] += 1));
    }
    unchecked((this.unplaced[c] -= this.newObj.count - this.oldObj.count));
    this.sheets[c] = next;
    if (cmp < 0 && cmp >= -3) this.improved();
  }
}
