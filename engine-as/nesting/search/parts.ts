// The parts a separation moves: per part its orientations, the one it is in and where its
// box starts. Snapshots are copies of the three arrays (the orientations are shared).

import { Shape } from "../collision/shape";
import { refAt } from "../geometry/raw";

export class Parts {
  n: i32;
  shapes: Array<Array<Shape>>;
  sh: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  /** The orientation each part is in, and its box size: the hot loops read these flat. */
  cur: Array<Shape>;
  ws: Float64Array;
  hs: Float64Array;

  constructor(shapes: Array<Array<Shape>>) {
    const n = shapes.length;
    this.n = n;
    this.shapes = shapes;
    this.sh = new Int32Array(n);
    this.xs = new Float64Array(n);
    this.ys = new Float64Array(n);
    this.ws = new Float64Array(n);
    this.hs = new Float64Array(n);
    const cur = new Array<Shape>(n);
    for (let p = 0; p < n; p++) cur[p] = shapes[p][0];
    this.cur = cur;
    for (let p = 0; p < n; p++) this.turn(p, 0);
  }

  @inline shape(p: i32): Shape {
    return refAt<Shape>(this.cur.dataStart, p);
  }

  /** Puts part p in orientation si. */
  turn(p: i32, si: i32): void {
    const s = unchecked(unchecked(this.shapes[p])[si]);
    unchecked((this.sh[p] = si));
    unchecked((this.cur[p] = s));
    unchecked((this.ws[p] = s.w));
    unchecked((this.hs[p] = s.h));
  }

  copyFrom(o: Parts): void {
    for (let p = 0; p < this.n; p++) if (unchecked(this.sh[p]) != unchecked(o.sh[p])) this.turn(p, unchecked(o.sh[p]));
    this.xs.set(o.xs);
    this.ys.set(o.ys);
  }

  snapshot(): Parts {
    const c = new Parts(this.shapes);
    c.copyFrom(this);
    return c;
  }

  /** Right-most box edge, at least x0. */
  usedTo(x0: f64): f64 {
    let m = x0;
    for (let p = 0; p < this.n; p++) m = Math.max(m, unchecked(this.xs[p]) + this.shape(p).w);
    return m;
  }
}
