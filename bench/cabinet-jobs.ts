// The synthetic cabinet jobs of `make bench-engine` (bench/engine.ts) and of the shop-features
// bench: a kitchen of base and wall cabinets in 18 mm board (sides, bottom and top, shelves,
// rails, doors, drawer fronts), 100-300 parts, the same for the same seed.
import { seededRandom } from './seeded.js';

export interface CabinetJob {
  /** Part rows, one per size (longer side first). */
  rows: { l: number; w: number; q: number }[];
  /** Drawer stacks per front width: each is one 140 and two 280 fronts, cut from one piece in the shop. */
  drawerStacks: Map<number, number>;
}

export function cabinetRows(seed: number): CabinetJob {
  const r = seededRandom(seed);
  const widths = [300, 400, 450, 500, 600, 800, 900];
  const target = 100 + Math.floor(r() * 201);
  const rows = new Map<string, number>();
  const drawerStacks = new Map<number, number>();
  const add = (l: number, w: number, q = 1) => {
    const k = `${Math.max(l, w)}x${Math.min(l, w)}`;
    rows.set(k, (rows.get(k) ?? 0) + q);
  };
  let n = 0;
  while (n < target) {
    const W = widths[Math.floor(r() * widths.length)]!;
    const wall = r() < 0.4;
    const H = wall ? 720 : 780;
    const D = wall ? 320 : 560;
    add(H, D, 2);
    add(W - 36, D, 2);
    const shelves = wall ? 2 : 1;
    add(W - 38, D - 40, shelves);
    add(W - 36, 100, wall ? 0 : 2);
    const doors = W >= 600 ? 2 : 1;
    if (!wall && r() < 0.3) {
      add(W - 4, 140, 1);
      add(W - 4, 280, 2);
      drawerStacks.set(W - 4, (drawerStacks.get(W - 4) ?? 0) + 1);
      n += 3;
    } else {
      add(H - 4, W / doors - 4, doors);
      n += doors;
    }
    n += 4 + shelves + (wall ? 0 : 2);
  }
  return {
    rows: [...rows].map(([k, q]) => {
      const [l, w] = k.split('x').map(Number) as [number, number];
      return { l, w, q };
    }),
    drawerStacks,
  };
}
