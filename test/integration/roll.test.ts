// Roll stock and beam saws end to end: POST /v3/calculate, poll, fetch, and the independent
// validator on every layout (roll pieces as long as they are used, books on a beam saw).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChecked } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { validateLayout } from '../support/validate-layout.js';

let server: KerfServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const solve = (request: unknown) => solveChecked(server.url, DEV_KEY, request, validateLayout);

describe('roll stock', () => {
  it('cuts a perfect-fit job from the shortest piece of roll', async () => {
    // 1000 wide roll: the parts tile 1000 x 900 exactly.
    const request = {
      saw: { stockType: 'roll', cutType: 'guillotine', bladeWidth: 0 },
      stock: [{ l: 50000, w: 1000, material: 'vinyl' }],
      parts: [
        { l: 300, w: 500, q: 3, material: 'vinyl' },
        { l: 300, w: 250, q: 6, material: 'vinyl' },
      ],
    };
    const result = await solve(request);
    const used = result.stock.filter((s: any) => s.used);
    expect(used).toHaveLength(1);
    expect(used[0].type).toBe('roll');
    expect(used[0].l).toBe(900);
    expect(used[0].analysis.rollLength).toBe(900);
    expect(result.metadata.totalRollLength).toBe(900);
    expect(result.metadata.totalEfficiency).toBe(1);
  });

  it('handles kerf, trims and a free (efficiency) layout', async () => {
    for (const cutType of ['guillotine', 'efficiency']) {
      const request = {
        saw: { stockType: 'roll', cutType, bladeWidth: 3 },
        stock: [{ l: 30000, w: 1400, material: 'felt', trim: { l1: 5, l2: 5, w1: 20, w2: 20 } }],
        parts: [
          { l: 800, w: 450, q: 7, material: 'felt' },
          { l: 1200, w: 300, q: 4, material: 'felt' },
          { l: 333, w: 222, q: 11, material: 'felt' },
        ],
      };
      const result = await solve(request);
      expect(result.unusableParts).toEqual([]);
      const used = result.stock.filter((s: any) => s.used);
      expect(used).toHaveLength(1);
      expect(used[0].l).toBeLessThan(30000);
      expect(result.metadata.totalRollLength).toBe(used[0].l);
      // A router needs no saw cuts: the free layout lists none.
      if (cutType === 'efficiency') expect(result.cuts).toEqual([]);
    }
  });
});

describe('roll stock with many part sizes', () => {
  it('cuts 200 part rows on a guillotine roll (the strip packer overflowed its stack before)', async () => {
    // Issue 34 point 1: every run failed with "strip packer aborted"; 100 rows worked.
    const request = {
      saw: { stockType: 'roll', cutType: 'guillotine', cutPreference: 'w' },
      stock: [{ l: 100000, w: 1370 }],
      parts: Array.from({ length: 200 }, (_, i) => ({ l: 100 + 6 * i, w: 60 + 5 * i, q: 10 })),
    };
    const result = await solve(request);
    const placed = result.parts.filter((p: any) => p.added).length;
    const unusable = result.unusableParts.reduce((n: number, u: any) => n + u.q, 0);
    expect(placed + unusable).toBe(2000);
    // The parts' area is about eight times the roll's: it is filled, and the rest is reported.
    expect(placed).toBeGreaterThan(200);
    expect(result.metadata.totalRollLength).toBeLessThanOrEqual(100000);
  }, 300_000);
});

describe('roll stock where the answer is proven up front', () => {
  it('a blade wider than the roll takes no search: each part alone across, end to end at its shortest', async () => {
    // Issue 34 point 6: no two parts fit side by side across (100 + 1000 > 900), so the
    // shortest piece is every part at its shortest extent with a kerf between. The search ran
    // its whole effort before (5,010 iterations); now one strip reaches the proven length.
    for (const cutType of ['guillotine', 'efficiency']) {
      const request = {
        saw: { stockType: 'roll', cutType, bladeWidth: 1000 },
        stock: [{ w: 900, l: 200000 }],
        parts: [{ l: 100, w: 100, q: 50 }, { l: 80, w: 60, q: 50 }],
      };
      const result = await solve(request);
      expect(result.unusableParts).toEqual([]);
      expect(result.metadata.totalRollLength).toBe(50 * 100 + 50 * 60 + 99 * 1000);
      expect(result.metadata.engine.iterations).toBeLessThanOrEqual(1);
    }
  });
});

describe('roll stock on a CNC router (cutType efficiency)', () => {
  it('nests a pinwheel, which no saw can cut, into the shortest possible piece', async () => {
    // Nine parts that tile 600 x 600 as a pinwheel (four pieces around a centre one, each
    // outer piece split once): no straight cut divides it, so only free placement reaches 600.
    const sizes = [[290, 230], [480, 70], [480, 50], [40, 350], [80, 350], [410, 30], [410, 220], [190, 100], [190, 380]];
    const request = {
      saw: { stockType: 'roll', cutType: 'efficiency', bladeWidth: 0 },
      stock: [{ l: 50000, w: 600, material: 'mdf' }],
      parts: sizes.map(([l, w]) => ({ l, w, q: 1, material: 'mdf' })),
    };
    const result = await solve(request);
    expect(result.unusableParts).toEqual([]);
    const used = result.stock.filter((s: any) => s.used);
    expect(used).toHaveLength(1);
    expect(used[0].l).toBe(600);
    expect(result.metadata.totalRollLength).toBe(600);
    expect(result.metadata.totalEfficiency).toBe(1);
    expect(result.cuts).toEqual([]);
  });
});

describe('beam saw', () => {
  it('stacks identical sheets into books and counts cuts per book', async () => {
    const request = {
      saw: { cutType: 'beam', stackHeight: 4, bladeWidth: 4.4 },
      stock: [{ l: 2800, w: 2070, material: 'chipboard' }],
      parts: [
        { l: 600, w: 500, q: 60, material: 'chipboard' },
        { l: 900, w: 300, q: 30, material: 'chipboard' },
      ],
    };
    const result = await solve(request);
    expect(result.unusableParts).toEqual([]);
    const used = result.stock.filter((s: any) => s.used);
    const stacked = used.filter((s: any) => s.stack > 1);
    expect(stacked.length).toBeGreaterThan(0);
    for (const s of used) {
      expect(s.analysis.stackedNumberOfCuts).toBe(s.analysis.numberOfCuts * Math.ceil(s.stack / 4));
    }
    // First (non-trim) cuts run along the length.
    const first = result.cuts.find((c: any) => !c.isTrim);
    expect(first.dimension).toBe('l');
  });
});

describe('head cuts', () => {
  it('uses one head cut across the sheet when it saves a sheet', async () => {
    // Two 2000 x 600 strips leave a 440 wide tail: only a head cut lets the 400 x 1200 part in.
    const request = {
      saw: { cutType: 'guillotine', cutPreference: 'l', bladeWidth: 0, guillotineOptions: { maxPhase: 2, headCuts: true } },
      stock: [{ l: 2440, w: 1220, material: 'ply' }],
      parts: [
        { l: 2000, w: 600, q: 2, material: 'ply', orientationLock: 'l' },
        { l: 1200, w: 400, q: 1, material: 'ply', orientationLock: 'w' },
      ],
    };
    const result = await solve(request);
    expect(result.metadata.totalUsedStock).toBe(1);
    const first = result.cuts.filter((c: any) => !c.isTrim).sort((a: any, b: any) => a.order - b.order)[0];
    expect(first.dimension).toBe('w');
    const off = await solve({ ...request, saw: { ...request.saw, guillotineOptions: { maxPhase: 2, headCuts: false } } });
    expect(off.metadata.totalUsedStock).toBe(2);
  });
});
