// Sheet-by-sheet construction: while parts remain, fill one sheet of every candidate stock
// type with the genome's priority order, keep the best sheet and commit it. "Best" follows
// the stock-selection rule: for efficiency the highest fill ratio (a sheet that finishes the
// job wins when it costs no more area than the alternative plus one more sheet); for
// smallest, the smallest sheet whose fill is close to the best fill.

import { Instance } from "../sheets/instance";
import { Filler } from "./filler";
import { Genome } from "./genome";
import { Sheet } from "../sheets/solution";
import { F64Vec, ensureI32, ensureF64, sortByKey } from "../common/arrays";
import { now } from "../common/clock";
import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART } from "../sheets/layout";
import { candidateStocks, efficiencyPrefers } from "../sheets/stock-choice";

export const DONE: i32 = 0;
export const ABORTED: i32 = 1;
/** 'smallest' takes a smaller sheet when its fill is at least this fraction of the best. */
const SMALLEST_SLACK: f64 = 0.9;
/** Strip mode: openers whose band lengths are tried for each new band. */
const STRIP_OPENERS: i32 = 3;

export class Constructor {
  inst: Instance;
  filler: Filler;
  private keep: F64Vec = new F64Vec(1024);
  private seq: Int32Array = new Int32Array(16);
  private tmp: Int32Array = new Int32Array(16);
  private cand: Int32Array = new Int32Array(16);
  private candPlaced: Float64Array = new Float64Array(16);
  private candCount: Int32Array = new Int32Array(16);
  private tally: Int32Array = new Int32Array(16);

  /** Set when a run had to hurry past its deadline (its result then depends on timing). */
  hurried: bool = false;

  constructor(inst: Instance) {
    this.inst = inst;
    this.filler = new Filler(inst);
  }

  /**
   * Packs demand[t] instances of the types in types[0..nt) of component c onto new sheets
   * appended to `out`, drawing sheets from avail[] (-1 unlimited; decremented). demand is
   * decremented as parts are placed; what is left could not be placed. When `abortable` and
   * the deadline passes, returns ABORTED (out is then incomplete and must be discarded);
   * otherwise it finishes, trying a single stock type per sheet once late.
   */
  run(
    types: Int32Array,
    nt: i32,
    demand: Int32Array,
    g: Genome,
    avail: Int32Array,
    c: i32,
    out: Array<Sheet>,
    deadline: f64,
    abortable: bool,
  ): i32 {
    const inst = this.inst;
    const filler = this.filler;
    this.seq = ensureI32(this.seq, nt);
    this.tmp = ensureI32(this.tmp, nt);
    const seq = this.seq;
    let n = 0;
    let remaining: i64 = 0;
    for (let i = 0; i < nt; i++) {
      const t = unchecked(types[i]);
      const d = unchecked(demand[t]);
      if (d > 0) {
        unchecked((seq[n++] = t));
        remaining += d;
      }
    }
    sortByKey(seq, n, g.key, this.tmp);
    filler.prepare(seq, n);

    const s0 = unchecked(inst.cStockStart[c]);
    const ns = unchecked(inst.cStockStart[c + 1]) - s0;
    this.cand = ensureI32(this.cand, ns);
    this.candPlaced = ensureF64(this.candPlaced, ns);
    this.candCount = ensureI32(this.candCount, ns);
    let last = -1;
    let late = false;
    // Offcuts first: while one takes a part, only offcuts are candidates (stock-choice.ts).
    let offcutsLeft = true;

    while (remaining > 0) {
      if (deadline > 0 && now() >= deadline) {
        if (abortable) return ABORTED;
        late = true;
        this.hurried = true;
      }
      // Candidate stock types (component list is largest first).
      let nc = 0;
      if (late && last >= 0 && unchecked(avail[last]) != 0) {
        unchecked((this.cand[nc++] = last));
      } else if (inst.strip) {
        nc = this.stripCandidates(seq, n, demand, avail, s0, ns);
      }
      let fromOffcuts = false;
      if (nc == 0 && offcutsLeft) {
        nc = candidateStocks(inst, s0, ns, avail, this.cand, late, true);
        fromOffcuts = nc > 0;
      }
      if (nc == 0) nc = candidateStocks(inst, s0, ns, avail, this.cand, late);
      if (nc == 0) break;

      // Evaluate every candidate; keep the efficiency-best pattern to avoid refilling it.
      let kept = -1;
      for (let j = 0; j < nc; j++) {
        const s = unchecked(this.cand[j]);
        const placed = filler.fill(s, demand, g);
        unchecked((this.candPlaced[j] = placed));
        unchecked((this.candCount[j] = filler.placedCount));
        this.undo(demand);
        if (filler.placedCount > 0 && (kept < 0 || efficiencyPrefers(inst, this.cand, this.candPlaced, this.candCount, nc, j, kept, remaining))) {
          const t = this.keep;
          this.keep = filler.nodes;
          filler.nodes = t;
          kept = j;
        }
      }
      if (kept < 0 && fromOffcuts) {
        // No offcut takes any remaining part, now or later (demand only shrinks): new stock.
        offcutsLeft = false;
        continue;
      }
      if (kept < 0) break; // nothing fits any available sheet: the rest is unplaced

      let chosen = kept;
      if (inst.smallest) chosen = this.chooseSmallest(nc, remaining);
      const s = unchecked(this.cand[chosen]);
      let nodes: Float64Array;
      if (chosen == kept) {
        nodes = this.keep.toArray();
        this.redo(nodes, demand);
      } else {
        filler.fill(s, demand, g);
        nodes = filler.nodes.toArray();
        for (let i = 0; i < nodes.length; i += NODE_STRIDE) {
          if (<i32>unchecked(nodes[i + N_KIND]) != KIND_PART) continue;
          const t = <i32>unchecked(nodes[i + N_ITEM]);
          if (unchecked(demand[t]) == 0) filler.retire(t);
        }
      }
      const cnt = unchecked(this.candCount[chosen]);
      const placedArea = unchecked(this.candPlaced[chosen]);
      out.push(new Sheet(s, nodes, placedArea, cnt, unchecked(inst.sArea[s]), unchecked(inst.sCost[s])));
      remaining -= cnt;
      if (unchecked(avail[s]) > 0) unchecked((avail[s] -= 1));
      last = s;
      if (inst.repeat) {
        // Copies of the same pattern (sharing its immutable node array) while demand lasts.
        const reps = this.repeats(nodes, demand, unchecked(avail[s]));
        for (let k = 0; k < reps; k++) {
          out.push(new Sheet(s, nodes, placedArea, cnt, unchecked(inst.sArea[s]), unchecked(inst.sCost[s])));
          this.redo(nodes, demand);
          remaining -= cnt;
          if (unchecked(avail[s]) > 0) unchecked((avail[s] -= 1));
        }
      }
    }
    return DONE;
  }

  /**
   * Strip mode: the band lengths worth trying next are the extents along the strip of the
   * first few openers still in demand (priority order, each allowed orientation). Writes
   * them to cand and returns how many.
   */
  private stripCandidates(seq: Int32Array, n: i32, demand: Int32Array, avail: Int32Array, s0: i32, ns: i32): i32 {
    const inst = this.inst;
    const eps = inst.eps;
    let nc = 0;
    let openers = 0;
    for (let i = 0; i < n && openers < STRIP_OPENERS; i++) {
      const t = unchecked(seq[i]);
      if (unchecked(demand[t]) <= 0) continue;
      openers++;
      for (let r = 0; r < 2; r++) {
        const len = r == 0 ? unchecked(inst.tL[t]) : unchecked(inst.tW[t]);
        for (let k = 0; k < ns; k++) {
          const s = unchecked(inst.cStocks[s0 + k]);
          if (Math.abs(unchecked(inst.sXL[s]) - len) > eps || unchecked(avail[s]) == 0) continue;
          if ((inst.maskOn(t, s) & (1 << r)) == 0) break;
          let dup = false;
          for (let j = 0; j < nc; j++) if (unchecked(this.cand[j]) == s) dup = true;
          if (!dup) unchecked((this.cand[nc++] = s));
          break;
        }
      }
    }
    return nc;
  }

  /** How many more copies of `nodes` the demand (and `avail` sheets, -1 unlimited) allow. */
  private repeats(nodes: Float64Array, demand: Int32Array, avail: i32): i32 {
    this.tally = ensureI32(this.tally, this.inst.nTypes);
    const tally = this.tally;
    for (let i = 0; i < nodes.length; i += NODE_STRIDE) {
      if (<i32>unchecked(nodes[i + N_KIND]) == KIND_PART) unchecked((tally[<i32>unchecked(nodes[i + N_ITEM])] += 1));
    }
    let reps: i32 = avail < 0 ? i32.MAX_VALUE : avail;
    for (let i = 0; i < nodes.length; i += NODE_STRIDE) {
      if (<i32>unchecked(nodes[i + N_KIND]) != KIND_PART) continue;
      const t = <i32>unchecked(nodes[i + N_ITEM]);
      const c = unchecked(tally[t]);
      if (c > 0) {
        const r = unchecked(demand[t]) / c;
        if (r < reps) reps = r;
        unchecked((tally[t] = 0));
      }
    }
    return reps;
  }

  /** Gives back the parts of the filler's last pattern. */
  private undo(demand: Int32Array): void {
    const v = this.filler.nodes;
    const d = v.data;
    for (let i = 0; i < v.len; i += NODE_STRIDE) {
      if (<i32>unchecked(d[i + N_KIND]) == KIND_PART) {
        const t = <i32>unchecked(d[i + N_ITEM]);
        const c = unchecked(demand[t]) + 1;
        unchecked((demand[t] = c));
        if (c == 1) this.filler.revive(t);
      }
    }
  }

  private redo(nodes: Float64Array, demand: Int32Array): void {
    for (let i = 0; i < nodes.length; i += NODE_STRIDE) {
      if (<i32>unchecked(nodes[i + N_KIND]) == KIND_PART) {
        const t = <i32>unchecked(nodes[i + N_ITEM]);
        const c = unchecked(demand[t]) - 1;
        unchecked((demand[t] = c));
        if (c == 0) this.filler.retire(t);
      }
    }
  }

  /**
   * 'smallest': among the candidates whose fill is close to the best fill, the smallest
   * sheet; on equal size one that finishes the job, then the fuller one.
   */
  private chooseSmallest(nc: i32, remaining: i64): i32 {
    const inst = this.inst;
    let bestFill: f64 = 0;
    for (let j = 0; j < nc; j++) {
      bestFill = Math.max(bestFill, unchecked(this.candPlaced[j]) / unchecked(inst.sArea[unchecked(this.cand[j])]));
    }
    let best = -1;
    for (let j = 0; j < nc; j++) {
      if (unchecked(this.candCount[j]) == 0) continue;
      const f = unchecked(this.candPlaced[j]) / unchecked(inst.sArea[unchecked(this.cand[j])]);
      if (f < SMALLEST_SLACK * bestFill) continue;
      if (best < 0) {
        best = j;
        continue;
      }
      const a = unchecked(inst.sArea[unchecked(this.cand[j])]);
      const b = unchecked(inst.sArea[unchecked(this.cand[best])]);
      if (a < b) {
        best = j;
        continue;
      }
      if (a > b) continue;
      const doneJ = <i64>unchecked(this.candCount[j]) == remaining;
      const doneB = <i64>unchecked(this.candCount[best]) == remaining;
      if ((doneJ && !doneB) || (doneJ == doneB && f > unchecked(this.candPlaced[best]) / b)) best = j;
    }
    return best;
  }
}
