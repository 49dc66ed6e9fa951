// Solution model: sheets with their cut trees, and the lexicographic objective the search
// compares: placed part area (more is better), then used sheet area, then cost, then the
// sum of squared sheet fills (higher = waste concentrated on few sheets, which is what lets
// a later move empty a sheet entirely).

import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART } from "./layout";

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
  area: f64 = 0;
  cost: f64 = 0;
  f2: f64 = 0;
  count: i32 = 0;

  reset(): void {
    this.placed = 0;
    this.area = 0;
    this.cost = 0;
    this.f2 = 0;
    this.count = 0;
  }

  add(s: Sheet): void {
    this.placed += s.placedArea;
    this.area += s.stockArea;
    this.cost += s.cost;
    const f = s.fill();
    this.f2 += f * f;
    this.count += s.placedCount;
  }

  addAll(list: Array<Sheet>): void {
    for (let i = 0; i < list.length; i++) this.add(unchecked(list[i]));
  }
}

/**
 * Compares a with b. Negative: a is better; positive: b is better; 0: equal. The magnitude
 * tells the deciding level: 1 placed area, 2 sheet area, 3 cost, 4 fill concentration.
 */
export function compareObjectives(a: Objective, b: Objective): i32 {
  const tp = 1e-9 * Math.max(1.0, Math.max(a.placed, b.placed));
  if (a.placed > b.placed + tp) return -1;
  if (b.placed > a.placed + tp) return 1;
  const ta = 1e-9 * Math.max(1.0, Math.max(a.area, b.area));
  if (a.area < b.area - ta) return -2;
  if (b.area < a.area - ta) return 2;
  const tc = 1e-9 * Math.max(1.0, Math.max(a.cost, b.cost));
  if (a.cost < b.cost - tc) return -3;
  if (b.cost < a.cost - tc) return 3;
  if (a.f2 > b.f2 + 1e-12) return -4;
  if (b.f2 > a.f2 + 1e-12) return 4;
  return 0;
}
