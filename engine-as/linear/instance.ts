// Flat input -> the 1D instance. Kerf is folded in here once, with the standard trick: a bar
// of usable length L holding parts p1..pk needs sum(p) + (k-1)*kerf <= L, which is the same
// as sum(p + kerf) <= L + kerf. So every item size is p + kerf and every capacity L + kerf,
// and the rest of the engine never sees the blade.
//
// Input layout (declared in linear/format.ts, which the service's boundary imports too):
//   header: version, nT stock rows, nI part rows, kerf, seed, budgetMs, stockSelection
//   (0 efficiency, 1 smallest), objective (0 count, 1 cost), effort (pivots, 0 = no limit),
//   searchMs (a stalled search goes on until then, 0 = none)
//   then nT x [usable length, quantity (-1 unlimited), cost]
//   then nI x [length, demand]
//   then nI*nT allowed flags (row i, column t).

import * as F from "./format";

export class Instance {
  nT: i32 = 0;
  nI: i32 = 0;
  kerf: f64 = 0;
  seed: f64 = 1;
  budgetMs: f64 = 0;
  /** LP pivots the search may take (0 = no limit): a limit the clock does not move. */
  effort: f64 = 0;
  /** Until this many ms have passed a stalled search goes on (searchTime); 0 = it stops at once. */
  searchMs: f64 = 0;
  smallest: bool = false;
  byCost: bool = false;
  /** Capacity with the kerf trick (usable + kerf), quantity (-1 = unlimited), weight in the objective. */
  cap: Float64Array = new Float64Array(0);
  qty: Int32Array = new Int32Array(0);
  weight: Float64Array = new Float64Array(0);
  /** Item size with the kerf trick (length + kerf) and demand. */
  size: Float64Array = new Float64Array(0);
  dem: Int32Array = new Int32Array(0);
  /** Demand as requested (dem is zeroed for items no bar can hold). */
  want: Int32Array = new Int32Array(0);
  allowed: Uint8Array = new Uint8Array(0);
  /** Fit tolerance, relative to the largest capacity (lengths are floats). */
  eps: f64 = 1e-9;
  /** All weights integral: objective values are integers and bounds may be rounded up. */
  integral: bool = true;

  @inline ok(i: i32, t: i32): bool {
    return unchecked(this.allowed[i * this.nT + t]) != 0;
  }
}

export function decode(a: Float64Array): Instance | null {
  if (a.length < F.HEADER_LEN || a[F.H_VERSION] != <f64>F.FORMAT_VERSION) return null;
  const inst = new Instance();
  const nT = <i32>a[F.H_NSTOCK];
  const nI = <i32>a[F.H_NPARTS];
  if (nT < 0 || nI < 0 || a.length < F.HEADER_LEN + nT * F.STOCK_STRIDE + nI * F.PART_STRIDE + nI * nT) return null;
  inst.nT = nT;
  inst.nI = nI;
  inst.kerf = a[F.H_KERF];
  inst.seed = a[F.H_SEED];
  inst.budgetMs = a[F.H_BUDGET];
  inst.effort = a[F.H_EFFORT] > 0 ? a[F.H_EFFORT] : 0;
  inst.searchMs = a[F.H_SEARCH_MS] > 0 ? a[F.H_SEARCH_MS] : 0;
  inst.smallest = a[F.H_SELECTION] == 1;
  inst.byCost = a[F.H_OBJECTIVE] == 1;
  inst.cap = new Float64Array(nT);
  inst.qty = new Int32Array(nT);
  inst.weight = new Float64Array(nT);
  let maxCap: f64 = 1;
  for (let t = 0; t < nT; t++) {
    const b = F.HEADER_LEN + t * F.STOCK_STRIDE;
    inst.cap[t] = a[b] + inst.kerf;
    inst.qty[t] = a[b + 1] < 0 ? -1 : <i32>a[b + 1];
    inst.weight[t] = inst.byCost ? a[b + 2] : 1.0;
    if (inst.weight[t] != Math.floor(inst.weight[t])) inst.integral = false;
    if (inst.cap[t] > maxCap) maxCap = inst.cap[t];
  }
  inst.eps = 1e-9 * maxCap;
  inst.size = new Float64Array(nI);
  inst.dem = new Int32Array(nI);
  const ib = F.HEADER_LEN + nT * F.STOCK_STRIDE;
  for (let i = 0; i < nI; i++) {
    inst.size[i] = a[ib + i * F.PART_STRIDE] + inst.kerf;
    inst.dem[i] = <i32>a[ib + i * F.PART_STRIDE + 1];
  }
  inst.want = new Int32Array(nI);
  for (let i = 0; i < nI; i++) inst.want[i] = inst.dem[i];
  inst.allowed = new Uint8Array(nI * nT);
  const ab = ib + nI * F.PART_STRIDE;
  for (let k = 0; k < nI * nT; k++) inst.allowed[k] = a[ab + k] != 0 ? 1 : 0;
  // An item no allowed bar can hold is never demanded: the host reports it as unusable.
  for (let i = 0; i < nI; i++) {
    let any = false;
    for (let t = 0; t < nT; t++) {
      if (inst.ok(i, t) && inst.size[i] <= inst.cap[t] + inst.eps && inst.qty[t] != 0) any = true;
      else inst.allowed[i * nT + t] = 0;
    }
    if (!any) inst.dem[i] = 0;
  }
  return inst;
}
