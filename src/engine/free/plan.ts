// A free (non-guillotine, CNC router) layout -> its plan: the parts, no saw cuts (a router
// follows each part's outline; the record's `cuts` stay empty), and the leftover as
// disjoint rectangles. Leftovers are chosen greedily, largest first, from the maximal empty
// rectangles of the usable region, each at least one kerf away from every part.
import type { EngineFreeRoot, EngineStock } from '../guillotine/types.js';
import type { CutPlan, Piece } from '../guillotine/cut-plan.js';

const EPS = 1e-7;
/** Enough leftovers for any real sheet; keeps the search small on pathological layouts. */
const MAX_OFFCUTS = 32;

export function planFree(stock: EngineStock, root: EngineFreeRoot, kerf: number, minOffcut: number): CutPlan {
  const parts = root.children.map((p) => ({ x: p.x, y: p.y, l: p.l, w: p.w, part: p.part, rot: p.rot }));
  const usable = { x: stock.trim.w1, y: stock.trim.l1, l: root.l, w: stock.w - stock.trim.l1 - stock.trim.l2 };
  // Work in space grown by one kerf right and up: boxes that touch there are a kerf apart.
  let free: Piece[] = [{ x: usable.x, y: usable.y, l: usable.l + kerf, w: usable.w + kerf }];
  for (const p of parts) free = occupy(free, { x: p.x, y: p.y, l: p.l + kerf, w: p.w + kerf });
  const waste: Piece[] = [];
  const side = Math.max(minOffcut, EPS) + kerf;
  while (waste.length < MAX_OFFCUTS) {
    const big = free.filter((r) => r.l + EPS >= side && r.w + EPS >= side).sort((a, b) => b.l * b.w - a.l * a.w || a.y - b.y || a.x - b.x)[0];
    if (!big) break;
    waste.push({ x: big.x, y: big.y, l: big.l - kerf, w: big.w - kerf });
    free = occupy(free, big);
  }
  return { cuts: [], parts, waste };
}

/** Maximal empty rectangles after occupying box b: split what it overlaps, drop what is contained. */
function occupy(free: Piece[], b: Piece): Piece[] {
  const out: Piece[] = [];
  for (const f of free) {
    if (b.x >= f.x + f.l - EPS || b.x + b.l <= f.x + EPS || b.y >= f.y + f.w - EPS || b.y + b.w <= f.y + EPS) {
      out.push(f);
      continue;
    }
    if (b.x > f.x + EPS) out.push({ ...f, l: b.x - f.x });
    if (b.x + b.l < f.x + f.l - EPS) out.push({ ...f, x: b.x + b.l, l: f.x + f.l - b.x - b.l });
    if (b.y > f.y + EPS) out.push({ ...f, w: b.y - f.y });
    if (b.y + b.w < f.y + f.w - EPS) out.push({ ...f, y: b.y + b.w, w: f.y + f.w - b.y - b.w });
  }
  return out.filter((r, i) => !out.some((o, j) => j !== i && contains(o, r) && (!contains(r, o) || j < i)));
}

const contains = (a: Piece, b: Piece): boolean =>
  b.x >= a.x - EPS && b.y >= a.y - EPS && b.x + b.l <= a.x + a.l + EPS && b.y + b.w <= a.y + a.w + EPS;
