// 2D convex hull (monotone chain) and the minimum-area enclosing rectangle over hull edge
// directions, so a panel turned in its own plane measures its true length and width.

function less(u: Float64Array, v: Float64Array, a: i32, b: i32): bool {
  const ua = unchecked(u[a]), ub = unchecked(u[b]);
  return ua < ub || (ua == ub && unchecked(v[a]) < unchecked(v[b]));
}

function sortIdx(idx: Int32Array, u: Float64Array, v: Float64Array, lo: i32, hi: i32): void {
  while (hi - lo > 16) {
    const mid = lo + ((hi - lo) >> 1);
    const p = unchecked(idx[mid]);
    let i = lo, j = hi;
    while (i <= j) {
      while (less(u, v, unchecked(idx[i]), p)) i++;
      while (less(u, v, p, unchecked(idx[j]))) j--;
      if (i <= j) { const t = unchecked(idx[i]); unchecked(idx[i] = idx[j]); unchecked(idx[j] = t); i++; j--; }
    }
    if (j - lo < hi - i) { sortIdx(idx, u, v, lo, j); lo = i; } else { sortIdx(idx, u, v, i, hi); hi = j; }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const t = unchecked(idx[i]);
    let j = i - 1;
    while (j >= lo && less(u, v, t, unchecked(idx[j]))) { unchecked(idx[j + 1] = idx[j]); j--; }
    unchecked(idx[j + 1] = t);
  }
}

@inline function cross(u: Float64Array, v: Float64Array, o: i32, a: i32, b: i32): f64 {
  return (unchecked(u[a]) - unchecked(u[o])) * (unchecked(v[b]) - unchecked(v[o]))
    - (unchecked(v[a]) - unchecked(v[o])) * (unchecked(u[b]) - unchecked(u[o]));
}

/** Hull vertex indices, counter-clockwise. */
export function convexHull(u: Float64Array, v: Float64Array, n: i32): Int32Array {
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) unchecked(idx[i] = i);
  if (n < 3) return idx;
  sortIdx(idx, u, v, 0, n - 1);
  const hull = new Int32Array(2 * n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const p = unchecked(idx[i]);
    while (k >= 2 && cross(u, v, unchecked(hull[k - 2]), unchecked(hull[k - 1]), p) <= 0) k--;
    unchecked(hull[k++] = p);
  }
  const lower = k + 1;
  for (let i = n - 2; i >= 0; i--) {
    const p = unchecked(idx[i]);
    while (k >= lower && cross(u, v, unchecked(hull[k - 2]), unchecked(hull[k - 1]), p) <= 0) k--;
    unchecked(hull[k++] = p);
  }
  return hull.subarray(0, k - 1);
}

export class Rect {
  dx: f64 = 1; dy: f64 = 0;   // first side direction
  min0: f64 = 0; max0: f64 = 0; // extent along (dx, dy)
  min1: f64 = 0; max1: f64 = 0; // extent along (-dy, dx)
  hullArea: f64 = 0;
}

/** Minimum-area rectangle: one side lies on a hull edge. Very large hulls are sampled. */
export function minAreaRect(u: Float64Array, v: Float64Array, hull: Int32Array): Rect {
  const r = new Rect();
  const h = hull.length;
  if (h == 0) return r;
  let area = 0.0;
  for (let i = 0; i < h; i++) {
    const a = unchecked(hull[i]), b = unchecked(hull[(i + 1) % h]);
    area += unchecked(u[a]) * unchecked(v[b]) - unchecked(u[b]) * unchecked(v[a]);
  }
  r.hullArea = Math.abs(area) * 0.5;
  let best = Infinity;
  const step = h > 2048 ? h / 2048 : 1;
  for (let i = 0; i < h; i += step) {
    const a = unchecked(hull[i]), b = unchecked(hull[(i + 1) % h]);
    let ex = unchecked(u[b]) - unchecked(u[a]), ey = unchecked(v[b]) - unchecked(v[a]);
    const len = Math.sqrt(ex * ex + ey * ey);
    if (len < 1e-9) continue;
    ex /= len; ey /= len;
    let mn0 = Infinity, mx0 = -Infinity, mn1 = Infinity, mx1 = -Infinity;
    for (let j = 0; j < h; j++) {
      const p = unchecked(hull[j]);
      const pu = unchecked(u[p]), pv = unchecked(v[p]);
      const s0 = pu * ex + pv * ey, s1 = -pu * ey + pv * ex;
      if (s0 < mn0) mn0 = s0; if (s0 > mx0) mx0 = s0;
      if (s1 < mn1) mn1 = s1; if (s1 > mx1) mx1 = s1;
    }
    const ar = (mx0 - mn0) * (mx1 - mn1);
    // Prefer the earlier (axis-like) direction on near ties so boxes measure without noise.
    if (ar < best * (1 - 1e-9)) {
      best = ar;
      r.dx = ex; r.dy = ey; r.min0 = mn0; r.max0 = mx0; r.min1 = mn1; r.max1 = mx1;
    }
  }
  return r;
}
