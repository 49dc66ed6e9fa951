// Linear (1D) cutting end to end on the real server: POST /v3/calculate with
// saw.stockType linear, poll, fetch, and the independent validator on every plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChecked } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';
import { validateLinear } from '../support/validate-linear.js';

let server: KerfServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const solve = (request: unknown) => solveChecked(server.url, DEV_KEY, request, validateLinear);

describe('linear stock', () => {
  it('cuts timber with kerf and trims, stacks identical bars and proves the optimum', async () => {
    const request = {
      saw: { stockType: 'linear', bladeWidth: 4 },
      stock: [{ l: 4800, w: 45, t: 95, material: 'C24', trim: { l1: 20, l2: 20 } }],
      parts: [
        { l: 2400, w: 45, t: 95, q: 6, material: 'c24', name: 'stud' },
        { l: 1180, w: 45, t: 95, q: 8, material: 'C24', name: 'nogging' },
        { l: 600, w: 45, q: 5, material: 'C24', name: 'block' },
      ],
    };
    const result = await solve(request);
    expect(result.unusableParts).toEqual([]);
    expect(result.parts.every((p: any) => p.added && p.y === 0 && p.rot === 0)).toBe(true);
    expect(result.stock.filter((s: any) => s.used).every((s: any) => s.type === 'linear')).toBe(true);
    expect(result.metadata.optimal).toBe(true);
    expect(result.metadata.totalUsedStock).toBe(result.metadata.lowerBound);
    expect(result.cuts.every((c: any) => c.dimension === 'w' && c.x1 === c.x2)).toBe(true);
  });

  it('proves an optimum that needs the LP bound, for long bars and fractional lengths', async () => {
    // Twenty pieces just over a third of a 12 m bar: two per bar, so 10 bars; the continuous
    // bound says 7, so metadata.optimal rests on the Gilmore-Gomory bound.
    const parts = Array.from({ length: 20 }, (_, k) => ({ l: 4080.5 + 7.25 * k, w: 80, q: 1, name: `rafter ${k}` }));
    const request = { saw: { stockType: 'linear', bladeWidth: 2.5 }, stock: [{ l: 12010, w: 80, trim: { l1: 5, l2: 5 } }], parts };
    const result = await solve(request);
    expect(result.unusableParts).toEqual([]);
    expect(result.metadata.totalUsedStock).toBe(10);
    expect(result.metadata.lowerBound).toBe(10);
    expect(result.metadata.optimal).toBe(true);
  });

  it('chooses the cheapest mix of bar lengths when costs are given', async () => {
    const request = {
      saw: { stockType: 'linear', bladeWidth: 3 },
      stock: [{ l: 6000, w: 30, cost: 12, material: 'alu' }, { l: 3000, w: 30, cost: 5, material: 'alu' }],
      parts: [{ l: 2900, w: 30, q: 2, material: 'alu' }, { l: 1400, w: 30, q: 2, material: 'alu' }],
    };
    const result = await solve(request);
    // Two 3000 bars hold 2900 each, one 3000 bar holds both 1400s: cost 15 (a 6000 bar pair would cost more).
    expect(result.metadata.totalStockCost).toBe(15);
    expect(result.metadata.optimal).toBe(true);
  });

  it('reports unusable pieces and short stock, and still succeeds', async () => {
    const request = {
      saw: { stockType: 'linear', bladeWidth: 2 },
      stock: [{ l: 2000, w: 25, q: 1 }, { l: 1000, w: 40 }],
      parts: [
        { l: 2500, w: 25, q: 1, name: 'too long' },
        { l: 900, w: 25, q: 3, name: 'short of stock' },
        { l: 300, w: 50, q: 1, name: 'no profile' },
      ],
    };
    const result = await solve(request);
    const byName = Object.fromEntries(result.unusableParts.map((u: any) => [u.name, u]));
    expect(byName['too long'].issues[0].message).toMatch(/longer than the usable length/);
    expect(byName['short of stock'].q).toBe(1);
    expect(byName['short of stock'].issues[0].message).toMatch(/not enough stock/);
    expect(byName['no profile'].issues[0].message).toMatch(/no bar with/);
    expect(result.metadata.optimal).toBe(false);
  });

  it('answers a large order the same way for the same seed', async () => {
    let seed = 99;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const parts = Array.from({ length: 40 }, (_, i) => ({ l: 150 + Math.floor(rand() * 2500), w: 60, q: 1 + Math.floor(rand() * 20), name: `p${i}` }));
    const request = { saw: { stockType: 'linear', bladeWidth: 3, options: { seed: 5 } }, stock: [{ l: 6000, w: 60, trim: { l1: 5, l2: 5 } }], parts };
    const a = await solve(request);
    expect(a.metadata.totalUsedStock).toBeGreaterThanOrEqual(a.metadata.lowerBound);
    const b = await solve(request);
    const strip = (r: any) => ({ ...r, jobId: 0, metadata: { ...r.metadata, engine: null } });
    if (!a.metadata.engine.stoppedByDeadline && !b.metadata.engine.stoppedByDeadline) expect(strip(b)).toEqual(strip(a));
  });
});
