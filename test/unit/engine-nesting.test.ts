// Nesting engine through its facade, every layout checked by the independent validator
// (test/support/validate-nesting.ts): strips, sheets of several sizes and quantities, clearance,
// parts inside holes, turns, determinism; and the shape checks run before a job is accepted.
// Needs build/nesting.wasm (make build).

import { beforeAll, describe, expect, it } from 'vitest';
import { loadNestingModule, placePoint, solveNesting, type NestingProblem, type NestingSolution } from '../../src/engine/nesting/solve.js';
import { shapeIssues } from '../../src/schema/part-shapes.js';
import { checkPlacements, type PlacedShape, type Pt } from '../support/validate-nesting.js';

let mod: WebAssembly.Module;
beforeAll(() => {
  mod = loadNestingModule();
});

const L = [0, 0, 30, 0, 30, 10, 10, 10, 10, 20, 0, 20];
const TRIANGLE = [0, 0, 24, 0, 0, 16];
const SQUARE = (s: number) => [0, 0, s, 0, s, s, 0, s];

// Every solve here ends at its effort limit: the budget is far beyond what a loaded machine needs.
function problem(extra: Partial<NestingProblem>): NestingProblem {
  return { stock: [], types: [], gap: 0, edge: 0, roll: false, seed: 1, budgetMs: 600_000, effort: 150, ...extra };
}

/** Twelve ells and twelve triangles on 50 x 50 sheets, 1 apart and 0.5 from the edge (area bound 3 sheets). */
function sheetJob(extra: Partial<NestingProblem>): NestingProblem {
  return problem({
    stock: [{ x0: 0, y0: 0, x1: 50, y1: 50, q: -1, area: 2500 }],
    types: [
      { q: 12, angles: [0, 90, 180, 270], mirror: false, stock: [0], rings: [L] },
      { q: 12, angles: [0, 90, 180, 270], mirror: false, stock: [0], rings: [TRIANGLE] },
    ],
    gap: 1,
    edge: 0.5,
    ...extra,
  });
}

/** `each` ells and `each` triangles (six unless given) on a roll 50 wide. */
function rollJob(extra: Partial<NestingProblem>, each = 6): NestingProblem {
  return problem({
    roll: true,
    stock: [{ x0: 0, y0: 0, x1: 1000, y1: 50, q: 1, area: 50000 }],
    types: [
      { q: each, angles: [0, 90, 180, 270], mirror: false, stock: [0], rings: [L] },
      { q: each, angles: [0, 90, 180, 270], mirror: false, stock: [0], rings: [TRIANGLE] },
    ],
    ...extra,
  });
}

const toPts = (flat: number[]): Pt[] => Array.from({ length: flat.length / 2 }, (_, i) => ({ x: flat[2 * i], y: flat[2 * i + 1] }));

/** Placed shapes of a solution in stock coordinates, and the validator's verdict. */
function check(p: NestingProblem, s: NestingSolution): { placed: PlacedShape[]; problems: string[] } {
  const placed: PlacedShape[] = [];
  s.items.forEach((item, i) => {
    if (item.sheet < 0) return;
    expect(p.types[item.type].angles).toContain(item.angle);
    expect(p.types[item.type].stock).toContain(s.sheets[item.sheet].stock);
    const rings = p.types[item.type].rings.map((r) => toPts(r).map((q) => placePoint(item, q.x, q.y)));
    placed.push({ id: `item ${i}`, sheet: String(item.sheet), rings });
  });
  const regions = new Map(s.sheets.map((sh, i) => {
    const st = p.stock[sh.stock];
    return [String(i), { x0: st.x0, y0: st.y0, x1: st.x1, y1: st.y1 }];
  }));
  return { placed, problems: checkPlacements(placed, regions, p.gap, p.edge, 1e-5) };
}

describe('nesting engine', () => {
  it('packs a strip without overlap and reports the length used', () => {
    const p = problem({
      roll: true,
      stock: [{ x0: 0, y0: 0, x1: 1000, y1: 40, q: 1, area: 40000 }],
      types: [
        { q: 6, angles: [0, 90, 180, 270], mirror: false, stock: [0], rings: [L] },
        { q: 8, angles: [0, 180], mirror: false, stock: [0], rings: [TRIANGLE] },
      ],
    });
    const s = solveNesting(p, mod);
    const { placed, problems } = check(p, s);
    expect(problems).toEqual([]);
    expect(placed).toHaveLength(14);
    const reach = Math.max(...placed.flatMap((q) => q.rings[0].map((v) => v.x)));
    expect(s.sheets[0].usedLength).toBeCloseTo(reach, 6);
    // Area 6 x 400 + 8 x 192 = 3936 over a 40 high strip: 98.4 long at best; squared off it is far more.
    expect(reach).toBeLessThan(160);
  });

  it('keeps the clearance between parts and from the edge', () => {
    const p = problem({
      gap: 3, edge: 1.5,
      stock: [{ x0: 5, y0: 5, x1: 105, y1: 65, q: -1, area: 110 * 70 }],
      types: [{ q: 8, angles: [0, 90, 180, 270], mirror: true, stock: [0], rings: [L] }],
    });
    const s = solveNesting(p, mod);
    const { placed, problems } = check(p, s);
    expect(problems).toEqual([]);
    expect(placed).toHaveLength(8);
  });

  it('uses sheets of several sizes within their quantities, and leaves out what no stock takes', () => {
    const p = problem({
      stock: [
        { x0: 0, y0: 0, x1: 60, y1: 40, q: 1, area: 2400 },
        { x0: 0, y0: 0, x1: 35, y1: 25, q: 2, area: 875 },
      ],
      types: [{ q: 12, angles: [0, 90, 180, 270], mirror: false, stock: [0, 1], rings: [SQUARE(12)] }],
    });
    const s = solveNesting(p, mod);
    const { placed, problems } = check(p, s);
    expect(problems).toEqual([]);
    // 12 x 12 squares: 12 on the large sheet (5 x 3 fit), 4 on each small one (2 x 2): all 12 fit.
    expect(placed).toHaveLength(12);
    const used = [0, 0];
    for (const sh of s.sheets) used[sh.stock]++;
    expect(used[0]).toBeLessThanOrEqual(1);
    expect(used[1]).toBeLessThanOrEqual(2);
    const tooMany = problem({ ...p, types: [{ ...p.types[0], q: 40 }] });
    const t = solveNesting(tooMany, mod);
    expect(check(tooMany, t).problems).toEqual([]);
    expect(t.items.filter((i) => i.sheet < 0).length).toBe(40 - 15 - 8);
  });

  it('moves a sheet to the smallest stock that takes all its parts', () => {
    const p = problem({
      stock: [
        { x0: 0, y0: 0, x1: 100, y1: 100, q: -1, area: 10000 },
        { x0: 0, y0: 0, x1: 40, y1: 40, q: -1, area: 1600 },
      ],
      types: [
        { q: 3, angles: [0, 90, 180, 270], mirror: false, stock: [0, 1], rings: [SQUARE(18)] },
        { q: 1, angles: [0, 90, 180, 270], mirror: false, stock: [0, 1], rings: [TRIANGLE.map((v) => v * 0.7)] },
      ],
    });
    const s = solveNesting(p, mod);
    expect(check(p, s).problems).toEqual([]);
    expect(s.items.every((i) => i.sheet === 0)).toBe(true);
    expect(s.sheets.map((sh) => sh.stock)).toEqual([1]);
  });

  it('places small parts inside the hole of a large one', () => {
    const frame = [SQUARE(100), [10, 10, 10, 90, 90, 90, 90, 10]];
    const p = problem({
      gap: 2,
      stock: [{ x0: 0, y0: 0, x1: 104, y1: 104, q: 1, area: 104 * 104 }],
      types: [
        { q: 1, angles: [0], mirror: false, stock: [0], rings: frame },
        { q: 4, angles: [0, 90], mirror: false, stock: [0], rings: [SQUARE(36)] },
      ],
    });
    const s = solveNesting(p, mod);
    const { placed, problems } = check(p, s);
    expect(problems).toEqual([]);
    expect(placed).toHaveLength(5);
    expect(s.sheets).toHaveLength(1);
  });

  it('turns by any allowed angle', () => {
    const angles = Array.from({ length: 12 }, (_, k) => k * 30);
    const p = problem({
      stock: [{ x0: 0, y0: 0, x1: 200, y1: 60, q: 1, area: 12000 }],
      types: [{ q: 10, angles, mirror: false, stock: [0], rings: [TRIANGLE] }],
    });
    const s = solveNesting(p, mod);
    expect(check(p, s).problems).toEqual([]);
    expect(s.items.every((i) => i.sheet === 0 && angles.includes(i.angle))).toBe(true);
  });

  it('frees the last sheets by fitting their parts into the gaps of the earlier ones', () => {
    // Bottom-left fill alone needs more than the area bound of 3 sheets.
    const p = (sheetCompaction: boolean) => sheetJob({ sheetCompaction });
    const before = solveNesting(p(false), mod);
    const after = solveNesting(p(true), mod);
    for (const [q, s] of [[p(false), before], [p(true), after]] as const) {
      const { placed, problems } = check(q, s);
      expect(problems).toEqual([]);
      expect(placed).toHaveLength(24);
    }
    expect(after.sheets.length).toBeLessThan(before.sheets.length);
    expect(after.compaction.improved).toBe(before.sheets.length - after.sheets.length);
  });

  it('gives the same layout for the same seed when the effort limit ends the search', () => {
    const p = rollJob({}, 5);
    const a = solveNesting(p, mod);
    const b = solveNesting(p, mod);
    expect(a.stats.stop).toBe('effort');
    expect(b.items).toEqual(a.items);
  });

  it('under the stall rule searches past the effort limit while it improves, then stops stalled, the same every time', () => {
    const p = rollJob({}, 5);
    const byEffort = solveNesting(p, mod);
    const [a, b] = [solveNesting({ ...p, stopRule: 'stall' }, mod), solveNesting({ ...p, stopRule: 'stall' }, mod)];
    expect(byEffort.stats.stop).toBe('effort');
    expect(a.stats.stop).toBe('stalled');
    // At least the effort limit's work, and at most the rule's hard stop (8 limits) of it.
    expect(a.stats.iterations).toBeGreaterThanOrEqual(byEffort.stats.iterations);
    expect(a.stats.iterations).toBeLessThanOrEqual(8 * byEffort.stats.iterations);
    // Counted in work units, not time: a second run is the same.
    expect(b.items).toEqual(a.items);
    expect(b.stats.iterations).toBe(a.stats.iterations);
  });

  it('ends a roll that no cut can shorten at the effort limit (three small parts in one column)', () => {
    // Every cut of the strip leaves a part sticking out past its end, clear of the others: such
    // attempts used to take no sweep of effort, so the search ran until the budget ran out.
    const few = rollJob({
      stock: [{ x0: 0, y0: 0, x1: 1000, y1: 100, q: 1, area: 100_000 }],
      types: [{ q: 3, angles: [0], mirror: false, stock: [0], rings: [L] }],
      effort: 500,
    });
    const solution = solveNesting(few, mod);
    expect(solution.stats.stop).not.toBe('clock');
    expect(solution.items.filter((item) => item.sheet >= 0)).toHaveLength(3);
  });

  it('does not grow its memory with the effort (a solve never frees it)', () => {
    // The engine's runtime never frees memory during a solve, so anything allocated per
    // order evaluation, separation move or compaction attempt would grow with the effort.
    for (const job of [rollJob, sheetJob]) {
      const small = solveNesting(job({ effort: 100 }), mod);
      const large = solveNesting(job({ effort: 2000 }), mod);
      expect(large.stats.stop).not.toBe('clock');
      expect(large.stats.iterations).toBeGreaterThan(5 * small.stats.iterations);
      expect(large.memoryBytes).toBe(small.memoryBytes);
    }
  });
});

describe('shape checks before a job is accepted', () => {
  const ring = (flat: number[]) => toPts(flat);
  it('accepts simple outlines and holes in either winding', () => {
    expect(shapeIssues([{ l: 30, w: 20, outline: ring(L) }, { l: 30, w: 20, outline: ring(L).reverse() }])).toEqual([]);
    expect(shapeIssues([{ l: 100, w: 100, outline: ring(SQUARE(100)), holes: [ring([10, 10, 90, 10, 90, 90])] }])).toEqual([]);
  });
  it('names what is wrong', () => {
    const issues = shapeIssues([
      { l: 10, w: 10, outline: ring([0, 0, 10, 10, 10, 0, 0, 10]) },
      { l: 10, w: 10, outline: ring([0, 0, 5, 5, 10, 10]) },
      { l: 100, w: 100, outline: ring(SQUARE(100)), holes: [ring([90, 90, 120, 90, 120, 120])] },
      { l: 100, w: 100, outline: ring(SQUARE(100)), holes: [ring([10, 10, 50, 10, 50, 50, 10, 50]), ring([20, 20, 60, 20, 60, 60])] },
    ]);
    expect(issues.map((i) => [i.path.join('.'), i.message.split(' ').slice(0, 3).join(' ')])).toEqual([
      ['parts.0.outline', 'the outline intersects'],
      ['parts.1.outline', 'the outline is'],
      ['parts.2.holes.0', 'the hole is'],
      ['parts.3.holes.1', 'the hole overlaps'],
    ]);
  });
});

describe('the independent checker itself', () => {
  const sq = (x: number, y: number, s: number): Pt[] => [{ x, y }, { x: x + s, y }, { x: x + s, y: y + s }, { x, y: y + s }];
  const region = new Map([['0', { x0: 0, y0: 0, x1: 100, y1: 100 }]]);
  const part = (id: string, rings: Pt[][]): PlacedShape => ({ id, sheet: '0', rings });
  it('accepts touching parts and a part inside a hole', () => {
    expect(checkPlacements([part('a', [sq(0, 0, 10)]), part('b', [sq(10, 0, 10)])], region, 0, 0)).toEqual([]);
    expect(checkPlacements([part('frame', [sq(0, 0, 50), sq(10, 10, 30)]), part('in', [sq(15, 15, 20)])], region, 2, 0)).toEqual([]);
  });
  it('finds overlaps, identical placements, clearance and edge violations', () => {
    expect(checkPlacements([part('a', [sq(0, 0, 10)]), part('b', [sq(5, 0, 10)])], region, 0, 0)).toHaveLength(1);
    expect(checkPlacements([part('a', [sq(0, 0, 10)]), part('b', [sq(0, 0, 10)])], region, 0, 0)).toHaveLength(1);
    expect(checkPlacements([part('a', [sq(1, 1, 10)]), part('b', [sq(12, 1, 10)])], region, 2, 0)[0]).toMatch(/less than the clearance/);
    expect(checkPlacements([part('frame', [sq(0, 0, 50), sq(10, 10, 30)]), part('in', [sq(11, 11, 20)])], region, 2, 0)).toHaveLength(1);
    expect(checkPlacements([part('a', [sq(95, 0, 10)])], region, 0, 0)[0]).toMatch(/outside the usable region/);
    expect(checkPlacements([part('a', [sq(0.5, 50, 10)])], region, 0, 1)[0]).toMatch(/edge clearance/);
  });
});
