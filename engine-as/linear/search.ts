// Long (over 400 lines) because the dive, its bounds and its completions share one search state and its LP basis; split, each would pass that state around.
// The search: bounds, greedy plans (best fit decreasing, minimum bin slack), the root LP
// bound (started from the best greedy plan's patterns), then turns of branch-and-price dives
// and bar elimination (improve.ts). A dive is a depth-first search over fixed patterns that
// backtracks (limited discrepancy, the k-th dive allowing k): each node re-solves the
// residual LP from its parent's basis, is abandoned when its fixed cost plus the rounded-up
// LP bound cannot beat the best plan, and fixes patterns the LP uses (see dive()). Every
// node is also completed by best fit into a full plan, and once few pieces are left, by an
// exact repacking of them (repack.ts) into one bar fewer than the best plan needs: rounding
// the LP gets most bars right, the last few need search. A plan whose objective meets the
// lower bound is proven optimal and ends the search; a last pass then looks for the same
// objective with fewer distinct patterns.

import { Instance } from "./instance";
import { Bar, Plan } from "./plan";
import { Master, BasisCopy, LP_BOUNDED, LP_INFEASIBLE, LP_OPTIMAL, LP_STOPPED } from "./master";
import { bestFitDecreasing, sizeOrder, MinSlack } from "./heuristic";
import { cheapBound, roundBound } from "./bounds";
import { BarEmptier } from "./improve";
import { Repacker } from "./repack";
import { Prover, PROOF_FOUND, PROOF_PROVEN } from "./prove";
import { ReducedCostCover, RC_FOUND, RC_EXHAUSTED, RC_GAVE_UP, RC_WORK_PER_PIVOT, RC_TILTS, RC_TILT } from "./rc-cover";
import { Rng, seedFromF64 } from "../common/rng";
import { Budget, now } from "../common/clock";

const MAX_STALE_DIVES: i32 = 200;
const MAX_LP_ROWS: i32 = 1500;
const SLACK_RESIDUAL: i32 = 60;
/** Estimated cost of one basis refactorisation per m^3, and the share of the budget it may take. */
const REFACTOR_MS_PER_M3: f64 = 1.5e-6;
const REFACTOR_BUDGET_SHARE: f64 = 0.1;
/** Share of the budget the root LP may take. */
const ROOT_LP_SHARE: f64 = 0.5;
/** Patterns a dive node may branch on. */
const DIVE_CANDIDATES: i32 = 12;
/** What re-solving a dive node's LP found. */
const NODE_OPEN: i32 = 0;
const NODE_PRUNED: i32 = 1;
const NODE_LEAF: i32 = 2;
const NODE_STOP: i32 = 3;
/**
 * Bar elimination effort after the root LP and per later turn, in swap candidates looked at
 * (a few ns each): counted, not timed, so that a run that ends before the budget does not
 * depend on the clock.
 */
const FIRST_ELIMINATION_WORK: f64 = 2e6;
const ELIMINATION_WORK: f64 = 1e6;
/** Exact repacking of a dive's residual: at most this many pieces, and nodes per try. */
const REPACK_PIECES: i32 = 60;
const REPACK_NODES: f64 = 5e4;
/**
 * The proof that one bar fewer is impossible: at most this many pieces; its first run after
 * this many dives, with this many tree nodes, each later run after twice the dives and with
 * twice the nodes of the last (the dives keep most of the budget, and the effort is counted,
 * not timed); knapsack nodes of its pricing in all.
 */
const PROOF_PIECES: i32 = 400;
const PROOF_FIRST_DIVES: i32 = 4;
const PROOF_FIRST_NODES: i32 = 32;
const PROOF_PRICING_NODES: f64 = 1e9;
/**
 * The cover by patterns of small reduced cost (rc-cover.ts) after the root LP: only when the
 * LP bound is within this much of the bar count sought, with at most this many patterns, and
 * this much work (pattern checks), counted as pivots at RC_WORK_PER_PIVOT checks per pivot
 * (about the CPU of one pivot of a Hard28 root LP).
 */
const RC_COVER_GAP: f64 = 0.05;
const RC_COVER_PATTERNS: i32 = 1500;
const RC_COVER_WORK: f64 = 1.5e7;
/** Work of the LP probe (rc-probe.ts) and the second search, after a first search gave up. */
const RC_PROBE_WORK: f64 = 8e7;
/** Pivots that finishing the root LP for its duals may take (a degenerate tail can stall). */
const RC_COVER_LP_PIVOTS: i32 = 10000;

export class Search {
  inst: Instance;
  budget: Budget;
  master: Master;
  order: Int32Array;
  best: Plan | null = null;
  lowerBound: f64 = 0;
  lpValue: f64 = -1;
  timeToBest: f64 = 0;
  dives: i32 = 0;
  /** Time the root LP took (ms), -1 when it was not solved. */
  rootMs: f64 = -1;
  rootPivots: i32 = 0;
  /** The deadline ended a step (run() sees it), or the root LP's share of the clock ran out. */
  stoppedByDeadline: bool = false;
  /** The search went on past its stall because the job asked for a longer search. */
  wentOnPastStall: bool = false;
  // Scratch for a dive.
  dr: Int32Array;
  qr: Int32Array;
  minSlack: MinSlack;
  emptier: BarEmptier;
  repacker: Repacker;
  // Dive scratch: the branching candidates of a node, and the patterns barred in this pass.
  cand: Int32Array = new Int32Array(DIVE_CANDIDATES);
  candCopies: Int32Array = new Int32Array(DIVE_CANDIDATES);
  candScore: Float64Array = new Float64Array(DIVE_CANDIDATES);
  tabu: Array<i32> = new Array<i32>();
  /** Saved bases of the dive's open nodes, one per depth, reused from node to node. */
  bases: Array<BasisCopy> = new Array<BasisCopy>();
  depth: i32 = 0;
  /** This pass still rounds down all whole patterns at once (until that first fails). */
  probing: bool = true;
  /** Minimum bin slack costs nodes per bar: used below a size where it stays cheap. */
  useMinSlack: bool;
  prover: Prover | null = null;
  /** Tree nodes the next run of the proof may take, and the dives before it. */
  proofBudget: i32 = PROOF_FIRST_NODES;
  proofAfterDives: i32 = PROOF_FIRST_DIVES;
  proofNodes: i32 = 0;
  proofPivots: i32 = 0;
  coverNodes: i32 = 0;

  constructor(inst: Instance, budget: Budget) {
    this.inst = inst;
    this.budget = budget;
    this.master = new Master(inst);
    this.emptier = new BarEmptier(inst, new Rng(seedFromF64(inst.seed)));
    this.repacker = new Repacker(inst);
    const order = sizeOrder(inst);
    this.order = order;
    this.dr = new Int32Array(inst.nI);
    this.qr = new Int32Array(inst.nT);
    this.minSlack = new MinSlack(inst, order);
    let pieces: i64 = 0;
    for (let i = 0; i < inst.nI; i++) pieces += inst.dem[i];
    this.useMinSlack = pieces <= 5000;
  }

  optimal(): bool {
    const b = this.best;
    if (b === null || b.unplaced > 0) return false;
    return b.objective <= this.lowerBound + 1e-9 * Math.max(1.0, this.lowerBound);
  }

  /** The job's effort limit (LP pivots) is used up: a stop that does not depend on the clock. */
  private effortSpent(): bool {
    return this.inst.effort > 0 && <f64>this.master.pivots >= this.inst.effort;
  }

  private offer(p: Plan): void {
    p.finish(this.inst);
    if (p.better(this.best, this.inst)) {
      this.best = p;
      this.timeToBest = this.budget.elapsed();
    }
  }

  /** Fixed bars plus best fit (and, with `slack`, minimum bin slack) on what is left of dr and qr. */
  private complete(fixed: Array<Bar>, smallest: bool, slack: bool = true): void {
    const p = new Plan();
    for (let k = 0; k < fixed.length; k++) p.bars.push(fixed[k].clone());
    const dr = new Int32Array(this.inst.nI);
    const qr = new Int32Array(this.inst.nT);
    dr.set(this.dr);
    qr.set(this.qr);
    bestFitDecreasing(this.inst, dr, qr, this.order, p.bars, smallest);
    this.offer(p);
    if (slack && this.useMinSlack) {
      const p2 = new Plan();
      for (let k = 0; k < fixed.length; k++) p2.bars.push(fixed[k].clone());
      dr.set(this.dr);
      qr.set(this.qr);
      this.minSlack.run(dr, qr, p2.bars, smallest, this.budget.deadline);
      this.offer(p2);
    }
  }

  run(): void {
    this.searchPlans();
    if (!this.budget.expired() && this.best!.patterns > 1) this.reducePatterns();
    // Whatever the deadline ended (a dive, the proof, the set-ups above), the plan depends on the clock.
    if (this.budget.expired()) this.stoppedByDeadline = true;
  }

  /**
   * MAX_STALE_DIVES turns in a row found nothing better: the search ends, unless the job asked
   * to search for longer (inst.searchMs): then it goes on until that time, and its plan
   * depends on the clock (wentOnPastStall).
   */
  private stalled(stale: i32): bool {
    if (stale < MAX_STALE_DIVES) return false;
    if (this.budget.elapsed() < this.inst.searchMs) {
      this.wentOnPastStall = true;
      return false;
    }
    return true;
  }

  /**
   * Fewer saw set-ups for the same objective: repeats the best plan's patterns as often as
   * the demand allows (in three orders), completes the rest greedily, and keeps the result
   * when it has the same objective and fewer distinct patterns (Plan.better decides, so the
   * objective never gets worse).
   */
  private reducePatterns(): void {
    const start = this.best!;
    if (start.unplaced > 0) return;
    // Bars are sorted with identical patterns adjacent.
    const reps = new Array<Bar>();
    const stack = new Array<i32>();
    for (let b = 0; b < start.bars.length; b++) {
      if (b == 0 || !start.bars[b].samePattern(start.bars[b - 1])) {
        reps.push(start.bars[b]);
        stack.push(1);
      } else stack[stack.length - 1]++;
    }
    // Orders: the plan's most used patterns first, the most repeatable, the fullest.
    for (let variant = 0; variant < 3; variant++) {
      this.resetResidual();
      const fixed = new Array<Bar>();
      const used = new Uint8Array(reps.length);
      let pick: i32 = 0;
      while (pick >= 0) {
        pick = -1;
        let most: f64 = 0;
        for (let r = 0; r < reps.length; r++) {
          if (used[r] != 0) continue;
          const c = this.copies(reps[r]);
          const score = variant == 0 ? <f64>stack[r] + 1e-9 * reps[r].load : variant == 1 ? <f64>c : <f64>c * reps[r].load;
          if (c > 0 && score > most) {
            most = score;
            pick = r;
          }
        }
        if (pick < 0 || this.budget.expired()) break;
        used[pick] = 1;
        const bar = reps[pick];
        const c = this.copies(bar);
        for (let k = 0; k < c; k++) {
          fixed.push(bar.clone());
          for (let j = 0; j < bar.n; j++) this.dr[bar.items[j]]--;
          if (this.qr[bar.t] > 0) this.qr[bar.t]--;
        }
      }
      this.complete(fixed, this.inst.smallest);
      if (this.budget.expired()) return;
    }
  }

  /** How many more bars of this pattern the residual demand and stock allow. */
  private copies(bar: Bar): i32 {
    let c: i32 = this.qr[bar.t] < 0 ? 2147483647 : this.qr[bar.t];
    let j: i32 = 0;
    // Items are sorted, so copies of one item are adjacent.
    while (j < bar.n) {
      const i = bar.items[j];
      let e = j + 1;
      while (e < bar.n && bar.items[e] == i) e++;
      const k = this.dr[i] / (e - j);
      if (k < c) c = k;
      j = e;
    }
    return c;
  }

  private searchPlans(): void {
    const inst = this.inst;
    this.lowerBound = roundBound(inst, cheapBound(inst));
    this.resetResidual();
    this.complete(new Array<Bar>(), inst.smallest);
    if (this.budget.expired()) return;
    this.complete(new Array<Bar>(), !inst.smallest);
    if (this.optimal()) return;

    // The LP keeps a dense m x m basis inverse: beyond this many demanded item types the
    // run stays with the greedy plans, bar elimination and the cheap bounds.
    let demanded: i32 = 0;
    for (let i = 0; i < inst.nI; i++) if (inst.dem[i] > 0) demanded++;
    // A refactorisation of the basis costs about m^3 operations in one piece, between two
    // deadline checks: skip the LP when one would take a sizeable share of the budget.
    const refactorMs = <f64>demanded * <f64>demanded * <f64>demanded * REFACTOR_MS_PER_M3;
    if (demanded > MAX_LP_ROWS || refactorMs > inst.budgetMs * REFACTOR_BUDGET_SHARE) {
      // No LP: bar elimination alone, until it stalls or the budget ends.
      this.eliminate(FIRST_ELIMINATION_WORK);
      let stale: i32 = 0;
      while (!this.optimal() && !this.stalled(stale) && !this.budget.expired()) {
        const before = this.best;
        this.eliminate(ELIMINATION_WORK);
        stale = this.best === before ? stale + 1 : 0;
      }
      return;
    }
    const seedPlan = this.best!;
    const nb = seedPlan.bars.length;
    const types = new Int32Array(nb);
    const starts = new Int32Array(nb + 1);
    let total: i32 = 0;
    for (let b = 0; b < nb; b++) total += seedPlan.bars[b].n;
    const items = new Int32Array(total);
    for (let b = 0; b < nb; b++) {
      const bar = seedPlan.bars[b];
      types[b] = bar.t;
      starts[b + 1] = starts[b] + bar.n;
      for (let k = 0; k < bar.n; k++) items[starts[b] + k] = bar.items[k];
    }
    // Unplaced pieces (short stock) make every plan's objective incomparable to the bound.
    this.master.target = seedPlan.unplaced == 0 ? seedPlan.objective : Infinity;
    // The root LP gets at most part of the budget: its bound so far stays valid, and the plan
    // searches need time too. A root cut short makes the run depend on the clock.
    const rootDeadline = this.budget.start + (this.budget.deadline - this.budget.start) * ROOT_LP_SHARE;
    const st = this.master.solveFrom(types, starts, items, nb, inst.dem, inst.qty, rootDeadline);
    if (st == LP_STOPPED && now() >= rootDeadline) this.stoppedByDeadline = true;

    if (st != LP_INFEASIBLE) {
      this.rootPivots = this.master.pivots;
      this.raiseBound(st);
    }
    if (this.optimal()) return;
    if (st == LP_OPTIMAL || st == LP_BOUNDED) this.coverByReducedCost();
    // Bar elimination next: cheap, and it often closes the gap on its own.
    if (this.optimal()) return;
    this.eliminate(FIRST_ELIMINATION_WORK);
    // Dives until proven, out of time, or this many dives in a row found nothing better (a
    // deterministic end, so a result does not depend on the machine when the budget is ample).
    let stale: i32 = 0;
    let round: i32 = 0;
    while (!this.optimal() && !this.stalled(stale) && !this.effortSpent() && !this.budget.expired()) {
      const before = this.best;
      // Dives alternate with turns of bar elimination from the best plan.
      if ((round++ & 1) == 1) {
        this.eliminate(ELIMINATION_WORK);
        if (this.prove()) break;
      }
      else if (this.dive(this.dives++)) break;
      stale = this.best === before ? stale + 1 : 0;
    }
  }

  /**
   * A plan of as many bars as the LP bound allows, from the patterns whose reduced cost at
   * the root duals fits in the gap (rc-cover.ts): exact, and effective where the LP bound is
   * within a thousandth of a bar of the optimum and the dives stall (Hard28 BPP181, 766); or,
   * when its search ends without one, the proof that the bound is a bar higher (BPP119).
   */
  private coverByReducedCost(): void {
    const inst = this.inst;
    const best = this.best!;
    if (inst.nT != 1 || !inst.integral || best.unplaced > 0) return;
    const w = inst.weight[0];
    if (w <= 0) return;
    const k = <i32>Math.ceil(this.lowerBound / w - 1e-9);
    if (k >= best.bars.length || (inst.qty[0] >= 0 && inst.qty[0] < k)) return;
    const mp = this.master;
    // The root LP stops once its bound rounds up to k: finish it for optimal duals, then put
    // the root basis and column pool back, so the dives start where they did.
    const root = mp.saveBasis();
    const pool = mp.poolSize;
    const st = mp.solveToOptimum(inst.dem, inst.qty, this.budget.deadline, RC_COVER_LP_PIVOTS);
    const duals = new Float64Array(inst.nI);
    for (let r = 0; r < mp.m; r++) duals[mp.rowItem[r]] = mp.y[r];
    mp.restoreBasis(root);
    mp.truncatePool(pool);
    if (st != LP_OPTIMAL) return;
    const rc = new ReducedCostCover(inst);
    rc.deadline = this.budget.deadline;
    const work = this.coverWork();
    if (work <= 0) return;
    let answer = rc.run(duals, 0, k, RC_COVER_GAP, RC_COVER_PATTERNS, work, RC_COVER_WORK);
    mp.pivots += <i32>Math.ceil(rc.work / RC_WORK_PER_PIVOT);
    if (answer == RC_GAVE_UP && rc.capped) {
      // Too many patterns at this dual vertex (a degenerate LP): other optimal duals, from
      // re-solves with the demands tilted, leave only the patterns within the gap at all.
      // The re-solves' pivots count against the effort limit too.
      const effortLeft = inst.effort > 0 ? inst.effort - <f64>mp.pivots : Infinity;
      const tiltPivots = <i32>Math.min(<f64>(RC_TILTS * RC_COVER_LP_PIVOTS), effortLeft);
      const others = mp.tiltedDuals(inst.dem, inst.qty, RC_TILTS, RC_TILT, this.budget.deadline, tiltPivots);
      const work2 = this.coverWork();
      if (others.length > 0 && work2 > 0) {
        answer = rc.run(duals, 0, k, RC_COVER_GAP, RC_COVER_PATTERNS, work2, RC_COVER_WORK, others);
        mp.pivots += <i32>Math.ceil(rc.work / RC_WORK_PER_PIVOT);
      }
    }
    this.coverNodes = rc.nodes;
    if (answer == RC_EXHAUSTED) {
      // No plan of k bars: the bound rises to k + 1 bars.
      const lb = <f64>(k + 1) * w;
      if (lb > this.lowerBound) this.lowerBound = lb;
      return;
    }
    if (answer != RC_FOUND) return;
    const p = new Plan();
    for (let b = 0; b < rc.bars.length; b++) p.bars.push(rc.bars[b]);
    this.offer(p);
  }

  /** Work a run of the cover may take: its cap, and no more than the effort left. */
  private coverWork(): f64 {
    const most = RC_COVER_WORK + RC_PROBE_WORK;
    const effort = this.inst.effort;
    return effort > 0 ? Math.min(most, (effort - <f64>this.master.pivots) * RC_WORK_PER_PIVOT) : most;
  }

  /**
   * When the best plan is one bar above the bound, a branch-and-price proof that one bar
   * fewer is impossible (prove.ts): it raises the bound to the plan, or finds the plan with
   * one bar fewer. Each run starts over with twice the nodes of the last, after twice the
   * dives; true when the plan is then optimal.
   */
  private prove(): bool {
    const inst = this.inst;
    const best = this.best!;
    if (this.dives < this.proofAfterDives || inst.nT != 1 || !inst.integral || best.unplaced > 0 || this.budget.expired()) return false;
    const w = inst.weight[0];
    const bars = best.bars.length;
    if (Math.abs(best.objective - this.lowerBound - w) > 1e-9 * Math.max(1.0, best.objective)) return false;
    if (inst.qty[0] >= 0 && inst.qty[0] < bars - 1) return false;
    const pieces = Prover.pieces(inst);
    if (pieces > PROOF_PIECES) return false;
    if (this.prover === null) this.prover = this.newProver(pieces);
    const pr = this.prover!;
    const st = pr.run(best.bars, bars - 1, this.proofBudget, PROOF_PRICING_NODES, this.budget.deadline);
    if (this.proofBudget < (1 << 29)) {
      this.proofBudget *= 2;
      this.proofAfterDives *= 2;
    }
    // The proof's pivots count with the LP's (the iterations users see).
    this.master.pivots += pr.pivots - this.proofPivots;
    this.proofPivots = pr.pivots;
    this.proofNodes = pr.nodes;
    if (st == PROOF_PROVEN) this.lowerBound = best.objective;
    else if (st == PROOF_FOUND) {
      const p = new Plan();
      for (let k = 0; k < pr.found.length; k++) p.bars.push(pr.found[k]);
      this.offer(p);
    }
    return this.optimal();
  }

  /** The proof's prover, its column pool started with the LP's patterns. */
  private newProver(pieces: i32): Prover {
    const pr = new Prover(this.inst, 0, pieces);
    pr.seedFromPool(this.master);
    return pr;
  }

  /** Bar elimination from the best plan when it uses one stock row; offers what it finds. */
  private eliminate(work: f64): void {
    const best = this.best!;
    if (!this.emptier.applicable(best)) return;
    const w = this.inst.weight[best.bars[0].t];
    // Fewest bars the lower bound allows (bars x weight >= bound).
    const goal = w > 0 ? <i32>Math.ceil(this.lowerBound / w - 1e-9) : 0;
    if (best.bars.length <= goal) return;
    const p = this.emptier.run(best, goal, this.budget.deadline, work);
    if (p !== null) this.offer(p);
  }

  /** The dive's residual packed exactly into bars enough to beat the best plan, when small. */
  private repackResidual(fixed: Array<Bar>): void {
    const best = this.best!;
    if (best.unplaced > 0 || !this.emptier.applicable(best)) return;
    const t = best.bars[0].t;
    for (let k = 0; k < fixed.length; k++) if (fixed[k].t != t) return;
    const rp = this.repacker;
    rp.reset();
    for (let i = 0; i < this.inst.nI; i++) {
      if (rp.n + this.dr[i] > REPACK_PIECES) return;
      for (let c = 0; c < this.dr[i]; c++) rp.add(i);
    }
    if (rp.n == 0) return;
    const packed = rp.solve(t, best.bars.length - 1 - fixed.length, REPACK_NODES, this.budget.deadline);
    if (packed === null) return;
    const p = new Plan();
    for (let k = 0; k < fixed.length; k++) p.bars.push(fixed[k].clone());
    for (let k = 0; k < packed.length; k++) p.bars.push(packed[k]);
    this.offer(p);
  }

  private resetResidual(): void {
    this.dr.set(this.inst.dem);
    this.qr.set(this.inst.qty);
  }

  private fixedObjective(fixed: Array<Bar>): f64 {
    let v: f64 = 0;
    for (let k = 0; k < fixed.length; k++) v += this.inst.weight[fixed[k].t];
    return v;
  }

  /** Cuts `copies` bars of pattern p, capped by the demand left and the stock left. */
  private fix(p: i32, copies: i32, fixed: Array<Bar>): i32 {
    const inst = this.inst;
    const mp = this.master;
    const t = mp.patType.data[p];
    let done: i32 = 0;
    for (let c = 0; c < copies; c++) {
      if (this.qr[t] == 0) break;
      const bar = new Bar(t);
      const e = mp.patStart.data[p + 1];
      for (let a = mp.patStart.data[p]; a < e; a++) {
        const i = mp.patItem.data[a];
        let n = mp.patCnt.data[a];
        if (n > this.dr[i]) n = this.dr[i];
        for (let k = 0; k < n; k++) bar.add(i, inst.size[i]);
        this.dr[i] -= n;
      }
      // Capping left room (and the LP's exchanges let a long piece stand for a shorter one,
      // so a pattern may even have none of its own pieces left): fill it with the longest
      // pieces still wanted that fit.
      for (let o = 0; o < this.order.length; o++) {
        const i = this.order[o];
        if (this.dr[i] == 0 || !inst.ok(i, t)) continue;
        while (this.dr[i] > 0 && bar.load + inst.size[i] <= inst.cap[t] + inst.eps) {
          bar.add(i, inst.size[i]);
          this.dr[i]--;
        }
      }
      if (bar.n == 0) break;
      if (this.qr[t] > 0) this.qr[t]--;
      fixed.push(bar);
      done++;
    }
    return done;
  }

  /**
   * One pass of the dive, a depth-first search over fixed patterns that backtracks: a node
   * re-solves the residual LP and is abandoned when its fixed bars plus the rounded-up LP
   * bound cannot beat the best plan. It first tries rounding down every pattern the LP uses
   * at least once (cheap, and kept while the bound still allows a better plan; on instances
   * with little slack it soon does not, and the pass stops trying); otherwise it branches on
   * one pattern at a time, the one closest to a whole value first, the next ones only while
   * the pass's discrepancy allows, with the patterns already tried barred from its later
   * siblings (so they look elsewhere).
   * Pass k allows k discrepancies (limited discrepancy search). Returns true to stop.
   */
  private dive(maxDiscrepancy: i32): bool {
    this.resetResidual();
    this.tabu.length = 0;
    this.probing = true;
    this.depth = 0;
    // Start from the last dive's first node (the whole job, solved): its rows cover the job.
    if (this.bases.length > 0) this.master.restoreBasis(this.bases[0]);
    return this.descend(new Array<Bar>(), maxDiscrepancy);
  }

  private descend(fixed: Array<Bar>, discrepancy: i32): bool {
    let st = this.solveNode(fixed);
    for (;;) {
      if (st == NODE_STOP) return true;
      if (st == NODE_LEAF) return this.optimal();
      if (st == NODE_PRUNED) return false;
      if (this.completeNode(fixed)) return true;
      const nc = this.candidates();
      const mark = this.save(fixed);
      // Siblings start the LP from this node's basis: re-solving from deep in the subtree
      // just left would take many more pivots.
      let basis: BasisCopy | null = null;
      if (discrepancy > 0 || this.probing) {
        if (this.bases.length <= this.depth) this.bases.push(new BasisCopy());
        basis = this.master.saveBasis(this.bases[this.depth]);
      }
      if (this.probing && this.roundDown(fixed) > 0) {
        st = this.solveNode(fixed);
        if (st != NODE_PRUNED) continue;
        // Rounding down lost too much here: branch one pattern at a time from now on.
        this.probing = false;
        this.restore(mark, fixed);
        this.master.restoreBasis(basis!);
      }
      const cand = new Int32Array(nc);
      const copies = new Int32Array(nc);
      for (let c = 0; c < nc; c++) {
        cand[c] = this.cand[c];
        copies[c] = this.candCopies[c];
      }
      const tabuMark = this.tabu.length;
      for (let c = 0; c < nc && c <= discrepancy; c++) {
        if (c > 0) this.master.restoreBasis(basis!);
        if (this.fix(cand[c], copies[c], fixed) > 0) {
          this.depth++;
          const stop = this.descend(fixed, discrepancy - c);
          this.depth--;
          if (stop) return true;
        }
        this.restore(mark, fixed);
        this.tabu.push(cand[c]);
      }
      this.tabu.length = tabuMark;
      return false;
    }
  }

  /** Re-solves the residual LP of a node (or completes a node with nothing left). */
  private solveNode(fixed: Array<Bar>): i32 {
    const inst = this.inst;
    const mp = this.master;
    let left: i32 = 0;
    for (let i = 0; i < inst.nI; i++) left += this.dr[i];
    if (left == 0) {
      this.complete(fixed, inst.smallest, false);
      return NODE_LEAF;
    }
    const fixedObj = this.fixedObjective(fixed);
    const best = this.best!;
    mp.target = best.unplaced == 0 ? best.objective - fixedObj : Infinity;
    const st = mp.resolve(this.dr, this.qr, this.budget.deadline);
    // A dive's first node is the whole job: its bound holds for the job, and re-solving it
    // finishes a root LP that its share of the budget cut short.
    if (fixed.length == 0 && st != LP_INFEASIBLE) this.raiseBound(st);
    if (this.budget.expired() || this.effortSpent()) return NODE_STOP;
    if (st == LP_INFEASIBLE) {
      // Short stock: what is left goes in greedily.
      this.complete(fixed, inst.smallest);
      return NODE_LEAF;
    }
    if (best.unplaced == 0 && fixedObj + roundBound(inst, mp.bound) >= best.objective - 1e-9 * Math.max(1.0, best.objective)) return NODE_PRUNED;
    return NODE_OPEN;
  }

  /**
   * Takes the bound of an LP over the whole job (the root, or a dive's first node), and the
   * first time it is solved (or bounded past the best plan) its value and time.
   */
  private raiseBound(st: i32): void {
    const lb = roundBound(this.inst, this.master.bound);
    if (lb > this.lowerBound) this.lowerBound = lb;
    if (st == LP_OPTIMAL && this.lpValue < 0) this.lpValue = this.master.value;
    if ((st == LP_OPTIMAL || st == LP_BOUNDED) && this.rootMs < 0) this.rootMs = this.budget.elapsed();
  }

  /** Completes an open node greedily (and exactly when little is left); true once optimal. */
  private completeNode(fixed: Array<Bar>): bool {
    let left: i32 = 0;
    for (let i = 0; i < this.inst.nI; i++) left += this.dr[i];
    // Minimum bin slack only on a small residual: there it is cheap and often exact.
    this.complete(fixed, this.inst.smallest, left <= SLACK_RESIDUAL);
    if (this.optimal()) return true;
    if (left <= REPACK_PIECES) this.repackResidual(fixed);
    return this.optimal();
  }

  /**
   * The LP's patterns to branch on, into cand/candCopies: those not barred, the one whose
   * value is closest to a whole number of bars first (fixed at that number).
   */
  private candidates(): i32 {
    const mp = this.master;
    let nc: i32 = 0;
    const cand = this.cand;
    const copies = this.candCopies;
    const score = this.candScore;
    for (let r = 0; r < mp.m; r++) {
      const p = mp.basis[r];
      const x = mp.xB[r];
      if (p < 0 || x <= 1e-5 || this.tabu.includes(p)) continue;
      const whole = Math.max(1.0, Math.round(x));
      const sc = Math.abs(x - whole);
      let pos = nc < DIVE_CANDIDATES ? nc++ : DIVE_CANDIDATES;
      while (pos > 0 && score[pos - 1] > sc) {
        if (pos < DIVE_CANDIDATES) { cand[pos] = cand[pos - 1]; copies[pos] = copies[pos - 1]; score[pos] = score[pos - 1]; }
        pos--;
      }
      if (pos < DIVE_CANDIDATES) { cand[pos] = p; copies[pos] = <i32>whole; score[pos] = sc; }
    }
    return nc;
  }

  /** Fixes the whole part of every pattern the LP uses at least once; returns the bars fixed. */
  private roundDown(fixed: Array<Bar>): i32 {
    const mp = this.master;
    let done: i32 = 0;
    for (let r = 0; r < mp.m; r++) {
      const p = mp.basis[r];
      const x = mp.xB[r];
      if (p < 0 || x < 1.0 - 1e-6 || this.tabu.includes(p)) continue;
      done += this.fix(p, <i32>Math.floor(x + 1e-6), fixed);
    }
    return done;
  }

  private save(fixed: Array<Bar>): NodeMark {
    return new NodeMark(this.dr, this.qr, fixed.length);
  }

  private restore(mark: NodeMark, fixed: Array<Bar>): void {
    this.dr.set(mark.dr);
    this.qr.set(mark.qr);
    fixed.length = mark.fixed;
  }
}

/** A node's residual demand, stock and fixed bars, to come back to after a child. */
class NodeMark {
  dr: Int32Array;
  qr: Int32Array;
  fixed: i32;
  constructor(dr: Int32Array, qr: Int32Array, fixed: i32) {
    this.dr = dr.slice();
    this.qr = qr.slice();
    this.fixed = fixed;
  }
}
