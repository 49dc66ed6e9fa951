// First-fit index: the item types of one sheet fill, in priority order, in a segment tree
// that keeps per subtree the smallest x-extent, y-extent and longer side over the allowed
// orientations. "Leftmost item after position p that fits a free X x Y box" then prunes
// whole subtrees instead of scanning every type, which keeps fills of 20,000-type
// instances near O(log n) per placement and answers "nothing fits" at the root.

const INF: f64 = Infinity;

export class FitIndex {
  size: i32 = 1;
  n: i32 = 0;
  mx: Float64Array = new Float64Array(2);
  my: Float64Array = new Float64Array(2);
  mm: Float64Array = new Float64Array(2);
  leafType: Int32Array = new Int32Array(1);
  leafL: Float64Array = new Float64Array(1);
  leafW: Float64Array = new Float64Array(1);
  leafMask: Int32Array = new Int32Array(1);
  /** Tree nodes visited: the deterministic work measure of the search. */
  visits: i64 = 0;

  /** Prepares for n leaves; all start empty. */
  begin(n: i32): void {
    let s = 1;
    while (s < n) s <<= 1;
    if (s > this.leafType.length) {
      this.leafType = new Int32Array(s);
      this.leafL = new Float64Array(s);
      this.leafW = new Float64Array(s);
      this.leafMask = new Int32Array(s);
      this.mx = new Float64Array(2 * s);
      this.my = new Float64Array(2 * s);
      this.mm = new Float64Array(2 * s);
    }
    this.size = s;
    this.n = 0;
  }

  /** Appends a leaf; returns its position. */
  add(t: i32, l: f64, w: f64, mask: i32): i32 {
    const i = this.n++;
    unchecked((this.leafType[i] = t));
    unchecked((this.leafL[i] = l));
    unchecked((this.leafW[i] = w));
    unchecked((this.leafMask[i] = mask));
    const node = this.size + i;
    unchecked((this.mx[node] = Math.min(mask & 1 ? l : INF, mask & 2 ? w : INF)));
    unchecked((this.my[node] = Math.min(mask & 1 ? w : INF, mask & 2 ? l : INF)));
    unchecked((this.mm[node] = Math.max(l, w)));
    return i;
  }

  /** Computes the inner nodes once all leaves are added. */
  build(): void {
    const s = this.size;
    for (let i = this.n; i < s; i++) {
      unchecked((this.mx[s + i] = INF));
      unchecked((this.my[s + i] = INF));
      unchecked((this.mm[s + i] = INF));
    }
    for (let i = s - 1; i >= 1; i--) this.pull(i);
  }

  @inline private pull(i: i32): void {
    const a = i << 1;
    const b = a | 1;
    unchecked((this.mx[i] = Math.min(this.mx[a], this.mx[b])));
    unchecked((this.my[i] = Math.min(this.my[a], this.my[b])));
    unchecked((this.mm[i] = Math.min(this.mm[a], this.mm[b])));
  }

  /** Takes a leaf out (its type is used up). */
  remove(i: i32): void {
    let node = this.size + i;
    unchecked((this.mx[node] = INF));
    unchecked((this.my[node] = INF));
    unchecked((this.mm[node] = INF));
    node >>= 1;
    while (node >= 1) {
      this.pull(node);
      node >>= 1;
    }
  }

  /** Whether anything at all could fit X x Y (cheap root test). */
  @inline anyFits(X: f64, Y: f64): bool {
    return unchecked(this.mx[1]) <= X && unchecked(this.my[1]) <= Y && unchecked(this.mm[1]) <= Math.max(X, Y);
  }

  /** Leftmost leaf at position >= from whose type fits X x Y in some allowed orientation, or -1. X, Y include the tolerance. */
  firstFit(from: i32, X: f64, Y: f64): i32 {
    if (from >= this.n) return -1;
    return this.find(1, 0, this.size - 1, from, X, Y, Math.max(X, Y));
  }

  private find(node: i32, lo: i32, hi: i32, from: i32, X: f64, Y: f64, M: f64): i32 {
    if (hi < from) return -1;
    this.visits++;
    if (unchecked(this.mx[node]) > X || unchecked(this.my[node]) > Y || unchecked(this.mm[node]) > M) return -1;
    if (lo == hi) return this.fits(lo, X, Y) != 0 ? lo : -1;
    const mid = (lo + hi) >> 1;
    const r = this.find(node << 1, lo, mid, from, X, Y, M);
    if (r >= 0) return r;
    return this.find((node << 1) | 1, mid + 1, hi, from, X, Y, M);
  }

  /** Orientations (bit mask) in which leaf i fits X x Y. */
  @inline fits(i: i32, X: f64, Y: f64): i32 {
    const m = unchecked(this.leafMask[i]);
    const l = unchecked(this.leafL[i]);
    const w = unchecked(this.leafW[i]);
    let r = 0;
    if (m & 1 && l <= X && w <= Y) r |= 1;
    if (m & 2 && w <= X && l <= Y) r |= 2;
    return r;
  }
}
