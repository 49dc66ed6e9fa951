// The search: a bottom-left-fill start (largest parts first), then late-acceptance hill
// climbing on swaps and moves of order positions; each candidate rebuilds the layout only
// from the first changed position (the prefix is kept), so moves near the end are cheap. On
// one roll, strip compaction (compact.ts) takes over after a twentieth of the time (at an
// effort limit, after a few order evaluations: compaction gets most of it); on sheets,
// the last sheet's parts are fitted into the earlier sheets to free it (empty-last.ts), then
// each sheet is moved to the smallest stock that takes it (downsize.ts). The order search
// and strip compaction stop at the effort limit or, under the default rule, when they stall
// (work-limit.ts), both deterministic, or at the budget.

import { Budget } from "../../common/clock";
import { Rng, seedFromF64 } from "../../common/rng";
import { Layout } from "../construct/layout";
import { Instance } from "../instance";
import { Compactor, MAX_COMPACT_ITEMS } from "./compact";
import { downsizeSheets } from "./downsize";
import { emptyLastSheets } from "./empty-last";
import { WorkLimit } from "./work-limit";

const HISTORY = 40;
/**
 * One roll at an effort limit: order evaluations and strip compaction sweeps per unit of
 * effort. Compaction is what shortens the strip: at the service's effort (500), 50
 * evaluations and 5,000 sweeps gave 1.9 points more density on the 13 ESICUP strips than
 * 250 and 1,000, in about the same time.
 */
const ROLL_ORDER_PER_EFFORT: f64 = 0.1;
const ROLL_SWEEPS_PER_EFFORT: f64 = 10;

/** Sort keys of the start order (a global: AssemblyScript comparators cannot capture). */
let sortKeys = new Array<f64>(0);
function largerFirst(a: i32, b: i32): i32 {
  const d = sortKeys[b] - sortKeys[a];
  return d > 0 ? 1 : d < 0 ? -1 : a - b;
}

export class Search {
  inst: Instance;
  budget: Budget;
  best: Layout = changetype<Layout>(0);
  bestCost: f64 = Infinity;
  evaluations: i32 = 0;
  timeToBestMs: f64 = 0;
  stoppedByDeadline: bool = false;
  /** Under the stall rule: some phase ran to the rule's hard stop (STALL_CAP effort limits) instead of stalling. */
  hitEffortCap: bool = false;
  compactions: i32 = 0;
  compactionAttempts: i32 = 0;
  itemType: Int32Array;

  constructor(inst: Instance, budget: Budget) {
    this.inst = inst;
    this.budget = budget;
    let n = 0;
    for (let t = 0; t < inst.types.length; t++) n += inst.types[t].q;
    this.itemType = new Int32Array(n);
    let i = 0;
    for (let t = 0; t < inst.types.length; t++) for (let c = 0; c < inst.types[t].q; c++) this.itemType[i++] = t;
    this.best = new Layout(inst, this.itemType);
  }

  run(): void {
    const inst = this.inst;
    const n = this.itemType.length;
    const current = new Layout(inst, this.itemType);
    // Start: largest parts first (their holes then take the small ones), ties by type.
    sortKeys = new Array<f64>(n);
    for (let i = 0; i < n; i++) {
      const type = inst.types[this.itemType[i]];
      sortKeys[i] = type.area + type.shapes[0].holeArea;
    }
    const idx = new Array<i32>(n);
    for (let i = 0; i < n; i++) idx[i] = i;
    idx.sort(largerFirst);
    for (let i = 0; i < n; i++) current.order[i] = idx[i];
    // The first construction always runs to the end, whatever the clock: it is bounded work,
    // and a job must answer with a complete layout (one that places what the stock can take).
    current.rebuildFrom(0);
    current.budget = this.budget;
    let currentCost = current.cost();
    this.evaluations = 1;
    this.keep(current, currentCost);
    if (this.budget.expired()) {
      this.stoppedByDeadline = true;
      return;
    }
    const rng = new Rng(seedFromF64(inst.seed));
    // Share of the time for the order search. One roll: a twentieth, strip compaction the
    // rest; but with an effort limit half, since there the effort ends each phase and time is
    // only the backstop (a twentieth of a job's budget is short enough for a busy machine to
    // cut the order search, and the same request and seed would then give another layout).
    // Sheets keep a tenth of the time for fitting each sheet to the smallest stock that takes it.
    const compactable = inst.roll && n <= MAX_COMPACT_ITEMS && this.best.sheets.length == 1 && this.best.unplaced() == 0;
    const orderShare: f64 = !compactable ? 0.9 : inst.effort > 0 ? 0.5 : 0.05;
    const orderBudget = new Budget((this.budget.deadline - this.budget.start) * orderShare);
    const orderEffort = compactable ? inst.effort * ROLL_ORDER_PER_EFFORT : inst.effort;
    // Reordering copies of one part changes nothing: with a single type there is no order to search.
    if (n >= 2 && inst.types.length >= 2) this.searchOrder(current, currentCost, rng, orderBudget, orderEffort);
    // Judged now: the order phase's own clock keeps running through compaction.
    const orderCutShort = orderBudget.expired();
    if (compactable && this.best.sheets.length == 1 && this.best.unplaced() == 0) {
      const maxSweeps: i64 = inst.effort > 0 ? <i64>(inst.effort * ROLL_SWEEPS_PER_EFFORT) : i64.MAX_VALUE;
      const sweepLimit = new WorkLimit(maxSweeps == i64.MAX_VALUE ? 0 : maxSweeps, inst.stopRule);
      const compactor = new Compactor(this.best, rng, this.budget, sweepLimit.limit);
      compactor.sweepLimit = sweepLimit;
      compactor.run();
      if (compactor.cutByClock) this.stoppedByDeadline = true;
      if (compactor.sweeps >= sweepLimit.limit && sweepLimit.atEffortLimit()) this.hitEffortCap = true;
      this.evaluations += <i32>compactor.sweeps;
      this.compactions = compactor.improved;
      this.compactionAttempts = compactor.attempts;
      if (compactor.improved > 0) {
        this.bestCost = this.best.cost();
        this.timeToBestMs = this.budget.elapsed();
      }
    }
    if (!inst.roll && inst.sheetCompaction && this.best.sheets.length >= 2 && this.best.unplaced() == 0) {
      // Most of the time left (downsizing needs little), the same effort limit as strip compaction.
      const left = this.budget.deadline - this.budget.start - this.budget.elapsed();
      const maxSweeps: i64 = inst.effort > 0 ? <i64>(inst.effort * 2) : i64.MAX_VALUE;
      const before = this.best.sheets.length;
      const emptyBudget = new Budget(left * 0.8);
      this.evaluations += <i32>emptyLastSheets(this.best, rng, emptyBudget, maxSweeps);
      if (emptyBudget.expired()) this.stoppedByDeadline = true;
      this.compactions = before - this.best.sheets.length;
      if (this.compactions > 0) {
        this.bestCost = this.best.cost();
        this.timeToBestMs = this.budget.elapsed();
      }
    }
    if (orderCutShort) this.stoppedByDeadline = true;
    downsizeSheets(this.best, this.budget);
    // Judged last: downsizing also stops at the deadline.
    if (this.budget.expired()) this.stoppedByDeadline = true;
  }

  private searchOrder(current: Layout, currentCost: f64, rng: Rng, budget: Budget, effort: f64): void {
    const inst = this.inst;
    const n = this.itemType.length;
    const history = new Float64Array(HISTORY);
    for (let h = 0; h < HISTORY; h++) history[h] = currentCost;
    let candidate = new Layout(inst, this.itemType);
    candidate.budget = this.budget;
    let cur = current;
    const limit = new WorkLimit(<i64>Math.ceil(effort), inst.stopRule);
    while (true) {
      if (limit.reached(this.evaluations)) {
        if (limit.atEffortLimit()) this.hitEffortCap = true;
        break;
      }
      if (budget.expired()) break;
      candidate.copyFrom(cur);
      const from = this.mutate(candidate, rng);
      if (from < 0) {
        // A move that changes nothing still counts as effort, so the limit always ends the search.
        this.evaluations++;
        continue;
      }
      candidate.rebuildFrom(from);
      const cost = candidate.cost();
      const slot = this.evaluations % HISTORY;
      this.evaluations++;
      if (cost <= currentCost || cost < history[slot]) {
        const t = cur;
        cur = candidate;
        candidate = t;
        currentCost = cost;
        if (cost < this.bestCost) {
          this.keep(cur, cost);
          limit.improved(this.evaluations);
        }
      }
      if (currentCost < history[slot]) history[slot] = currentCost;
    }
  }

  /** Swaps two positions of different types, or moves one earlier; returns the first changed position. */
  private mutate(l: Layout, rng: Rng): i32 {
    const n = l.order.length;
    const i = rng.int(n);
    const j = rng.int(n);
    if (i == j) return -1;
    const a = i < j ? i : j;
    const b = i < j ? j : i;
    if (this.itemType[l.order[a]] == this.itemType[l.order[b]]) return -1;
    if (rng.int(2) == 0) {
      const t = l.order[a];
      l.order[a] = l.order[b];
      l.order[b] = t;
    } else {
      // Move the item at b to a, shifting the ones between back by one.
      const t = l.order[b];
      for (let k = b; k > a; k--) l.order[k] = l.order[k - 1];
      l.order[a] = t;
    }
    return a;
  }

  private keep(l: Layout, cost: f64): void {
    this.best.copyFrom(l);
    this.bestCost = cost;
    this.timeToBestMs = this.budget.elapsed();
  }
}
