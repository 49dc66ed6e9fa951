// First-fit index over the item types of one construction run, in priority order.
//
// A segment tree whose every node keeps a small lower-left staircase (at most P points,
// x ascending, y descending) bounding the (x-extent, y-extent) pairs of the live types
// below it in their allowed orientations. A free X x Y box can hold something below a
// node only if some staircase point is <= (X, Y), so "leftmost type after position p
// that fits" skips whole subtrees, and "nothing fits" is answered near the root. A plain
// per-subtree minimum is too weak for this: a narrow part and a short part in the same
// subtree would pass a box that fits neither. When a staircase has more than P points,
// neighbouring points are merged into their componentwise minimum, which keeps the test
// conservative (it may let a subtree through, never wrongly rejects one).
//
// Types are switched off and on (used up / given back) at the leaf only; tighten() pulls
// the ancestors when a removal becomes final. The stock type of the current fill is
// checked exactly at the leaves (grain and material lists).
//
// There is one index per engine instance (one instance per task), so its state is module
// state read through raw pointers: the hot recursion then touches no managed references,
// which the incremental GC would otherwise spill to its shadow stack on every access.

import { maskOn, typeL, typeW, typeUnion } from "../sheets/instance";

const P: i32 = 8;

// Backing arrays (kept alive here) and their addresses.
let aPx: Float64Array = new Float64Array(2 * P);
let aPy: Float64Array = new Float64Array(2 * P);
let aPc: Int32Array = new Int32Array(2);
let aLeaf: Int32Array = new Int32Array(1);
let aMx: Float64Array = new Float64Array(4 * P);
let aMy: Float64Array = new Float64Array(4 * P);
let px: usize = aPx.dataStart;
let py: usize = aPy.dataStart;
let pc: usize = aPc.dataStart;
let leaf: usize = aLeaf.dataStart;
let mxp: usize = aMx.dataStart;
let myp: usize = aMy.dataStart;
let size: i32 = 1;
let count: i32 = 0;
let stock: i32 = 0;
/** Tree nodes visited: the deterministic work measure of the search. */
let visits: i64 = 0;

@inline function fx(i: i32): f64 {
  return load<f64>(px + (<usize>i << 3));
}
@inline function fy(i: i32): f64 {
  return load<f64>(py + (<usize>i << 3));
}
@inline function cnt(node: i32): i32 {
  return load<i32>(pc + (<usize>node << 2));
}
@inline function setCnt(node: i32, v: i32): void {
  store<i32>(pc + (<usize>node << 2), v);
}
@inline function setPt(i: i32, x: f64, y: f64): void {
  store<f64>(px + (<usize>i << 3), x);
  store<f64>(py + (<usize>i << 3), y);
}

export function fitVisits(): i64 {
  return visits;
}

/** Number of leaves (types) in the index. */
export function fitCount(): i32 {
  return count;
}

/** Stock type whose rules the leaf test applies to. */
export function fitSetStock(s: i32): void {
  stock = s;
}

/** Type at leaf i. */
@inline export function fitLeafType(i: i32): i32 {
  return load<i32>(leaf + (<usize>i << 2));
}

/** Builds the index over types[0..n) (leaf i = types[i]), all on; leafOf[t] gets the leaf. */
export function fitBuild(types: Int32Array, n: i32, leafOf: Int32Array): void {
  let s = 1;
  while (s < n) s <<= 1;
  if (s > aLeaf.length) {
    aLeaf = new Int32Array(s);
    aPx = new Float64Array(2 * s * P);
    aPy = new Float64Array(2 * s * P);
    aPc = new Int32Array(2 * s);
    leaf = aLeaf.dataStart;
    px = aPx.dataStart;
    py = aPy.dataStart;
    pc = aPc.dataStart;
  }
  size = s;
  count = n;
  for (let i = 0; i < n; i++) {
    const t = unchecked(types[i]);
    store<i32>(leaf + (<usize>i << 2), t);
    unchecked((leafOf[t] = i));
    setLeaf(i, true);
  }
  for (let i = n; i < s; i++) setCnt(s + i, 0);
  for (let i = s - 1; i >= 1; i--) pull(i);
}

/**
 * Switches leaf i off (type used up) or back on, touching only the leaf. Ancestors keep
 * their older, more permissive staircases, which is still a valid (conservative) test,
 * and which also stays valid when the leaf comes back. Call fitTighten once a removal is
 * final so the ancestors prune well again.
 */
export function fitSet(i: i32, on: bool): void {
  setLeaf(i, on);
}

/** Recomputes the ancestors of leaf i from its current state. */
export function fitTighten(i: i32): void {
  let node = (size + i) >> 1;
  while (node >= 1) {
    pull(node);
    node >>= 1;
  }
}

function setLeaf(i: i32, on: bool): void {
  const node = size + i;
  if (!on) {
    setCnt(node, 0);
    return;
  }
  const b = node * P;
  const t = fitLeafType(i);
  const m = typeUnion(t);
  const l = typeL(t);
  const w = typeW(t);
  let c = 0;
  // Points sorted by x: rot 0 is (l, w), rot 1 is (w, l).
  if (m == 3) {
    setPt(b, Math.min(l, w), Math.max(l, w));
    c = 1;
    if (l != w) {
      setPt(b + 1, Math.max(l, w), Math.min(l, w));
      c = 2;
    }
  } else if (m == 1) {
    setPt(b, l, w);
    c = 1;
  } else if (m == 2) {
    setPt(b, w, l);
    c = 1;
  }
  setCnt(node, c);
}

/** Node staircase = staircase of the children's points, coarsened to P points. */
function pull(node: i32): void {
  const a = node << 1;
  const bn = a | 1;
  const na = cnt(a);
  const nb = cnt(bn);
  const out = node * P;
  if (nb == 0 || na == 0) {
    const src = (nb == 0 ? a : bn) * P;
    const k = nb == 0 ? na : nb;
    for (let j = 0; j < k; j++) setPt(out + j, fx(src + j), fy(src + j));
    setCnt(node, k);
    return;
  }
  // Merge by x (then y), keeping only points lower than every point to their left.
  let i = 0;
  let j = 0;
  let m = 0;
  let bestY = Infinity;
  const ab = a * P;
  const bb = bn * P;
  while (i < na || j < nb) {
    let x: f64;
    let y: f64;
    let takeA = j >= nb;
    if (!takeA && i < na) {
      const xa = fx(ab + i);
      const xb = fx(bb + j);
      takeA = xa < xb || (xa == xb && fy(ab + i) <= fy(bb + j));
    }
    if (takeA) {
      x = fx(ab + i);
      y = fy(ab + i);
      i++;
    } else {
      x = fx(bb + j);
      y = fy(bb + j);
      j++;
    }
    if (y < bestY) {
      bestY = y;
      store<f64>(mxp + (<usize>m << 3), x);
      store<f64>(myp + (<usize>m << 3), y);
      m++;
    }
  }
  if (m <= P) {
    for (let k = 0; k < m; k++) setPt(out + k, load<f64>(mxp + (<usize>k << 3)), load<f64>(myp + (<usize>k << 3)));
    setCnt(node, m);
    return;
  }
  // Coarsen: each group of neighbours becomes (its smallest x, its smallest y).
  for (let g = 0; g < P; g++) {
    const lo = (g * m) / P;
    const hi = ((g + 1) * m) / P - 1;
    setPt(out + g, load<f64>(mxp + (<usize>lo << 3)), load<f64>(myp + (<usize>hi << 3)));
  }
  setCnt(node, P);
}

/** Whether the staircase of `node` admits an X x Y box. */
@inline function admits(node: i32, X: f64, Y: f64): bool {
  const c = cnt(node);
  const b = node * P;
  // x ascending, y descending: the last point with x <= X has the lowest y among them.
  let k = -1;
  while (k + 1 < c && fx(b + k + 1) <= X) k++;
  return k >= 0 && fy(b + k) <= Y;
}

/** Whether anything at all could fit X x Y. */
export function fitAny(X: f64, Y: f64): bool {
  return count > 0 && admits(1, X, Y);
}

/** Leftmost leaf at position >= from whose type fits X x Y on the current stock, or -1. X, Y include the tolerance. */
export function fitFirst(from: i32, X: f64, Y: f64): i32 {
  if (from >= count) return -1;
  return find(1, 0, size - 1, from, X, Y);
}

function find(node: i32, lo: i32, hi: i32, from: i32, X: f64, Y: f64): i32 {
  if (hi < from) return -1;
  visits++;
  if (!admits(node, X, Y)) return -1;
  if (lo == hi) return fitMask(lo, X, Y) != 0 ? lo : -1;
  const mid = (lo + hi) >> 1;
  const r = find(node << 1, lo, mid, from, X, Y);
  if (r >= 0) return r;
  return find((node << 1) | 1, mid + 1, hi, from, X, Y);
}

/** Orientations (bit mask) in which leaf i fits X x Y on the current stock type. */
export function fitMask(i: i32, X: f64, Y: f64): i32 {
  const t = fitLeafType(i);
  const m = maskOn(t, stock);
  if (m == 0) return 0;
  const l = typeL(t);
  const w = typeW(t);
  let r = 0;
  if (m & 1 && l <= X && w <= Y) r |= 1;
  if (m & 2 && w <= X && l <= Y) r |= 2;
  return r;
}
