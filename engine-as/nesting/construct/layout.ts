// One complete (or partial) layout built from an order of part instances: each position of
// the order is placed on a sheet, or left out when no stock takes it. Positions are placed
// in order, so the layout after position k only depends on the first k of the order, and a
// change at position i only needs the order rebuilt from i (see `rebuildFrom`).

import { Budget } from "../../common/clock";
import { Instance } from "../instance";
import { findPlacement, Spot } from "./blf";
import { Placements, Sheet } from "./placements";

export class Layout extends Placements {
  sheets: Array<Sheet> = new Array<Sheet>();
  /**
   * Sheet records dropped by a copy or a rebuild, for the next sheet to reuse: the order
   * search copies and rebuilds a layout on every move, and a solve never frees memory (stub
   * runtime, see nesting.ts), so these must not allocate.
   */
  private spare: Array<Sheet> = new Array<Sheet>();
  stockUsed: Int32Array = new Int32Array(0);
  spot: Spot = new Spot();
  /** When set, a rebuild that runs past it leaves the rest of the order unplaced. */
  budget: Budget | null = null;
  /** The last rebuild ran out of time. */
  cutShort: bool = false;

  constructor(inst: Instance, itemType: Int32Array) {
    super(inst, itemType);
    this.stockUsed = new Int32Array(inst.stock.length);
  }

  copyFrom(o: Layout): void {
    this.order.set(o.order);
    this.sheetOf.set(o.sheetOf);
    this.shapeOf.set(o.shapeOf);
    this.xs.set(o.xs);
    this.ys.set(o.ys);
    this.stockUsed.set(o.stockUsed);
    const sheets = this.sheets;
    const count = o.sheets.length;
    while (sheets.length > count) this.spare.push(sheets.pop());
    for (let s = 0; s < count; s++) {
      const src = o.sheets[s];
      if (s == sheets.length) sheets.push(this.openSheet(src.stock, src.openedAt));
      sheets[s].copyFrom(src);
    }
  }

  /** A sheet record for a new sheet, reused when one is spare. */
  private openSheet(stock: i32, openedAt: i32): Sheet {
    if (this.spare.length == 0) return new Sheet(stock, openedAt);
    const sh = this.spare.pop();
    sh.stock = stock;
    sh.openedAt = openedAt;
    sh.placedArea = 0;
    sh.items.length = 0;
    return sh;
  }

  /** Drops the placements of order positions >= from. */
  truncate(from: i32): void {
    while (this.sheets.length > 0 && this.sheets[this.sheets.length - 1].openedAt >= from) {
      const s = this.sheets.pop();
      this.stockUsed[s.stock]--;
      this.spare.push(s);
    }
    for (let s = 0; s < this.sheets.length; s++) {
      const sh = this.sheets[s];
      while (sh.items.length > 0 && sh.items[sh.items.length - 1] >= from) {
        const pos = sh.items.pop();
        sh.placedArea -= this.inst.types[this.itemType[this.order[pos]]].area;
      }
    }
  }

  /** Places order positions from..n-1 after dropping what stood there. */
  rebuildFrom(from: i32): void {
    this.truncate(from);
    const n = this.order.length;
    this.cutShort = false;
    const budget = this.budget;
    for (let pos = from; pos < n; pos++) {
      // Search candidates stop at the deadline; the first construction has no budget (it always completes).
      if (budget !== null && (pos & 7) == 0 && budget.expired()) {
        for (let rest = pos; rest < n; rest++) this.sheetOf[rest] = -1;
        this.cutShort = true;
        return;
      }
      this.placeAt(pos);
    }
  }

  private placeAt(pos: i32): void {
    const inst = this.inst;
    const t = this.itemType[this.order[pos]];
    const type = inst.types[t];
    this.sheetOf[pos] = -1;
    for (let s = 0; s < this.sheets.length; s++) {
      const sh = this.sheets[s];
      if (!type.allowed[sh.stock]) continue;
      const st = inst.stock[sh.stock];
      // A sheet whose free area is smaller than the part cannot take it.
      if (!inst.roll && (st.x1 - st.x0) * (st.y1 - st.y0) - sh.placedArea < type.area) continue;
      if (findPlacement(this, sh, t, this.spot)) {
        this.record(pos, s, sh);
        return;
      }
    }
    const stock = this.pickStock(t);
    if (stock < 0) return;
    const sh = this.openSheet(stock, pos);
    this.sheets.push(sh);
    this.stockUsed[stock]++;
    if (findPlacement(this, sh, t, this.spot)) {
      this.record(pos, this.sheets.length - 1, sh);
    } else {
      this.spare.push(this.sheets.pop());
      this.stockUsed[stock]--;
    }
  }

  private record(pos: i32, s: i32, sh: Sheet): void {
    this.sheetOf[pos] = s;
    this.shapeOf[pos] = this.spot.shape;
    this.xs[pos] = this.spot.x;
    this.ys[pos] = this.spot.y;
    sh.items.push(pos);
    sh.placedArea += this.inst.types[this.itemType[this.order[pos]]].area;
  }

  /** Stock row for a new sheet: rolls in request order, sheets the largest that is left (shrunk later). */
  private pickStock(t: i32): i32 {
    const inst = this.inst;
    const type = inst.types[t];
    let best = -1;
    let bestArea: f64 = -1;
    for (let s = 0; s < inst.stock.length; s++) {
      const st = inst.stock[s];
      if (!type.allowed[s] || (st.q >= 0 && this.stockUsed[s] >= st.q)) continue;
      if (!fitsEmpty(inst, s, t)) continue;
      if (inst.roll) return s;
      if (st.area > bestArea) {
        bestArea = st.area;
        best = s;
      }
    }
    return best;
  }

  /** Right-most extent of the parts on a sheet (the used length along x). */
  usedTo(sh: Sheet): f64 {
    const st = this.inst.stock[sh.stock];
    let m = st.x0;
    for (let k = 0; k < sh.items.length; k++) {
      const pos = sh.items[k];
      m = Math.max(m, this.xs[pos] + this.placedShape(pos).w);
    }
    return m;
  }

  unplaced(): i32 {
    let u = 0;
    for (let i = 0; i < this.sheetOf.length; i++) if (this.sheetOf[i] < 0) u++;
    return u;
  }

  /**
   * Lower is better: left-out parts first, then sheets, then stock area used, where the last
   * sheet (and every roll) counts only up to its used length so emptying it pays.
   */
  cost(): f64 {
    const inst = this.inst;
    let maxArea: f64 = 1;
    for (let s = 0; s < inst.stock.length; s++) {
      const st = inst.stock[s];
      maxArea = Math.max(maxArea, inst.roll ? (st.y1 - st.y0) * inst.scale * 4 : st.area);
    }
    let area: f64 = 0;
    const n = this.sheets.length;
    for (let s = 0; s < n; s++) {
      const sh = this.sheets[s];
      const st = inst.stock[sh.stock];
      if (inst.roll || s == n - 1) area += (this.usedTo(sh) - st.x0) * (st.y1 - st.y0);
      else area += st.area;
    }
    const sheetTerm: f64 = inst.roll ? 0 : <f64>n * maxArea * 2;
    return <f64>this.unplaced() * maxArea * 1e4 + sheetTerm + area;
  }
}

/** Some orientation of type t fits the empty usable region of stock row s (edge clearance kept). */
export function fitsEmpty(inst: Instance, s: i32, t: i32): bool {
  const st = inst.stock[s];
  const shapes = inst.types[t].shapes;
  for (let k = 0; k < shapes.length; k++) {
    if (shapes[k].w + 2 * inst.edge <= st.x1 - st.x0 && shapes[k].h + 2 * inst.edge <= st.y1 - st.y0) return true;
  }
  return false;
}
