// Output encoding: maps item types back to part rows and stock types back to stock rows,
// tidies each tree (a band holding a single part becomes that part, so no stage is spent
// on it) and writes the flat layout the facade decodes (see layout.ts).

import { Instance } from "./instance";
import { Sheet } from "./solution";
import { F64Vec, sortByKey } from "../common/arrays";
import * as L from "./layout";

class Writer {
  inst: Instance;
  out: F64Vec;
  rowUsed: Int32Array;
  typeCursor: Int32Array;
  nodeCount: i32 = 0;

  constructor(inst: Instance, out: F64Vec) {
    this.inst = inst;
    this.out = out;
    this.rowUsed = new Int32Array(inst.nPartRows > 0 ? inst.nPartRows : 1);
    this.typeCursor = new Int32Array(inst.nTypes > 0 ? inst.nTypes : 1);
  }

  /** Next part row with quantity left for an instance of type t. */
  rowFor(t: i32): i32 {
    const inst = this.inst;
    const base = unchecked(inst.tRowStart[t]);
    const end = unchecked(inst.tRowStart[t + 1]);
    let k = unchecked(this.typeCursor[t]);
    while (base + k < end - 1 && unchecked(this.rowUsed[unchecked(inst.tRows[base + k])]) >= unchecked(inst.rowQ[unchecked(inst.tRows[base + k])])) k++;
    unchecked((this.typeCursor[t] = k));
    const r = unchecked(inst.tRows[base + k]);
    unchecked((this.rowUsed[r] += 1));
    return r;
  }

  private node(kind: i32, dir: i32, x: f64, y: f64, l: f64, w: f64, item: i32, children: i32): void {
    const o = this.out;
    o.reserve(L.NODE_STRIDE);
    // In the order of format.ts's ON_* offsets.
    o.push(<f64>kind);
    o.push(<f64>dir);
    o.push(x);
    o.push(y);
    o.push(l);
    o.push(w);
    o.push(<f64>item);
    o.push(<f64>children);
    this.nodeCount++;
  }

  /** Writes the subtree at node i of src; returns the index after it. */
  tree(src: Float64Array, i: i32, root: bool): i32 {
    const b = i * L.NODE_STRIDE;
    const kind = <i32>src[b + L.N_KIND];
    if (kind == L.KIND_PART) {
      const t = <i32>src[b + L.N_ITEM];
      this.node(L.KIND_PART, <i32>src[b + L.N_DIR], src[b + L.N_X], src[b + L.N_Y], src[b + L.N_L], src[b + L.N_W], this.rowFor(t), 0);
      return i + 1;
    }
    const n = <i32>src[b + L.N_CHILDREN];
    // A non-root band with one part child: the part sits at the band's corner and spans it
    // across exactly, so it can stand in the parent directly. (Free roots are always roots.)
    if (!root && n == 1 && <i32>src[b + L.NODE_STRIDE + L.N_KIND] == L.KIND_PART) return this.tree(src, i + 1, false);
    this.node(kind, <i32>src[b + L.N_DIR], src[b + L.N_X], src[b + L.N_Y], src[b + L.N_L], src[b + L.N_W], -1, n);
    let j = i + 1;
    for (let k = 0; k < n; k++) j = this.tree(src, j, false);
    return j;
  }
}

/** Sheets, stock area and placed part area of a solution (all components). */
export function summarise(sheets: Array<Array<Sheet>>): Float64Array {
  const g = new Float64Array(3);
  for (let c = 0; c < sheets.length; c++) {
    const list = sheets[c];
    for (let i = 0; i < list.length; i++) {
      g[0] += 1;
      g[1] += list[i].stockArea;
      g[2] += list[i].placedArea;
    }
  }
  return g;
}

/** Writes the sheets of every component (guillotine trees or free roots) in the output layout. */
export function encodeSheets(
  inst: Instance,
  sheets: Array<Array<Sheet>>,
  iterations: i64,
  timeToBest: f64,
  stopped: bool,
  lowerBound: i32,
  elapsed: f64,
  greedy: Float64Array,
  stop: i32,
  work: f64,
): Float64Array {
  const out = new F64Vec(L.OUT_HEADER + inst.nPartRows + 1024);
  const nP = inst.nPartRows;
  for (let i = 0; i < L.OUT_HEADER + nP; i++) out.push(0);
  const w = new Writer(inst, out);

  // Stock rows per stock type, filled in order (q = -1 rows take any number).
  const stockRowUsed = new Int32Array(inst.nStockRows > 0 ? inst.nStockRows : 1);
  const stockCursor = new Int32Array(inst.nStocks > 0 ? inst.nStocks : 1);
  let nSheets = 0;
  for (let c = 0; c < inst.nComps; c++) {
    const list = sheets[c];
    const m = list.length;
    // Order: larger stock first (component order), fuller sheets first.
    const rank = new Float64Array(inst.nStocks > 0 ? inst.nStocks : 1);
    for (let i = inst.cStockStart[c]; i < inst.cStockStart[c + 1]; i++) rank[inst.cStocks[i]] = <f64>(i - inst.cStockStart[c]);
    const key = new Float64Array(m > 0 ? m : 1);
    const idx = new Int32Array(m > 0 ? m : 1);
    for (let i = 0; i < m; i++) {
      const sh = list[i];
      idx[i] = i;
      key[i] = rank[sh.stock] + 0.5 * (1.0 - Math.min(1.0, Math.max(0.0, sh.fill())));
    }
    sortByKey(idx, m, key, new Int32Array(m > 0 ? m : 1));
    for (let k = 0; k < m; k++) {
      const sh: Sheet = list[idx[k]];
      const s = sh.stock;
      const base = inst.sRowStart[s];
      const end = inst.sRowStart[s + 1];
      let j = stockCursor[s];
      while (base + j < end - 1) {
        const r = inst.sRows[base + j];
        const q = inst.stockRowQ[r];
        if (q >= 0 && stockRowUsed[r] >= q) j++;
        else break;
      }
      stockCursor[s] = j;
      const row = inst.sRows[base + j];
      stockRowUsed[row] += 1;
      out.push(<f64>row);
      const countAt = out.len;
      out.push(0);
      w.nodeCount = 0;
      w.tree(sh.nodes, 0, true);
      out.data[countAt] = <f64>w.nodeCount;
      nSheets++;
    }
  }
  const d = out.data;
  for (let r = 0; r < nP; r++) d[L.OUT_HEADER + r] = <f64>(inst.rowQ[r] - w.rowUsed[r]);
  d[L.O_STATUS] = 0;
  d[L.O_NSHEETS] = <f64>nSheets;
  d[L.O_LOWER_BOUND] = <f64>lowerBound;
  d[L.O_ITERATIONS] = <f64>iterations;
  d[L.O_ELAPSED] = elapsed;
  d[L.O_TIME_TO_BEST] = timeToBest;
  d[L.O_DEADLINE] = stopped ? 1 : 0;
  d[L.O_NPARTS] = <f64>nP;
  d[L.O_GREEDY_SHEETS] = greedy[0];
  d[L.O_GREEDY_STOCK_AREA] = greedy[1];
  d[L.O_GREEDY_PLACED] = greedy[2];
  d[L.O_STOP] = <f64>stop;
  d[L.O_WORK] = work;
  return out.toArray();
}

/** Output for an input whose layout cannot be read. */
export function encodeError(status: i32): Float64Array {
  const o = new Float64Array(L.OUT_HEADER);
  o[L.O_STATUS] = <f64>status;
  return o;
}
