// Sheets of several sizes: new sheets are opened on the largest stock left, so once the
// layout is final each sheet is re-packed, parts in the same order, on the smallest stock
// row that takes all of them (within its quantity); the first that fits replaces it.

import { Budget } from "../../common/clock";
import { Layout } from "../construct/layout";
import { Sheet } from "../construct/placements";
import { findPlacement } from "../construct/blf";

export function downsizeSheets(l: Layout, budget: Budget): void {
  const inst = l.inst;
  if (inst.roll) return;
  const nStock = inst.stock.length;
  // Stock rows by area, smallest first (ties by row).
  const rowsByArea = new Array<i32>(0);
  for (let r = 0; r < nStock; r++) {
    let k = rowsByArea.length;
    rowsByArea.push(r);
    while (k > 0 && inst.stock[rowsByArea[k - 1]].area > inst.stock[r].area) {
      rowsByArea[k] = rowsByArea[k - 1];
      k--;
    }
    rowsByArea[k] = r;
  }
  for (let s = 0; s < l.sheets.length; s++) {
    if (budget.expired()) return;
    const sheet = l.sheets[s];
    const items = sheet.items;
    const n = items.length;
    const saveX = new Float64Array(n);
    const saveY = new Float64Array(n);
    const saveS = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      saveX[k] = l.xs[items[k]];
      saveY[k] = l.ys[items[k]];
      saveS[k] = l.shapeOf[items[k]];
    }
    for (let i = 0; i < nStock; i++) {
      const r = rowsByArea[i];
      const st = inst.stock[r];
      if (st.area >= inst.stock[sheet.stock].area) break;
      if (st.q >= 0 && l.stockUsed[r] >= st.q) continue;
      let allowed = true;
      for (let k = 0; k < n && allowed; k++) allowed = inst.types[l.itemType[l.order[items[k]]]].allowed[r] == 1;
      if (!allowed) continue;
      const trial = new Sheet(r, sheet.openedAt);
      let fits = true;
      for (let k = 0; k < n; k++) {
        const pos = items[k];
        if (!findPlacement(l, trial, l.itemType[l.order[pos]], l.spot)) {
          fits = false;
          break;
        }
        l.xs[pos] = l.spot.x;
        l.ys[pos] = l.spot.y;
        l.shapeOf[pos] = l.spot.shape;
        trial.items.push(pos);
        trial.placedArea += inst.types[l.itemType[l.order[pos]]].area;
      }
      if (fits) {
        l.stockUsed[sheet.stock]--;
        l.stockUsed[r]++;
        l.sheets[s] = trial;
        break;
      }
      for (let k = 0; k < n; k++) {
        l.xs[items[k]] = saveX[k];
        l.ys[items[k]] = saveY[k];
        l.shapeOf[items[k]] = saveS[k];
      }
    }
  }
}
