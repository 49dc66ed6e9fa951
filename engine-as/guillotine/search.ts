// Anytime improvement of one component's solution.
//
// 1. A few full constructions with fixed genomes (orderings x orientations x look-ahead).
// 2. Large-neighbourhood search: free a handful of sheets (the emptiest is usually among
//    them), re-pack their parts, plus any unplaced ones, with a randomly shaped genome,
//    and keep the result when the objective is not worse. Accepting ties that concentrate
//    waste (higher sum of squared fills) drifts parts off the weakest sheet until it can
//    be dropped. Now and then a full randomised construction adds diversity.
//
// The loop stops at a deterministic effort limit (fit-index visits, scaled to the cost of
// one construction), at the component's deadline, or when the area bound is reached.
// Only the deadline makes a run depend on the machine.

import { Instance } from "./instance";
import { Constructor, ABORTED } from "./construct";
import { Genome, shapeGenome, RULES, ORIENT_RANDOM } from "./genome";
import { Sheet, Objective, compareObjectives, distinctPatterns } from "./solution";
import { Rng } from "../common/rng";
import { Budget, now } from "../common/clock";
import { I32Vec } from "../common/arrays";
import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART } from "./layout";
import { fitVisits } from "./fitindex";

const NOISE_LEVELS: StaticArray<f64> = [0.0, 0.03, 0.1, 0.3];
const LOOKAHEADS: StaticArray<i32> = [1, 2, 4, 8];
const STRIP_TRIES: StaticArray<i32> = [1, 2, 4, 8];
const STACK_TRIES: StaticArray<i32> = [1, 2, 4, 8];
/** Minimum effort charged per search step (in fit-index visits). */
const ITERATION_WORK: i64 = 64;
/** Keeps full sheets drawable as LNS partners, rarely. */
const WASTE_FLOOR: f64 = 0.02;
/** Share of random genomes whose stacks are filled by the knapsack (see Filler.dpStack). */
const DP_SHARE: f64 = 0.2;
/** Share of random genomes that also try wide bands. */
const WIDE_SHARE: f64 = 0.3;

export class Search {
  inst: Instance;
  cons: Constructor;
  rng: Rng;
  budget: Budget;
  genome: Genome;
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
  /** Objective of the greedy start (see output.summarise), set once the first solutions exist. */
  greedy: Float64Array = new Float64Array(3);

  private demand: Int32Array;
  private avail: Int32Array;
  private touched: I32Vec = new I32Vec(256);
  private chosen: I32Vec = new I32Vec(8);
  private oldObj: Objective = new Objective();
  private newObj: Objective = new Objective();

  constructor(inst: Instance, budget: Budget, lowerBound: Int32Array) {
    this.inst = inst;
    this.budget = budget;
    this.cons = new Constructor(inst);
    this.rng = new Rng(inst.seed);
    this.genome = new Genome(inst.nTypes);
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

  /** Work done so far (deterministic). */
  @inline work(): i64 {
    return fitVisits();
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

  private randomGenome(types: Int32Array, n: i32): void {
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

  /** Full construction of component c with the current genome; null if aborted. */
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
    const types = inst.cTypes.subarray(t0, t1);
    const status = this.cons.run(types, t1 - t0, this.demand, this.genome, this.avail, c, out, deadline, abortable);
    for (let i = t0; i < t1; i++) unchecked((this.demand[unchecked(inst.cTypes[i])] = 0));
    return status == ABORTED ? null : out;
  }

  /** Makes `list` the solution of component c and recounts usage. */
  private install(c: i32, list: Array<Sheet>): void {
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

  /** Proven optimal: one stock type, everything placed, sheet count at the area bound. */
  private optimal(c: i32): bool {
    const inst = this.inst;
    // Strategy 'time' goes on at the bound: fewer cuts still count.
    if (inst.timeStrategy || unchecked(this.unplaced[c]) != 0) return false;
    if (unchecked(inst.cStockStart[c + 1]) - unchecked(inst.cStockStart[c]) != 1) return false;
    return this.sheets[c].length <= unchecked(this.lowerBound[c]);
  }

  /** Improves component c until its effort limit, the deadline, or proven optimality. */
  improve(c: i32, deadline: f64, workLimit: i64): void {
    const inst = this.inst;
    const w0 = this.work();
    const n = unchecked(inst.cInstances[c]);
    const fixed = n <= 500 ? 2 * 2 * RULES : n <= 3000 ? 8 : 2;
    let gi = 1;
    let steps: i64 = 0;
    while (true) {
      if (this.optimal(c)) break;
      // Every step costs at least ITERATION_WORK, so moves that find nothing to fit still end.
      if (this.work() - w0 + steps * ITERATION_WORK >= workLimit) break;
      steps++;
      if (now() >= deadline) {
        this.stoppedByDeadline = true;
        break;
      }
      this.iterations++;
      if (gi < fixed) {
        this.fixedGenome(c, gi++);
        this.restart(c, deadline);
      } else if (this.sheets[c].length > 3 && this.rng.float() < 0.03) {
        const t0 = unchecked(inst.cTypeStart[c]);
        const types = inst.cTypes.subarray(t0, unchecked(inst.cTypeStart[c + 1]));
        this.randomGenome(types, types.length);
        this.restart(c, deadline);
      } else {
        this.lns(c, deadline);
      }
    }
  }

  /** Full construction with the current genome; kept when strictly better. */
  private restart(c: i32, deadline: f64): void {
    const list = this.constructAll(c, deadline, true);
    if (list === null) return;
    this.oldObj.reset();
    this.oldObj.addAll(this.sheets[c]);
    this.newObj.reset();
    this.newObj.addAll(list);
    this.oldObj.patterns = distinctPatterns(this.sheets[c]);
    this.newObj.patterns = distinctPatterns(list);
    const cmp = compareObjectives(this.newObj, this.oldObj);
    if (cmp < 0) {
      this.install(c, list);
      if (cmp >= -3) this.timeToBest = this.budget.elapsed();
    }
  }

  /** One destroy-and-repack move on component c. */
  private lns(c: i32, deadline: f64): void {
    const inst = this.inst;
    const rng = this.rng;
    const cur = this.sheets[c];
    const m = cur.length;
    if (m == 0 && unchecked(this.unplaced[c]) == 0) return;

    // Which sheets to free: all of a small solution; else a weak sheet plus 1-3 others.
    const ch = this.chosen;
    ch.clear();
    if (m <= 3) {
      for (let i = 0; i < m; i++) ch.push(i);
    } else {
      const r = rng.float();
      let target: i32;
      if (r < 0.5) {
        target = 0;
        for (let i = 1; i < m; i++) if (unchecked(cur[i]).fill() < unchecked(cur[target]).fill()) target = i;
      } else if (r < 0.85) {
        // Tournament of three: weak sheets, but not always the same one.
        target = rng.int(m);
        for (let k = 0; k < 2; k++) {
          const o = rng.int(m);
          if (unchecked(cur[o]).fill() < unchecked(cur[target]).fill()) target = o;
        }
      } else {
        target = rng.int(m);
      }
      ch.push(target);
      // Partners drawn in proportion to their waste: full sheets have nothing to offer.
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

    // Demand: parts of the freed sheets plus everything still unplaced.
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

    this.randomGenome(tv.data, tv.len);
    const out = new Array<Sheet>();
    const status = this.cons.run(tv.data, tv.len, this.demand, this.genome, this.avail, c, out, deadline, true);
    for (let k = 0; k < tv.len; k++) unchecked((this.demand[tv.get(k)] = 0));
    if (status == ABORTED) return;

    this.newObj.reset();
    this.newObj.addAll(out);
    // The solution as it would be: kept sheets, then the new ones.
    const next = new Array<Sheet>();
    for (let i = 0; i < m; i++) {
      let freed = false;
      for (let k = 0; k < ch.len; k++) if (ch.get(k) == i) freed = true;
      if (!freed) next.push(unchecked(cur[i]));
    }
    for (let i = 0; i < out.length; i++) next.push(unchecked(out[i]));
    this.oldObj.patterns = distinctPatterns(cur);
    this.newObj.patterns = distinctPatterns(next);
    const cmp = compareObjectives(this.newObj, this.oldObj);
    if (cmp > 0) return;

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
    if (cmp < 0 && cmp >= -3) this.timeToBest = this.budget.elapsed();
  }
}
