// Facade + WASM free packer (placement 'free', cutType efficiency): every layout checked
// by its own rules (inside the usable region, at least one kerf apart, orientations the
// grain allows, quantities and stock limits), determinism, and quality against the
// guillotine engine on the same problem. Needs build/engine.wasm.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngineModule } from '../../src/engine/guillotine/boundary.js';
import { solveGuillotine } from '../../src/engine/guillotine/solve.js';
import { seededRandom } from '../../bench/seeded.js';
import type { EnginePart, EngineSolution, EngineStock, GuillotineProblem } from '../../src/engine/guillotine/types.js';

let mod: WebAssembly.Module;
beforeAll(() => {
  mod = loadEngineModule();
});

const stock = (l: number, w: number, extra: Partial<EngineStock> = {}): EngineStock => ({
  l, w, q: -1, cost: 0, trim: { l1: 0, l2: 0, w1: 0, w2: 0 }, grain: 0, ...extra,
});

function problem(stockRows: EngineStock[], parts: EnginePart[], extra: Partial<GuillotineProblem> = {}): GuillotineProblem {
  return {
    stock: stockRows, parts, kerf: 0, firstCut: 'x', maxPhase: 0, headCuts: false,
    stockSelection: 'efficiency', strategy: 'efficiency', seed: 1, budgetMs: 600_000, placement: 'free', ...extra,
  };
}

function randomParts(n: number, seed: number, stockIdx: number[]): EnginePart[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const k = r();
    const rotMask: [number, number, number] = k < 0.6 ? [3, 3, 3] : k < 0.8 ? [3, 1, 2] : [1, 1, 1];
    return { l: 100 + Math.floor(r() * 800), w: 50 + Math.floor(r() * 550), q: 1 + Math.floor(r() * 5), rotMask, stock: stockIdx };
  });
}

/**
 * A size x size square cut as a pinwheel (four rectangles around a centre one, so no
 * straight line divides it), each outer piece then cut once more at random: a perfect
 * packing of the square that no guillotine layout matches.
 */
function pinwheelPieces(size: number, seed: number): EnginePart[] {
  const r = seededRandom(seed);
  const between = (lo: number, hi: number) => lo + 1 + Math.floor(r() * (hi - lo - 1));
  const a = between(size / 2, size - 5);
  const d = between(5, a);
  const b = between(5, size / 2);
  const c = between(b, size - 5);
  // [x0, x1) x [y0, y1): x along the roll, y across it.
  const outer: [number, number][] = [[a, b], [size - a, c], [size - d, size - c], [d, size - b]];
  const rects: [number, number][] = [[a - d, c - b]];
  for (const [l, w] of outer) {
    const alongL = r() < 0.5;
    const len = alongL ? l : w;
    if (len < 4) rects.push([l, w]);
    else if (alongL) {
      const cut = between(0, len);
      rects.push([cut, w], [l - cut, w]);
    } else {
      const cut = between(0, len);
      rects.push([l, cut], [l, w - cut]);
    }
  }
  return rects.map(([l, w]) => ({ l, w, q: 1, rotMask: [3, 3, 3] as [number, number, number], stock: [0] }));
}

/** Violations of the free-layout contract; [] when valid. */
function check(p: GuillotineProblem, sol: EngineSolution): string[] {
  const v: string[] = [];
  const placed = p.parts.map(() => 0);
  const perStock = p.stock.map(() => 0);
  for (const [si, sh] of sol.sheets.entries()) {
    const s = p.stock[sh.stock]!;
    const root = sh.root;
    if (root.kind !== 'free') { v.push(`sheet ${si}: root is ${root.kind}, expected free`); continue; }
    perStock[sh.stock]!++;
    const len = sh.length ?? s.l;
    const box = { x0: s.trim.w1, y0: s.trim.l1, x1: len - s.trim.w2, y1: s.w - s.trim.l2 };
    const rects = root.children.map((c) => ({ x0: c.x, y0: c.y, x1: c.x + c.l, y1: c.y + c.w, c }));
    for (const r of rects) {
      const part = p.parts[r.c.part]!;
      placed[r.c.part]!++;
      if (!part.stock.includes(sh.stock)) v.push(`sheet ${si}: part ${r.c.part} not allowed on stock ${sh.stock}`);
      const [ex, ey] = r.c.rot === 1 ? [part.w, part.l] : [part.l, part.w];
      if (Math.abs(ex - r.c.l) > 1e-9 || Math.abs(ey - r.c.w) > 1e-9) v.push(`sheet ${si}: part ${r.c.part} has the wrong size`);
      if (!(part.rotMask[s.grain]! & (1 << r.c.rot))) v.push(`sheet ${si}: part ${r.c.part} rotation ${r.c.rot} not allowed`);
      if (r.x0 < box.x0 - 1e-9 || r.y0 < box.y0 - 1e-9 || r.x1 > box.x1 + 1e-9 || r.y1 > box.y1 + 1e-9) v.push(`sheet ${si}: part ${r.c.part} outside the usable region`);
    }
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i]!;
        const b = rects[j]!;
        const gap = Math.max(b.x0 - a.x1, a.x0 - b.x1, b.y0 - a.y1, a.y0 - b.y1);
        if (gap < p.kerf - 1e-9) v.push(`sheet ${si}: parts ${i} and ${j} only ${gap} apart (kerf ${p.kerf})`);
      }
    }
  }
  p.parts.forEach((part, i) => {
    if (placed[i]! + sol.unplaced[i]! !== part.q) v.push(`part ${i}: ${placed[i]} placed + ${sol.unplaced[i]} unplaced != ${part.q}`);
  });
  p.stock.forEach((s, i) => {
    if (s.q >= 0 && perStock[i]! > s.q) v.push(`stock ${i}: ${perStock[i]} sheets used, only ${s.q}`);
  });
  return v;
}

const sheetsOf = (s: EngineSolution) => s.sheets.length;
const unplaced = (s: EngineSolution) => s.unplaced.reduce((a, b) => a + b, 0);

describe('free packer', () => {
  it('places mixed jobs validly with kerf, trims, grain and limited stock', () => {
    for (const seed of [1, 2, 3]) {
      const rows = [stock(2800, 2070, { grain: 1, trim: { l1: 10, l2: 10, w1: 12, w2: 8 } }), stock(2440, 1220, { q: 2 }), stock(1200, 600, { grain: 2 })];
      const p = problem(rows, randomParts(12, seed, [0, 1, 2]), { kerf: 4 });
      const sol = solveGuillotine(p, mod);
      expect(check(p, sol)).toEqual([]);
      expect(unplaced(sol)).toBe(0);
      expect(sol.stats.greedy).toBeDefined();
    }
  });

  it('never needs more sheets than the guillotine engine on the same job', () => {
    for (const seed of [4, 5, 6]) {
      const p = problem([stock(2440, 1220)], randomParts(15, seed, [0]), { kerf: 3 });
      const free = solveGuillotine(p, mod);
      const saw = solveGuillotine({ ...p, placement: 'guillotine' }, mod);
      expect(check(p, free)).toEqual([]);
      expect(sheetsOf(free)).toBeLessThanOrEqual(sheetsOf(saw));
      expect(sheetsOf(free)).toBeGreaterThanOrEqual(free.lowerBound);
    }
  });

  it('packs a roll: one piece no longer than the guillotine one, parts inside it', () => {
    const rows = [stock(0, 1400, { open: true, trim: { l1: 5, l2: 5, w1: 20, w2: 20 } })];
    const p = problem(rows, randomParts(10, 9, [0]), { kerf: 2, firstCut: 'y' });
    const free = solveGuillotine(p, mod);
    const saw = solveGuillotine({ ...p, placement: 'guillotine' }, mod);
    expect(check(p, free)).toEqual([]);
    expect(free.sheets).toHaveLength(1);
    expect(free.sheets[0]!.length!).toBeLessThanOrEqual(saw.sheets[0]!.length!);
    expect(free.sheets[0]!.length! - 40).toBeGreaterThanOrEqual(free.lengthBound!);
  });

  it('finds the exact length of a non-guillotine perfect packing on a roll', () => {
    for (const seed of [1, 2, 3]) {
      const size = 60;
      const parts = pinwheelPieces(size, seed);
      const p = problem([stock(0, size, { open: true })], parts, { firstCut: 'y', budgetMs: 600_000 });
      const sol = solveGuillotine(p, mod);
      expect(check(p, sol)).toEqual([]);
      expect(unplaced(sol)).toBe(0);
      expect(sol.sheets[0]!.length).toBe(size);
      expect(sol.lengthBound).toBe(size);
    }
  });

  it('is deterministic for the same seed when the effort limit ends the search', () => {
    const p = problem([stock(2440, 1220), stock(1220, 1220)], randomParts(20, 11, [0, 1]), { kerf: 4, effort: 1 });
    const a = solveGuillotine(p, mod);
    const b = solveGuillotine(p, mod);
    expect(b.sheets).toEqual(a.sheets);
  });
});
