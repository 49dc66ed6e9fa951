// Identical input lines of a strip job (same size and allowed orientations) as one part type
// with their quantities summed: the best fit scans types, so a job sent as thousands of
// single lines costs what its distinct sizes cost. Placements name a type; assignParts hands
// each one back to an input line, lines in input order.

import { Node, KIND_PART } from "./strip-node";

export class PartTypes {
  n: i32 = 0;
  pl: Float64Array;
  pw: Float64Array;
  q: Int32Array;
  mask: Int32Array;
  /** Input lines of type t: line[start[t] .. start[t + 1]). */
  start: Int32Array;
  line: Int32Array = new Int32Array(0);
  private lineQ: Int32Array = new Int32Array(0);

  /** `lines` lines of l, w, q, mask from input[at] (the strip input's part block). */
  constructor(input: Float64Array, at: i32, lines: i32) {
    const pl = new Float64Array(lines);
    const pw = new Float64Array(lines);
    const pq = new Int32Array(lines);
    const pm = new Int32Array(lines);
    for (let i = 0; i < lines; i++) {
      pl[i] = input[at + 4 * i];
      pw[i] = input[at + 4 * i + 1];
      pq[i] = max<i32>(0, <i32>input[at + 4 * i + 2]);
      pm[i] = <i32>input[at + 4 * i + 3];
    }
    const typeOf = new Int32Array(lines);
    const first = new Int32Array(lines);
    let nt = 0;
    for (let i = 0; i < lines; i++) {
      let t = -1;
      for (let j = 0; j < nt; j++) {
        const r = first[j];
        if (pl[r] == pl[i] && pw[r] == pw[i] && pm[r] == pm[i]) {
          t = j;
          break;
        }
      }
      if (t < 0) {
        t = nt++;
        first[t] = i;
      }
      typeOf[i] = t;
    }
    this.n = nt;
    this.pl = new Float64Array(nt);
    this.pw = new Float64Array(nt);
    this.q = new Int32Array(nt);
    this.mask = new Int32Array(nt);
    this.start = new Int32Array(nt + 1);
    for (let t = 0; t < nt; t++) {
      const r = first[t];
      this.pl[t] = pl[r];
      this.pw[t] = pw[r];
      this.mask[t] = pm[r];
    }
    for (let i = 0; i < lines; i++) {
      this.q[typeOf[i]] += pq[i];
      this.start[typeOf[i] + 1]++;
    }
    for (let t = 0; t < nt; t++) this.start[t + 1] += this.start[t];
    this.line = new Int32Array(lines);
    const fill = new Int32Array(nt);
    for (let i = 0; i < lines; i++) this.line[this.start[typeOf[i]] + fill[typeOf[i]]++] = i;
    this.lineQ = pq;
  }

  /** Replaces the type in every part node of the tree by an input line with quantity left. */
  assignParts(root: Node): void {
    const left = new Int32Array(this.lineQ.length);
    left.set(this.lineQ);
    const at = new Int32Array(this.n);
    this.assign(root, left, at);
  }

  private assign(node: Node, left: Int32Array, at: Int32Array): void {
    if (node.kind == KIND_PART) {
      const t = node.part;
      let m = this.start[t] + at[t];
      // The last line absorbs any excess, so every node names a line of its type.
      while (left[this.line[m]] <= 0 && m + 1 < this.start[t + 1]) m++;
      at[t] = m - this.start[t];
      left[this.line[m]]--;
      node.part = this.line[m];
      return;
    }
    for (let i = 0; i < node.children.length; i++) this.assign(node.children[i], left, at);
  }
}
