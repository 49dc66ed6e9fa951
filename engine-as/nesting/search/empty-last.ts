// Sheets: bottom-left fill leaves gaps on the earlier sheets that the last sheet's parts may
// fill. Each part of the last sheet is dropped, overlapping, into an earlier sheet (the one
// with the most free area first) and the sheet's parts are separated by overlap
// minimisation inside its fixed boundary (Compactor.fitInside). When every part of the last
// sheet found a place, that sheet is gone (and the next last sheet is tried); otherwise the
// layout goes back to how it was. Every accepted layout passed the exact collision test.

import { Budget } from "../../common/clock";
import { Rng } from "../../common/rng";
import { Layout } from "../construct/layout";
import { Compactor } from "./compact";

/** Sweeps one try at fitting one part into one sheet may take. */
const SWEEPS_PER_FIT: i64 = 150;

/** Empties last sheets while it works; returns the sweeps spent. */
export function emptyLastSheets(l: Layout, rng: Rng, budget: Budget, maxSweeps: i64): i64 {
  const inst = l.inst;
  let spent: i64 = 0;
  if (inst.roll) return spent;
  const backup = new Layout(inst, l.itemType);
  while (l.sheets.length >= 2 && spent < maxSweeps && !budget.expired()) {
    backup.copyFrom(l);
    const last = l.sheets.length - 1;
    const moving = l.sheets[last].items.slice(0);
    let all = true;
    for (let k = 0; k < moving.length && all; k++) {
      const pos = moving[k];
      const type = inst.types[l.itemType[l.order[pos]]];
      let placed = false;
      // Earlier sheets by free area, most first (ties: the earlier sheet).
      const tried = new Uint8Array(last);
      for (let round = 0; round < last && !placed; round++) {
        let s = -1;
        let free: f64 = -Infinity;
        for (let c = 0; c < last; c++) {
          if (tried[c] != 0) continue;
          const st = inst.stock[l.sheets[c].stock];
          const f = st.area - l.sheets[c].placedArea;
          if (f > free) {
            free = f;
            s = c;
          }
        }
        tried[s] = 1;
        const sh = l.sheets[s];
        if (free < type.area) break;
        if (!type.allowed[sh.stock]) continue;
        if (spent >= maxSweeps || budget.expired()) break;
        const st = inst.stock[sh.stock];
        // Start the part anywhere on the sheet, in the first turn that fits it.
        let shape = -1;
        for (let i = 0; i < type.shapes.length && shape < 0; i++) {
          if (type.shapes[i].w + 2 * inst.edge <= st.x1 - st.x0 && type.shapes[i].h + 2 * inst.edge <= st.y1 - st.y0) shape = i;
        }
        if (shape < 0) continue;
        const saveS = l.shapeOf[pos];
        const saveX = l.xs[pos];
        const saveY = l.ys[pos];
        const sw = type.shapes[shape].w;
        const shh = type.shapes[shape].h;
        l.shapeOf[pos] = shape;
        l.xs[pos] = st.x0 + inst.edge + rng.float() * (st.x1 - st.x0 - 2 * inst.edge - sw);
        l.ys[pos] = st.y0 + inst.edge + rng.float() * (st.y1 - st.y0 - 2 * inst.edge - shh);
        const members = new Int32Array(sh.items.length + 1);
        for (let i = 0; i < sh.items.length; i++) members[i] = sh.items[i];
        members[sh.items.length] = pos;
        const left = maxSweeps - spent;
        const compactor = new Compactor(l, rng, budget, left < SWEEPS_PER_FIT ? left : SWEEPS_PER_FIT, members, sh.stock);
        const fits = compactor.fitInside();
        spent += compactor.sweeps;
        compactor.release();
        if (fits) {
          moveTo(l, pos, s, type.area);
          placed = true;
        } else {
          l.shapeOf[pos] = saveS;
          l.xs[pos] = saveX;
          l.ys[pos] = saveY;
        }
      }
      all = placed;
    }
    if (!all) {
      l.copyFrom(backup);
      return spent;
    }
    const gone = l.sheets.pop();
    l.stockUsed[gone.stock]--;
  }
  return spent;
}

/** Puts order position `pos` on sheet s (items kept increasing). */
function moveTo(l: Layout, pos: i32, s: i32, area: f64): void {
  const sh = l.sheets[s];
  l.sheetOf[pos] = s;
  let k = sh.items.length;
  sh.items.push(pos);
  while (k > 0 && sh.items[k - 1] > pos) {
    sh.items[k] = sh.items[k - 1];
    k--;
  }
  sh.items[k] = pos;
  sh.placedArea += area;
}
