// Anytime improvement of one component's solution: the guillotine side of SheetSearch
// (sheet-search.ts, whose loop and destroy-and-repack bookkeeping the free packer shares).
//
// 1. A few full constructions with fixed genomes (orderings x orientations x look-ahead).
// 2. Sheet reduction (one stock type): work on the best solution less its emptiest sheet,
//    whose parts are left over; each move frees a few sheets and re-packs their parts and
//    the leftovers onto at most as many sheets with a randomly shaped genome, kept by late
//    acceptance on the part area placed. When nothing is left over, that solution is the new
//    best and the next reduction starts from it. Well-filled sheets the moves produce go to
//    a pattern pool (sheets/pattern-pool.ts); some moves start their freed sheets with the
//    best set of pool patterns made of the freed and left-over parts, others with the best
//    single sheets of those parts (sheet-pattern.ts, a branch and bound).
// 3. Otherwise (several stock types, strategy 'time'), large-neighbourhood search on the
//    best itself: free a handful of sheets, re-pack their parts plus any unplaced ones, and
//    keep the result when the objective is not worse. Accepting ties that concentrate waste
//    (higher sum of squared fills) drifts parts off the weakest sheet until it can be
//    dropped. Now and then a full randomised construction adds diversity.
//
// The loop stops by the rules of sheet-search.ts improve: effort (fit-index visits, scaled
// to the cost of one construction), stall, the component's deadline, or the lower bound.
// Only the deadlines make a run depend on the machine.

import { Instance } from "../sheets/instance";
import { Constructor, ABORTED } from "./construct";
import { Genome, shapeGenome, RULES, ORIENT_RANDOM } from "./genome";
import { Sheet } from "../sheets/solution";
import { Budget } from "../common/clock";
import { fitVisits } from "./fitindex";
import { SheetSearch } from "../sheets/sheet-search";
import { PatternPool } from "../sheets/pattern-pool";
import { SheetPattern } from "./sheet-pattern";
import { AXIS_X } from "../sheets/instance";
import { F64Vec } from "../common/arrays";

const NOISE_LEVELS: StaticArray<f64> = [0.0, 0.03, 0.1, 0.3];
const LOOKAHEADS: StaticArray<i32> = [1, 2, 4, 8];
const STRIP_TRIES: StaticArray<i32> = [1, 2, 4, 8];
const STACK_TRIES: StaticArray<i32> = [1, 2, 4, 8];
/** Share of random genomes whose stacks are filled by the knapsack (see Filler.dpStack). */
const DP_SHARE: f64 = 0.2;
/** Share of random genomes that also try wide bands. */
const WIDE_SHARE: f64 = 0.3;
/**
 * Effort weight of a component where sheet reduction applies: it keeps finding sheets long
 * after the fixed effort (classes 1-10, n = 100, 3NHO: 2356 sheets at 2, 2354 at 4, 2351 at 6,
 * median job 0.43 s at 6), and a sheet costs more than the compute.
 */
const REDUCE_EFFORT: f64 = 6.0;
/** Moves back a reduction move may compare with (late acceptance). */
const LATE_HISTORY: i32 = 50;
/** Patterns kept for recombination (see pattern-pool.ts), and how far below the best solution's mean fill they may be. */
const POOL_CAP: i32 = 1024;
const POOL_FILL_MARGIN: f64 = 0.02;
/** Share of reduction moves whose freed sheets start with pool patterns (PatternPool.takeBestCover). */
const POOL_SEED_SHARE: f64 = 0.3;
/** Share of reduction moves whose freed sheets, all but one, are the best single sheets of the freed and left-over parts (sheet-pattern.ts). */
const PATTERN_SHARE: f64 = 0.1;
/** Branch-and-bound nodes per such sheet. */
const PATTERN_NODES: i32 = 500;
/** Candidates the best-sheet search scans per work unit (measured: CPU per work unit as without it). */
const PATTERN_SCANS_PER_VISIT: i64 = 2;
/** Pool operations per work unit (a fit-index visit costs about as much). */
const OPS_PER_VISIT: i64 = 4;

export class Search extends SheetSearch {
  cons: Constructor;
  genome: Genome;
  /** While reducing (see canReduce): the best solution of the component searched; sheets[c] has one sheet fewer. */
  private best: Array<Sheet> | null = null;
  /** Part area the reduced solution places, the most it has placed, and what it placed over the last LATE_HISTORY moves. */
  private reducedPlaced: f64 = 0;
  private reducedBest: f64 = 0;
  private history: Float64Array = new Float64Array(LATE_HISTORY);
  /** Good patterns met while reducing component poolComp. */
  private pool: PatternPool = new PatternPool(POOL_CAP);
  private poolComp: i32 = -1;
  /** Best single sheets by branch and bound, their orientation masks per type and node buffer. */
  private pattern: SheetPattern = new SheetPattern();
  private patternMask: Int32Array;
  private patternNodes: F64Vec = new F64Vec(256);

  constructor(inst: Instance, budget: Budget, lowerBound: Int32Array) {
    super(inst, budget, lowerBound);
    this.countPatterns = true;
    this.cons = new Constructor(inst);
    this.genome = new Genome(inst.nTypes);
    this.patternMask = new Int32Array(inst.nTypes > 0 ? inst.nTypes : 1);
  }

  /** Work done so far (deterministic): fit-index visits, plus the pool's and the best-sheet search's operations at their rates. */
  work(): i64 {
    return fitVisits() + this.pool.work / OPS_PER_VISIT + this.pattern.work / PATTERN_SCANS_PER_VISIT;
  }

  /** Genome i of the fixed list: orderings, then orientation, then look-ahead. */
  private fixedGenome(c: i32, i: i32): void {
    const inst = this.inst;
    const t0 = unchecked(inst.cTypeStart[c]);
    const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
    const rules: StaticArray<i32> = [0, 2, 1, 3, 4, 5];
    const rule = rules[i % RULES];
    const orient = (i / RULES) % 2;
    const K = (i / (2 * RULES)) % 2 == 0 ? 4 : 1;
    const strips = (i / (2 * RULES)) % 2 == 0 ? 1 : 2;
    shapeGenome(this.genome, inst, types, types.length, rule, orient, 0.0, K, strips, 1, this.rng);
  }

  protected shapeRandomly(types: Int32Array, n: i32): void {
    const rng = this.rng;
    const rule = rng.int(RULES);
    const orient = rng.float() < 0.3 ? ORIENT_RANDOM : rng.int(2);
    const noise = NOISE_LEVELS[rng.int(4)];
    const K = LOOKAHEADS[rng.int(4)];
    const strips = STRIP_TRIES[rng.int(4)];
    const stacks = STACK_TRIES[rng.int(4)];
    shapeGenome(this.genome, this.inst, types, n, rule, orient, noise, K, strips, stacks, rng);
    this.genome.dp = rng.float() < DP_SHARE;
    this.genome.wide = rng.float() < WIDE_SHARE;
  }

  /** First complete solution of component c; never aborted (past `deadline` it only hurries). */
  initial(c: i32, deadline: f64): void {
    this.fixedGenome(c, 0);
    const list = this.constructAll(c, deadline, false);
    this.install(c, list!);
    if (this.cons.hurried) this.stoppedByDeadline = true;
  }

  protected packDemand(types: Int32Array, nt: i32, c: i32, out: Array<Sheet>, deadline: f64, abortable: bool): bool {
    return this.cons.run(types, nt, this.demand, this.genome, this.avail, c, out, deadline, abortable) != ABORTED;
  }

  /** Proven optimal: one stock type, everything placed, sheet count at the lower bound (bounds.ts). */
  protected provenOptimal(c: i32): bool {
    // Strategy 'time' goes on at the bound: fewer cuts still count.
    return !this.inst.timeStrategy && this.atAreaBound(c);
  }

  /** A few fixed genomes first, then sheet reduction where it applies, else destroy-and-repack and now and then a random full construction. */
  protected step(c: i32, deadline: f64, n: i32): void {
    const inst = this.inst;
    const count = unchecked(inst.cInstances[c]);
    const fixed = count <= 500 ? 2 * 2 * RULES : count <= 3000 ? 8 : 2;
    if (n < fixed) {
      this.fixedGenome(c, n);
      this.restart(c, deadline);
      return;
    }
    if (this.best === null && this.canReduce(c)) this.startReduction(c);
    if (this.best !== null) {
      this.reduceMove(c, deadline);
    } else if (this.sheets[c].length > 3 && this.rng.float() < 0.03) {
      const t0 = unchecked(inst.cTypeStart[c]);
      const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
      this.shapeRandomly(types, types.length);
      this.restart(c, deadline);
    } else {
      this.lns(c, deadline);
    }
  }

  /** One destroy-and-repack move on component c. */
  private lns(c: i32, deadline: f64): void {
    const cur = this.sheets[c];
    if (cur.length == 0 && unchecked(this.unplaced[c]) == 0) return;
    this.chooseFreed(cur);
    this.repackChosen(c, deadline);
  }

  /** Sheets to free, into `chosen`: all of a small solution; else a weak sheet plus 1-3 others. */
  private chooseFreed(cur: Array<Sheet>): void {
    const rng = this.rng;
    const m = cur.length;
    // Which sheets to free: all of a small solution; else a weak sheet plus 1-3 others.
    const ch = this.chosen;
    ch.clear();
    if (m <= 3) {
      // While reducing, keeping one sheet now and then makes the move local (freeing all is a restart).
      const keep = this.best !== null && m >= 2 && rng.float() < 0.5 ? rng.int(m) : -1;
      for (let i = 0; i < m; i++) if (i != keep) ch.push(i);
    } else {
      const r = rng.float();
      let target: i32;
      if (r < 0.5) {
        target = 0;
        for (let i = 1; i < m; i++) if (unchecked(cur[i]).fill() < unchecked(cur[target]).fill()) target = i;
      } else if (r < 0.85) {
        target = this.weakSheetByTournament(cur);
      } else {
        target = rng.int(m);
      }
      ch.push(target);
      this.addPartnersByWaste(cur);
    }
  }

  /** The component has one stock type and no objective beyond material (see canReduce). */
  private reducible(c: i32): bool {
    const inst = this.inst;
    return !inst.timeStrategy && !inst.strip && unchecked(inst.cStockStart[c + 1]) - unchecked(inst.cStockStart[c]) == 1;
  }

  /**
   * Sheet reduction applies: one stock type, everything placed, more sheets than the lower
   * bound. The search then works on the best solution less its emptiest sheet (see the file
   * head); `best` keeps the best, sheets[c] the reduced solution.
   */
  private canReduce(c: i32): bool {
    if (!this.reducible(c) || unchecked(this.unplaced[c]) != 0) return false;
    const m = this.sheets[c].length;
    return m >= 2 && m > unchecked(this.lowerBound[c]);
  }

  /** Sheet reduction goes on gaining long after the fixed effort: it gets REDUCE_EFFORT times as much (asked after the first solution). */
  effortWeight(c: i32): f64 {
    return this.canReduce(c) ? REDUCE_EFFORT : 1.0;
  }

  private startReduction(c: i32): void {
    const cur = this.sheets[c];
    this.best = cur;
    let drop = 0;
    for (let i = 1; i < cur.length; i++) if (unchecked(cur[i]).fill() < unchecked(cur[drop]).fill()) drop = i;
    const next = new Array<Sheet>();
    for (let i = 0; i < cur.length; i++) if (i != drop) next.push(unchecked(cur[i]));
    this.install(c, next);
    let placed: f64 = 0;
    let stockArea: f64 = 0;
    for (let i = 0; i < cur.length; i++) {
      placed += unchecked(cur[i]).placedArea;
      stockArea += unchecked(cur[i]).stockArea;
    }
    // Patterns worth recombining fill their sheet about as well as the best solution does on average.
    const pool = this.pool;
    if (this.poolComp != c) {
      pool.clear();
      this.poolComp = c;
    }
    pool.minFill = stockArea > 0 ? placed / stockArea - POOL_FILL_MARGIN : 0;
    for (let i = 0; i < cur.length; i++) pool.offer(unchecked(cur[i]));
    placed = 0;
    for (let i = 0; i < next.length; i++) placed += unchecked(next[i]).placedArea;
    this.reducedPlaced = placed;
    this.reducedBest = placed;
    for (let i = 0; i < LATE_HISTORY; i++) unchecked((this.history[i] = placed));
  }

  /**
   * Late acceptance while reducing: a re-pack is kept when the reduced solution then places
   * no less part area than now or than LATE_HISTORY moves ago, so it can cross small dips.
   */
  protected acceptable(cmp: i32): bool {
    if (this.best === null) return cmp <= 0;
    const next = this.reducedPlaced + this.newObj.placed - this.oldObj.placed;
    const tol = 1e-9 * Math.max(1.0, this.reducedPlaced);
    const v = <i32>(this.iterations % LATE_HISTORY);
    const ok = next >= this.reducedPlaced - tol || next >= unchecked(this.history[v]) - tol;
    if (ok) this.reducedPlaced = next;
    unchecked((this.history[v] = this.reducedPlaced));
    return ok;
  }

  private reduceMove(c: i32, deadline: f64): void {
    const inst = this.inst;
    const cur = this.sheets[c];
    this.chooseFreed(cur);
    this.collectFreedDemand(c, cur);
    // No more sheets than were freed: the move only moves parts between sheets.
    const s = unchecked(inst.cStocks[unchecked(inst.cStockStart[c])]);
    const a = unchecked(this.avail[s]);
    const room = this.chosen.len + this.best!.length - 1 - cur.length;
    if (a < 0 || a > room) unchecked((this.avail[s] = room));
    const tv = this.touched;
    this.shapeRandomly(tv.data, tv.len);
    const out = new Array<Sheet>();
    // Now and then some freed sheets become pool patterns made of the freed and left-over parts; the fills pack the rest.
    let seeded = 0;
    let made = 0;
    // Drawn only when the move frees two sheets or more, as before the best sheets existed.
    const r = this.chosen.len >= 2 ? this.rng.float() : 1.0;
    if (r < POOL_SEED_SHARE) {
      seeded = this.pool.takeBestCover(this.demand, this.chosen.len - 1, out);
      unchecked((this.avail[s] = unchecked(this.avail[s]) - seeded));
    } else if (r < POOL_SEED_SHARE + PATTERN_SHARE && this.bestSheetsApply(c, s)) {
      made = this.bestSheets(s, this.chosen.len - 1, out);
      unchecked((this.avail[s] = unchecked(this.avail[s]) - made));
    }
    const ok = this.packDemand(tv.data, tv.len, c, out, deadline, true);
    for (let k = 0; k < tv.len; k++) unchecked((this.demand[tv.get(k)] = 0));
    if (ok) {
      for (let i = seeded; i < out.length; i++) this.pool.offer(unchecked(out[i]));
      this.keepRepackIfNotWorse(c, cur, out);
    }
    this.afterReduction(c);
  }

  /**
   * The best single sheets are 3-stage patterns: measured to help with exactly 3 stages and no
   * part that may rotate (classes 1-10, n = 100, default policy: 3NHO 2351 -> 2343; with
   * rotation 2272 -> 2275 and unlimited stages 2270 -> 2274, where the candidates double and
   * deeper patterns fill better).
   */
  private bestSheetsApply(c: i32, s: i32): bool {
    const inst = this.inst;
    if (inst.maxStage != 3) return false;
    for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
      if (inst.maskOn(unchecked(inst.cTypes[i]), s) == 3) return false;
    }
    return true;
  }

  /**
   * Up to `most` sheets of stock s, each the best single sheet (most part area, sheet-pattern.ts)
   * of the move's demand that the sheets before it left; takes their parts off demand.
   */
  private bestSheets(s: i32, most: i32, out: Array<Sheet>): i32 {
    const inst = this.inst;
    const tv = this.touched;
    const mask = this.patternMask;
    for (let k = 0; k < tv.len; k++) {
      const t = tv.get(k);
      unchecked((mask[t] = inst.maskOn(t, s)));
    }
    const alongIsX = inst.firstDir == AXIS_X;
    const X = unchecked(inst.sXL[s]);
    const Y = unchecked(inst.sYL[s]);
    let made = 0;
    while (made < most) {
      const area = this.pattern.solve(tv.data, tv.len, this.demand, inst.tL, inst.tW, mask, alongIsX, unchecked(inst.sX0[s]), unchecked(inst.sY0[s]), alongIsX ? X : Y, alongIsX ? Y : X, inst.kerf, inst.eps, PATTERN_NODES, this.patternNodes);
      if (area <= 0) break;
      out.push(new Sheet(s, this.patternNodes.toArray(), area, this.pattern.placedCount, unchecked(inst.sArea[s]), unchecked(inst.sCost[s])));
      made++;
    }
    return made;
  }

  /** After a reduction move: a better reduced solution restarts the stall count; one with nothing left over is the new best. */
  private afterReduction(c: i32): void {
    if (this.reducedPlaced > this.reducedBest + 1e-9 * Math.max(1.0, this.reducedBest)) {
      // A reduced solution better than any before (not the recovery from a dip): the stall count restarts.
      this.reducedBest = this.reducedPlaced;
      this.improvedWork = this.work();
      this.improvedIter = this.iterations;
    }
    if (unchecked(this.unplaced[c]) == 0) {
      // Everything placed on one sheet fewer: the new best.
      this.best = null;
      super.improved();
      if (this.canReduce(c)) this.startReduction(c);
    }
  }

  /** While reducing, progress is judged by reduceMove; only a whole solution is a new best. */
  protected improved(): void {
    if (this.best === null) super.improved();
  }

  protected finish(c: i32): void {
    const best = this.best;
    if (best === null) return;
    this.install(c, best);
    this.best = null;
  }
}
