// Flat growable buffers and a deterministic index sort. Patterns and scratch lists live in
// these rather than in object graphs, so copying a pattern is one memory.copy and the GC
// sees a few large blocks instead of thousands of small ones.

export class F64Vec {
  data: Float64Array;
  len: i32 = 0;

  constructor(cap: i32 = 64) {
    this.data = new Float64Array(cap < 4 ? 4 : cap);
  }

  grow(need: i32): void {
    let c = this.data.length << 1;
    while (c < need) c <<= 1;
    const d = new Float64Array(c);
    memory.copy(d.dataStart, this.data.dataStart, <usize>this.len << 3);
    this.data = d;
  }

  @inline reserve(extra: i32): void {
    if (this.len + extra > this.data.length) this.grow(this.len + extra);
  }

  @inline push(v: f64): void {
    if (this.len >= this.data.length) this.grow(this.len + 1);
    unchecked((this.data[this.len++] = v));
  }

  clear(): void {
    this.len = 0;
  }

  /** Exact-size copy of the used part. */
  toArray(): Float64Array {
    const a = new Float64Array(this.len);
    memory.copy(a.dataStart, this.data.dataStart, <usize>this.len << 3);
    return a;
  }
}

export class I32Vec {
  data: Int32Array;
  len: i32 = 0;

  constructor(cap: i32 = 64) {
    this.data = new Int32Array(cap < 4 ? 4 : cap);
  }

  grow(need: i32): void {
    let c = this.data.length << 1;
    while (c < need) c <<= 1;
    const d = new Int32Array(c);
    memory.copy(d.dataStart, this.data.dataStart, <usize>this.len << 2);
    this.data = d;
  }

  @inline push(v: i32): void {
    if (this.len >= this.data.length) this.grow(this.len + 1);
    unchecked((this.data[this.len++] = v));
  }

  @inline get(i: i32): i32 {
    return unchecked(this.data[i]);
  }

  clear(): void {
    this.len = 0;
  }
}

/** Returns an Int32Array of at least n elements, reusing `a` when it is big enough. */
export function ensureI32(a: Int32Array, n: i32): Int32Array {
  if (a.length >= n) return a;
  let c = a.length < 16 ? 16 : a.length;
  while (c < n) c <<= 1;
  return new Int32Array(c);
}

export function ensureF64(a: Float64Array, n: i32): Float64Array {
  if (a.length >= n) return a;
  let c = a.length < 16 ? 16 : a.length;
  while (c < n) c <<= 1;
  return new Float64Array(c);
}

/**
 * Stable bottom-up merge sort of idx[0..n) ascending by key[idx[i]]; equal keys keep their
 * input order, so the result depends only on the data (determinism across runs).
 * `tmp` must hold at least n elements.
 */
export function sortByKey(idx: Int32Array, n: i32, key: Float64Array, tmp: Int32Array): void {
  if (n < 2) return;
  // Short runs by insertion sort, then merge passes.
  const RUN = 16;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = lo + RUN < n ? lo + RUN : n;
    for (let i = lo + 1; i < hi; i++) {
      const v = unchecked(idx[i]);
      const kv = unchecked(key[v]);
      let j = i - 1;
      while (j >= lo && unchecked(key[unchecked(idx[j])]) > kv) {
        unchecked((idx[j + 1] = idx[j]));
        j--;
      }
      unchecked((idx[j + 1] = v));
    }
  }
  let src = idx;
  let dst = tmp;
  for (let width = RUN; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + (width << 1) < n ? lo + (width << 1) : n;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = unchecked(src[i]);
        const b = unchecked(src[j]);
        if (unchecked(key[b]) < unchecked(key[a])) {
          unchecked((dst[k++] = b));
          j++;
        } else {
          unchecked((dst[k++] = a));
          i++;
        }
      }
      while (i < mid) unchecked((dst[k++] = src[i++]));
      while (j < hi) unchecked((dst[k++] = src[j++]));
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== idx) memory.copy(idx.dataStart, src.dataStart, <usize>n << 2);
}
