// Solution model: sheets with their cut trees, and the lexicographic objective the search
// compares: placed part area (more is better), then used sheet area of new stock, then that
// of offcuts (stock the shop already owns, filled first), then cost, then (with
// strategy 'time') the number of distinct patterns and the number of cuts, then the sum of squared sheet fills (higher = waste
// concentrated on few sheets, which is what lets a later move empty a sheet entirely).

import { NODE_STRIDE, N_KIND, N_ITEM, N_DIR, N_X, N_Y, N_L, N_W, N_CHILDREN, KIND_PART, KIND_CUT } from "./layout";
import { HASH_START, hashStep } from "../common/hash";

/** Strategy 'time': fewer cuts decide between layouts of equal material (set once per run). */
let preferFewCuts: bool = false;

export function setPreferFewCuts(on: bool): void {
  preferFewCuts = on;
}

/** Per stock type, 1 for an offcut (set once per run from the instance). */
let offcutType: Int32Array = new Int32Array(0);

export function setOffcutTypes(types: Int32Array): void {
  offcutType = types;
}

@inline function isOffcut(stock: i32): bool {
  return stock < offcutType.length && unchecked(offcutType[stock]) != 0;
}

export class Sheet {
  stock: i32;
  /** Pre-order tree, NODE_STRIDE values per node; item field = item type. */
  nodes: Float64Array;
  placedArea: f64;
  placedCount: i32;
  stockArea: f64;
  cost: f64;

  constructor(stock: i32, nodes: Float64Array, placedArea: f64, placedCount: i32, stockArea: f64, cost: f64) {
    this.stock = stock;
    this.nodes = nodes;
    this.placedArea = placedArea;
    this.placedCount = placedCount;
    this.stockArea = stockArea;
    this.cost = cost;
  }

  /** Saw cuts of the pattern (trims excluded), counted once on first use; see cutCount. */
  private cuts: i32 = -1;

  cutsOf(): i32 {
    if (this.cuts < 0) this.cuts = cutCount(this.nodes);
    return this.cuts;
  }

  /** Hash of stock type and tree: equal patterns hash equal (repeats share their nodes). */
  private hash: u64 = 0;

  patternHash(): u64 {
    if (this.hash == 0) {
      let h = HASH_START ^ <u64>this.stock;
      const d = this.nodes;
      for (let i = 0; i < d.length; i++) h = hashStep(h, reinterpret<u64>(unchecked(d[i])));
      this.hash = h | 1;
    }
    return this.hash;
  }

  @inline fill(): f64 {
    return this.stockArea > 0 ? this.placedArea / this.stockArea : 0;
  }

  /** Adds `sign` to counts[type] for every part on the sheet. */
  addCounts(counts: Int32Array, sign: i32): void {
    const d = this.nodes;
    const n = d.length;
    for (let i = 0; i < n; i += NODE_STRIDE) {
      if (<i32>unchecked(d[i + N_KIND]) == KIND_PART) {
        const t = <i32>unchecked(d[i + N_ITEM]);
        unchecked((counts[t] += sign));
      }
    }
  }
}

export class Objective {
  placed: f64 = 0;
  /** Sheet area of new stock; offcutArea that of offcuts. */
  area: f64 = 0;
  offcutArea: f64 = 0;
  cost: f64 = 0;
  f2: f64 = 0;
  count: i32 = 0;
  cuts: i32 = 0;
  /** Distinct patterns of the whole solution (strategy 'time'; set by the caller, not by add). */
  patterns: i32 = 0;

  reset(): void {
    this.placed = 0;
    this.area = 0;
    this.offcutArea = 0;
    this.cost = 0;
    this.f2 = 0;
    this.count = 0;
    this.cuts = 0;
    this.patterns = 0;
  }

  add(s: Sheet): void {
    this.placed += s.placedArea;
    if (isOffcut(s.stock)) this.offcutArea += s.stockArea;
    else this.area += s.stockArea;
    this.cost += s.cost;
    const f = s.fill();
    this.f2 += f * f;
    this.count += s.placedCount;
    if (preferFewCuts) this.cuts += s.cutsOf();
  }

  addAll(list: Array<Sheet>): void {
    for (let i = 0; i < list.length; i++) this.add(unchecked(list[i]));
  }
}

/**
 * Compares a with b. Negative: a is better; positive: b is better; 0: equal. The magnitude
 * tells the deciding level: 1 placed area, 2 sheet area (new stock, then offcuts), 3 cost, 4 fill concentration.
 */
export function compareObjectives(a: Objective, b: Objective): i32 {
  const tp = 1e-9 * Math.max(1.0, Math.max(a.placed, b.placed));
  if (a.placed > b.placed + tp) return -1;
  if (b.placed > a.placed + tp) return 1;
  const ta = 1e-9 * Math.max(1.0, Math.max(a.area, b.area));
  if (a.area < b.area - ta) return -2;
  if (b.area < a.area - ta) return 2;
  const to = 1e-9 * Math.max(1.0, Math.max(a.offcutArea, b.offcutArea));
  if (a.offcutArea < b.offcutArea - to) return -2;
  if (b.offcutArea < a.offcutArea - to) return 2;
  const tc = 1e-9 * Math.max(1.0, Math.max(a.cost, b.cost));
  if (a.cost < b.cost - tc) return -3;
  if (b.cost < a.cost - tc) return 3;
  if (a.patterns != b.patterns) return a.patterns < b.patterns ? -4 : 4;
  if (a.cuts != b.cuts) return a.cuts < b.cuts ? -4 : 4;
  if (a.f2 > b.f2 + 1e-12) return -4;
  if (b.f2 > a.f2 + 1e-12) return 4;
  return 0;
}

/** Distinct patterns among the sheets, or 0 unless strategy 'time' counts them. */
export function distinctPatterns(list: Array<Sheet>): i32 {
  if (!preferFewCuts) return 0;
  const seen = new Set<u64>();
  for (let i = 0; i < list.length; i++) seen.add(unchecked(list[i]).patternHash());
  return seen.size;
}

/**
 * Cuts a sawyer makes on a guillotine pattern (pre-order nodes), as the result's cut list
 * counts them: one after every band that does not end at its region's end, and one trimming
 * a part shorter than its band. A free pattern counts 0.
 */
export function cutCount(d: Float64Array): i32 {
  let cuts = 0;
  let i = 0;
  while (i < d.length) {
    if (<i32>unchecked(d[i + N_KIND]) != KIND_CUT) {
      i += NODE_STRIDE;
      continue;
    }
    const alongX = <i32>unchecked(d[i + N_DIR]) == 0;
    const end = alongX ? unchecked(d[i + N_Y]) + unchecked(d[i + N_W]) : unchecked(d[i + N_X]) + unchecked(d[i + N_L]);
    const bandEnd = alongX ? unchecked(d[i + N_X]) + unchecked(d[i + N_L]) : unchecked(d[i + N_Y]) + unchecked(d[i + N_W]);
    const tol = 1e-7 * Math.max(1.0, Math.abs(end) + Math.abs(bandEnd));
    const n = <i32>unchecked(d[i + N_CHILDREN]);
    // Children follow in pre-order: walk the direct ones by skipping their subtrees.
    let j = i + NODE_STRIDE;
    for (let c = 0; c < n; c++) {
      const across = alongX ? unchecked(d[j + N_Y]) + unchecked(d[j + N_W]) : unchecked(d[j + N_X]) + unchecked(d[j + N_L]);
      if (across < end - tol) cuts++;
      if (<i32>unchecked(d[j + N_KIND]) == KIND_PART) {
        const along = alongX ? unchecked(d[j + N_X]) + unchecked(d[j + N_L]) : unchecked(d[j + N_Y]) + unchecked(d[j + N_W]);
        if (along < bandEnd - tol) cuts++;
      }
      j = skip(d, j);
    }
    i += NODE_STRIDE;
  }
  return cuts;
}

/** Index just past the subtree at node offset j. */
function skip(d: Float64Array, j: i32): i32 {
  let pending = 1;
  while (pending > 0) {
    pending += <i32>unchecked(d[j + N_CHILDREN]) - 1;
    j += NODE_STRIDE;
  }
  return j;
}
