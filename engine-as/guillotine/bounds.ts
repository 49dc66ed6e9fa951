// Lower bounds on the number of sheets.
//
// Kerf-inflated area bound per component: in a guillotine pattern every piece together with
// the kerf strip after it (right and above) fits into the usable region grown by one kerf,
// without overlap. So a part costs (l + k)(w + k) of a sheet worth (X + k)(Y + k), and
// ceil(sum of part costs / largest sheet worth) sheets are needed. With k = 0 this is the
// classic area bound. Components are independent, so their bounds add up.

import { Instance } from "./instance";

export function componentLowerBound(inst: Instance, c: i32): i32 {
  const k = inst.kerf;
  let need: f64 = 0;
  for (let i = unchecked(inst.cTypeStart[c]); i < unchecked(inst.cTypeStart[c + 1]); i++) {
    const t = unchecked(inst.cTypes[i]);
    need += <f64>unchecked(inst.tQ[t]) * (unchecked(inst.tL[t]) + k) * (unchecked(inst.tW[t]) + k);
  }
  let cap: f64 = 0;
  for (let i = unchecked(inst.cStockStart[c]); i < unchecked(inst.cStockStart[c + 1]); i++) {
    const s = unchecked(inst.cStocks[i]);
    cap = Math.max(cap, (unchecked(inst.sXL[s]) + k) * (unchecked(inst.sYL[s]) + k));
  }
  if (need <= 0 || cap <= 0) return 0;
  const lb = Math.ceil(need / cap - 1e-9);
  return lb < 1 ? 1 : <i32>Math.min(lb, 1e9);
}
