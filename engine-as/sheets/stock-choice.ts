// Which stock type the next sheet is cut from: the same rules serve the guillotine
// constructor (construct.ts) and the free packer (free/pack.ts), which both fill one sheet of
// every candidate stock type and keep the best; only how a sheet is filled differs.

import { Instance } from "./instance";

/** Stock types tried per sheet when a component has many: the largest and smallest halves. */
const CAND_CAP: i32 = 8;

/**
 * Writes the candidate stock types of the component whose stock list is
 * cStocks[s0..s0+ns) (largest first) to `cand` and returns how many: every available type,
 * or the largest and smallest halves of CAND_CAP when there are more; with `firstOnly`,
 * just the first available one (a construction hurrying past its deadline). With `offcuts`,
 * only the available offcut types (the shop's leftovers, filled before new stock), else
 * only new stock; the caller asks for offcuts first and for new stock once none takes a part.
 */
export function candidateStocks(inst: Instance, s0: i32, ns: i32, avail: Int32Array, cand: Int32Array, firstOnly: bool, offcuts: bool = false): i32 {
  const want = offcuts ? 1 : 0;
  let navail = 0;
  for (let i = 0; i < ns; i++) {
    const s = unchecked(inst.cStocks[s0 + i]);
    if (unchecked(avail[s]) != 0 && unchecked(inst.sOffcut[s]) == want) navail++;
  }
  let nc = 0;
  let k = 0;
  for (let i = 0; i < ns; i++) {
    const s = unchecked(inst.cStocks[s0 + i]);
    if (unchecked(avail[s]) == 0 || unchecked(inst.sOffcut[s]) != want) continue;
    if (navail <= CAND_CAP || k < CAND_CAP / 2 || k >= navail - CAND_CAP / 2) unchecked((cand[nc++] = s));
    k++;
    if (firstOnly && nc > 0) break;
  }
  return nc;
}

/**
 * Efficiency rule: whether candidate a (stock cand[a], placed area placedArea[a], count
 * placedCount[a]) beats candidate b. Finishing the job (placing all `remaining`) wins unless
 * it costs more than one more small sheet; else the fuller sheet, then the cheaper per area.
 */
export function efficiencyPrefers(
  inst: Instance,
  cand: Int32Array,
  placedArea: Float64Array,
  placedCount: Int32Array,
  nc: i32,
  a: i32,
  b: i32,
  remaining: i64,
): bool {
  const sa = unchecked(cand[a]);
  const sb = unchecked(cand[b]);
  const areaA = unchecked(inst.sArea[sa]);
  const areaB = unchecked(inst.sArea[sb]);
  const allA = <i64>unchecked(placedCount[a]) == remaining;
  const allB = <i64>unchecked(placedCount[b]) == remaining;
  const tol = 1e-9 * Math.max(areaA, areaB);
  if (allA && allB) {
    if (areaA < areaB - tol) return true;
    if (areaB < areaA - tol) return false;
    return unchecked(inst.sCost[sa]) < unchecked(inst.sCost[sb]);
  }
  if (allA != allB) {
    // Finishing now beats a fuller sheet that still needs at least one more (smallest) sheet.
    let minArea = Infinity;
    for (let j = 0; j < nc; j++) minArea = Math.min(minArea, unchecked(inst.sArea[unchecked(cand[j])]));
    if (allA) return areaA <= areaB + minArea + tol;
    return !(areaB <= areaA + minArea + tol);
  }
  const fa = unchecked(placedArea[a]) / areaA;
  const fb = unchecked(placedArea[b]) / areaB;
  if (fa > fb + 1e-12) return true;
  if (fb > fa + 1e-12) return false;
  const ca = unchecked(inst.sCost[sa]) / areaA;
  const cb = unchecked(inst.sCost[sb]) / areaB;
  if (ca < cb - 1e-15) return true;
  if (cb < ca - 1e-15) return false;
  return areaA > areaB + tol; // same fill: the bigger sheet places more now
}
