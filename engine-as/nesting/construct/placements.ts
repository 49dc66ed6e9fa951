// Where the parts of an order stand: the part of a layout the bottom-left fill reads (blf.ts),
// apart from the Layout that drives the fill (layout.ts), so neither imports the other.

import { Shape } from "../collision/shape";
import { Instance } from "../instance";

export class Sheet {
  stock: i32;
  /** Order position that opened this sheet. */
  openedAt: i32;
  /** Order positions placed on the sheet, increasing. */
  items: Array<i32> = new Array<i32>();
  placedArea: f64 = 0;
  constructor(stock: i32, openedAt: i32) {
    this.stock = stock;
    this.openedAt = openedAt;
  }

  /** Makes this record a copy of `o`, keeping its own items array. */
  copyFrom(o: Sheet): void {
    this.stock = o.stock;
    this.openedAt = o.openedAt;
    this.placedArea = o.placedArea;
    const n = o.items.length;
    this.items.length = n;
    for (let i = 0; i < n; i++) unchecked((this.items[i] = unchecked(o.items[i])));
  }
}

export class Placements {
  inst: Instance;
  /** Part type of each item (instances of one type share it). */
  itemType: Int32Array = new Int32Array(0);
  /** The item at each order position. */
  order: Int32Array = new Int32Array(0);
  /** Per order position: sheet (-1 = not placed), shape index, and where the shape's box starts. */
  sheetOf: Int32Array = new Int32Array(0);
  shapeOf: Int32Array = new Int32Array(0);
  xs: Float64Array = new Float64Array(0);
  ys: Float64Array = new Float64Array(0);

  constructor(inst: Instance, itemType: Int32Array) {
    this.inst = inst;
    const n = itemType.length;
    this.itemType = itemType;
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    this.sheetOf = new Int32Array(n);
    this.shapeOf = new Int32Array(n);
    this.xs = new Float64Array(n);
    this.ys = new Float64Array(n);
  }

  /** The shape (orientation) the part at order position `pos` is placed with. */
  @inline
  placedShape(pos: i32): Shape {
    return unchecked(unchecked(this.inst.types[unchecked(this.itemType[unchecked(this.order[pos])])]).shapes[unchecked(this.shapeOf[pos])]);
  }
}
