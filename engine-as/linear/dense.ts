// Dense linear algebra shared by the LP (master.ts) and the proof's LP (prove.ts): row
// updates two values per instruction (SIMD), the basis inverse rebuilt by Gauss-Jordan, and
// the demand perturbation both simplexes use against degenerate pivots.

/** Inverse entries below this are flushed to 0. */
const TINY: f64 = 1e-14;
/** A pivot below this leaves the matrix singular. */
const SINGULAR: f64 = 1e-12;

/** A tiny distinct amount added to each demand: no degenerate pivots (and no cycling). */
@inline export function perturbation(r: i32): f64 {
  return 1e-7 * (1.0 + <f64>((<u32>r * 2654435761) % 1000) / 1000.0);
}

/**
 * dst[j] -= f * src[j] for j in [from, to), two values per step (SIMD). With `flush`, tiny
 * results become 0: subnormal floats make every later pass many times slower.
 */
@inline
export function subScaledRow(dst: usize, src: usize, f: f64, from: i32, to: i32, flush: bool): void {
  const fv = f64x2.splat(f);
  const tiny = f64x2.splat(TINY);
  let j = from;
  for (; j + 1 < to; j += 2) {
    const o = <usize>j << 3;
    const v = f64x2.sub(v128.load(dst + o), f64x2.mul(fv, v128.load(src + o)));
    v128.store(dst + o, flush ? v128.andnot(v, f64x2.lt(f64x2.abs(v), tiny)) : v);
  }
  if (j < to) {
    const o = <usize>j << 3;
    const v = load<f64>(dst + o) - f * load<f64>(src + o);
    store<f64>(dst + o, flush && Math.abs(v) < TINY ? 0 : v);
  }
}

/**
 * inv = a^-1 for the m x m matrix a (row-major; a is consumed), by Gauss-Jordan with partial
 * pivoting: rows of inv indexed by basis position when a's columns are the basic columns.
 * False when a is singular (inv is then not an inverse).
 */
export function invert(a: Float64Array, inv: Float64Array, m: i32): bool {
  const mm = m * m;
  for (let k = 0; k < mm; k++) unchecked((inv[k] = 0));
  for (let k = 0; k < m; k++) unchecked((inv[k * m + k] = 1));
  const ad = a.dataStart;
  for (let c = 0; c < m; c++) {
    let p = c;
    let best = Math.abs(load<f64>(ad + (<usize>(c * m + c) << 3)));
    for (let r = c + 1; r < m; r++) {
      const v = Math.abs(load<f64>(ad + (<usize>(r * m + c) << 3)));
      if (v > best) { best = v; p = r; }
    }
    if (best < SINGULAR) return false;
    if (p != c) {
      for (let j = 0; j < m; j++) {
        let t = unchecked(a[c * m + j]); unchecked((a[c * m + j] = a[p * m + j])); unchecked((a[p * m + j] = t));
        t = unchecked(inv[c * m + j]); unchecked((inv[c * m + j] = inv[p * m + j])); unchecked((inv[p * m + j] = t));
      }
    }
    const d = unchecked(a[c * m + c]);
    const cb = c * m;
    for (let j = 0; j < m; j++) { unchecked((a[cb + j] /= d)); unchecked((inv[cb + j] /= d)); }
    for (let r = 0; r < m; r++) {
      if (r == c) continue;
      const rb = r * m;
      const f = load<f64>(ad + (<usize>(rb + c) << 3));
      if (f == 0) continue;
      // a's columns left of c are already eliminated: start at c.
      subScaledRow(ad + (<usize>rb << 3), ad + (<usize>cb << 3), f, c, m, false);
      subScaledRow(inv.dataStart + (<usize>rb << 3), inv.dataStart + (<usize>cb << 3), f, 0, m, true);
    }
  }
  return true;
}
