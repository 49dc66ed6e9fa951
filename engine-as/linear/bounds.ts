// Cheap lower bounds on the objective: the continuous bound and Martello-Toth L2. Both
// relax every bar to the longest stock length available (and every part to any bar), so
// they stay valid with several lengths, compatibilities and limited quantities.

import { Instance } from "./instance";

/** Continuous bound: total item size over the most economical capacity. */
export function continuousBound(inst: Instance): f64 {
  let total: f64 = 0;
  for (let i = 0; i < inst.nI; i++) total += inst.size[i] * <f64>inst.dem[i];
  if (total == 0) return 0;
  let best: f64 = Infinity;
  for (let t = 0; t < inst.nT; t++) {
    if (inst.qty[t] == 0) continue;
    const r = inst.weight[t] / inst.cap[t];
    if (r < best) best = r;
  }
  return best == Infinity ? 0 : total * best;
}

/** Martello-Toth L2 on bar counts for capacity c; item types with demands. O(m^2). */
export function l2Count(inst: Instance, c: f64): i32 {
  const n = inst.nI;
  const eps = inst.eps;
  let best: i32 = 0;
  // Candidate alphas: 0 and every item size up to c/2 (every k-th for many item types, so
  // the bound stays O(m^2) with m <= ~2000).
  const step = n > 2000 ? n / 2000 + 1 : 1;
  for (let a = -1; a < n; a += a < 0 ? 1 : step) {
    let alpha: f64 = 0;
    if (a >= 0) {
      if (inst.dem[a] == 0 || inst.size[a] > c * 0.5 + eps) continue;
      alpha = inst.size[a];
    }
    let n1: i32 = 0;
    let n2: i32 = 0;
    let s2: f64 = 0;
    let s3: f64 = 0;
    for (let i = 0; i < n; i++) {
      const d = inst.dem[i];
      if (d == 0) continue;
      const s = inst.size[i];
      if (s > c - alpha + eps) n1 += d;
      else if (s > c * 0.5 + eps) {
        n2 += d;
        s2 += s * <f64>d;
      } else if (s >= alpha - eps) s3 += s * <f64>d;
    }
    const room = <f64>n2 * c - s2;
    const extra = s3 - room;
    let lb = n1 + n2;
    if (extra > eps) lb += <i32>Math.ceil(extra / c - 1e-9);
    if (lb > best) best = lb;
  }
  return best;
}

/** Best of the cheap bounds on the objective (bar count, or cost). */
export function cheapBound(inst: Instance): f64 {
  let maxCap: f64 = 0;
  let minW: f64 = Infinity;
  for (let t = 0; t < inst.nT; t++) {
    if (inst.qty[t] == 0) continue;
    if (inst.cap[t] > maxCap) maxCap = inst.cap[t];
    if (inst.weight[t] < minW) minW = inst.weight[t];
  }
  if (maxCap == 0) return 0;
  let lb = continuousBound(inst);
  const l2 = <f64>l2Count(inst, maxCap) * minW;
  if (l2 > lb) lb = l2;
  return lb;
}

/** Rounds an LP or continuous value up when objective values are integral. */
export function roundBound(inst: Instance, v: f64): f64 {
  if (!inst.integral) return v * (1.0 - 1e-9);
  return Math.ceil(v - 1e-6);
}
