// SmartCut legacy inputs (smartcut-v3-shapes.md, "Legacy inputs still seen"): each is accepted
// and means what the shapes document says. A legacy request is judged by the layout it gets:
// the same as its canonical spelling, and where a lock or a trim matters, the right one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kerfClient, type CalculationRequest, type KerfClient, type ResultResponse } from '../../src/client/client.js';
import { call } from '../support/client.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';

let server: KerfServer;
let kerf: KerfClient;

beforeAll(async () => {
  server = await startServer({ env: { KERF_RATE_PER_MINUTE: '10000' } });
  kerf = kerfClient({ baseUrl: server.url, apiKey: DEV_KEY, pollMs: 50 });
});
afterAll(async () => {
  await server?.stop();
});

/** Where every part went, and the stock entries: what two equivalent requests must share. */
const layout = (result: ResultResponse) => ({
  parts: result.parts.map((p) => [p.id, p.l, p.w, p.x, p.y, p.rot, p.stock?.id ?? null]),
  stock: result.stock.map((s) => [s.id, s.l, s.w, s.stack, s.trim]),
  unusable: result.unusableParts.map((u) => [u.id, u.q]),
});

async function sameLayout(canonical: CalculationRequest, ...legacy: CalculationRequest[]): Promise<ResultResponse> {
  const expected = await kerf.solve(canonical);
  for (const request of legacy) expect(layout(await kerf.solve(request)), JSON.stringify(request)).toEqual(layout(expected));
  return expected;
}

const placed = (result: ResultResponse) => result.parts.filter((p) => p.added).length;

describe('legacy SmartCut inputs', () => {
  it('trim sides y1, y2, x1, x2 are l1, l2, w1, w2: the bottom, top, left and right edges', async () => {
    const parts = [{ l: 300, w: 200, q: 6 }];
    const result = await sameLayout(
      { saw: { bladeWidth: 4 }, stock: [{ l: 1000, w: 800, trim: { l1: 100, l2: 20, w1: 50, w2: 10 } }], parts },
      { saw: { bladeWidth: 4 }, stock: [{ l: 1000, w: 800, trim: { y1: 100, y2: 20, x1: 50, x2: 10 } }], parts },
    );
    expect(result.stock[0].trim).toEqual({ l1: 100, l2: 20, w1: 50, w2: 10 });
    for (const p of result.parts.filter((part) => part.added)) {
      const [dx, dy] = p.rot ? [p.w, p.l] : [p.l, p.w];
      expect(p.y!).toBeGreaterThanOrEqual(100); // l1 is cut off the bottom edge
      expect(p.x!).toBeGreaterThanOrEqual(50); // w1 off the left edge
      expect(p.y! + dy).toBeLessThanOrEqual(800 - 20);
      expect(p.x! + dx).toBeLessThanOrEqual(1000 - 10);
    }
  });

  it('banding sides y1, y2, x1, x2 are l1, l2, w1, w2, as for trims', async () => {
    const result = await kerf.solve({
      stock: [{ l: 1000, w: 800 }],
      parts: [{ l: 300, w: 200, name: 'legacy', extras: { banding: { sides: { y1: 'PVC 1 mm', x2: 'ABS', w1: 'oak' } }, finish: { faces: { a: 'lacquer' } } } }],
    });
    expect(result.parts[0].extras).toEqual({ banding: { sides: { l1: 'PVC 1 mm', w1: 'oak', w2: 'ABS' } }, finish: { faces: { a: 'lacquer' } } });
  });

  it('grain and orientationLock null, "n", "none" and blanks mean no lock, like ""', async () => {
    // A 1500-long part fits the 1000 x 2000 sheet only turned: a lock "l" keeps it out.
    const request = (orientationLock: any): CalculationRequest => ({ stock: [{ l: 1000, w: 2000 }], parts: [{ l: 1500, w: 100, orientationLock }] });
    expect(placed(await kerf.solve(request('l')))).toBe(0);
    const unlocked = await sameLayout(request(''), ...[null, 'n', 'none', ' ', 'N', ' None '].map(request));
    expect(placed(unlocked)).toBe(1);
    const grain = (partGrain: any): CalculationRequest => ({ stock: [{ l: 1000, w: 2000, grain: 'l' }], parts: [{ l: 1500, w: 100, grain: partGrain }] });
    expect(placed(await kerf.solve(grain('l')))).toBe(0);
    expect(placed(await sameLayout(grain(''), ...[null, 'n', 'none', ' '].map(grain)))).toBe(1);
  });

  it('stock grain "y" (and the no-lock spellings) means an ungrained sheet', async () => {
    const request = (stockGrain: any): CalculationRequest => ({ stock: [{ l: 1000, w: 2000, grain: stockGrain }], parts: [{ l: 1500, w: 100, grain: 'l' }] });
    expect(placed(await kerf.solve(request('l')))).toBe(0);
    expect(placed(await sameLayout(request(''), ...['y', 'Y', null, 'n', 'none', ' '].map(request)))).toBe(1);
  });

  it('enum values in any case ("SHEET", "L") mean their lowercase values', async () => {
    const parts = [{ l: 700, w: 300, q: 5, grain: 'l' }, { l: 400, w: 400, q: 3, orientationLock: 'w' }];
    const result = await sameLayout(
      { saw: { stockType: 'sheet', cutType: 'guillotine', cutPreference: 'w', guillotineOptions: { strategy: 'time' } }, stock: [{ l: 2000, w: 1000, grain: 'l' }], parts },
      {
        saw: { stockType: 'SHEET', cutType: 'Guillotine', cutPreference: ' W ', guillotineOptions: { strategy: 'TIME' } },
        stock: [{ l: 2000, w: 1000, grain: 'L' }],
        parts: [{ l: 700, w: 300, q: 5, grain: 'L' }, { l: 400, w: 400, q: 3, orientationLock: 'W' }],
      },
    );
    expect(result.saw).toMatchObject({ stockType: 'sheet', cutType: 'guillotine', cutPreference: 'w' });
  });

  it('cutPreference length and width are l and w; efficiency and beam choose that cut type', async () => {
    const base = { stock: [{ l: 2000, w: 1000 }], parts: [{ l: 700, w: 300, q: 5 }, { l: 450, w: 250, q: 4 }] };
    await sameLayout({ ...base, saw: { cutPreference: 'l' } }, { ...base, saw: { cutPreference: 'length' } });
    await sameLayout({ ...base, saw: { cutPreference: 'w' } }, { ...base, saw: { cutPreference: 'Width' } });
    const efficiency = await sameLayout({ ...base, saw: { cutType: 'efficiency' } }, { ...base, saw: { cutPreference: 'efficiency' } });
    expect(efficiency.saw.cutType).toBe('efficiency');
    expect(efficiency.cuts).toEqual([]);
    const beam = await sameLayout({ ...base, saw: { cutType: 'beam' } }, { ...base, saw: { cutPreference: 'BEAM' } });
    expect(beam.saw).toMatchObject({ cutType: 'beam', cutPreference: 'l' });
  });

  it('numbers as strings, shop fractions ("10 1/2") and fraction glyphs ("10½") are those numbers', async () => {
    const result = await sameLayout(
      { saw: { bladeWidth: 3.5 }, stock: [{ l: 2440, w: 1220, t: 18 }], parts: [{ l: 10.5, w: 5.5, t: 18, q: 3 }, { l: 600.25, w: 0.75, q: 2 }] },
      { saw: { bladeWidth: '3 1/2' }, stock: [{ l: '2440', w: ' 1220 ', t: '18' }], parts: [{ l: '10 1/2', w: '5½', t: '18.0', q: '3' }, { l: '600¼', w: '3/4', q: '2' }] },
    );
    expect(result.parts.map((p) => [p.l, p.w])).toEqual([[10.5, 5.5], [10.5, 5.5], [10.5, 5.5], [600.25, 0.75], [600.25, 0.75]]);
    expect(result.saw.bladeWidth).toBe(3.5);
  });

  it('saw fields under saw.options are read as saw fields; saw wins when both have one', async () => {
    const parts = [{ l: 700, w: 300, q: 9 }];
    const beam = await sameLayout(
      { saw: { cutType: 'beam', stackHeight: 2, bladeWidth: 5, guillotineOptions: { maxPhase: 2 } }, stock: [{ l: 2000, w: 1000 }], parts },
      { saw: { options: { cutType: 'beam', stackHeight: '2', bladeWidth: 5, guillotineOptions: { maxPhase: 2 } } }, stock: [{ l: 2000, w: 1000 }], parts },
      { saw: { cutType: 'beam', options: { cutType: 'efficiency', stackHeight: 2, bladeWidth: 5, guillotineOptions: { maxPhase: 2 } } }, stock: [{ l: 2000, w: 1000 }], parts },
    );
    expect(beam.saw).toMatchObject({ cutType: 'beam', stackHeight: 2, bladeWidth: 5, guillotineOptions: { maxPhase: 2 } });
    expect(beam.saw.options).not.toHaveProperty('cutType');
    const linear = await sameLayout(
      { saw: { stockType: 'linear', bladeWidth: 4 }, stock: [{ l: 6000, w: 45 }], parts: [{ l: 1000, w: 45, q: 7 }] },
      { saw: { options: { stockType: 'Linear', bladeWidth: '4', cutPreference: 'l' } }, stock: [{ l: 6000, w: 45 }], parts: [{ l: 1000, w: 45, q: 7 }] },
    );
    expect(linear.stock[0].type).toBe('linear');
  });

  it('a roll with l 0 or without l is a roll of unlimited length', async () => {
    const parts = [{ l: 900, w: 400, q: 5 }, { l: 500, w: 300, q: 3 }];
    const result = await sameLayout(
      { saw: { stockType: 'roll', bladeWidth: 2 }, stock: [{ w: 1200 }], parts },
      { saw: { stockType: 'roll', bladeWidth: 2 }, stock: [{ l: 0, w: 1200 }], parts },
      { saw: { stockType: 'roll', bladeWidth: 2 }, stock: [{ l: '0', w: 1200 }], parts },
    );
    expect(placed(result)).toBe(8);
    expect(result.unusableParts).toEqual([]);
    expect(result.stock).toHaveLength(1);
    // The length used: at least the parts' area over the roll's width.
    expect(result.stock[0].l).toBeGreaterThan((5 * 900 * 400 + 3 * 500 * 300) / 1200);
    expect(result.metadata.totalRollLength).toBe(result.stock[0].l);
  });

  it('linear rows need only l; a profile (w, t) is matched only when both sides give one', async () => {
    const result = await kerf.solve({
      saw: { stockType: 'linear', bladeWidth: 4 },
      stock: [{ l: 3000 }, { l: 2500, w: 45, t: 95, q: 1 }],
      parts: [{ l: 1000, q: 4, name: 'any' }, { l: 800, w: 45, name: 'profiled' }, { l: 2400, w: 60, t: 95, name: 'wide' }],
    });
    const byName = Object.fromEntries(result.parts.map((p) => [p.name, p]));
    expect(byName.any.added && byName.profiled.added).toBe(true);
    // The 60-wide part fits the 3000 bar without profile only.
    expect(byName.wide.added).toBe(true);
    expect(byName.wide.stock?.id.startsWith('0.')).toBe(true);
    expect(result.stock.find((s) => s.id.startsWith('0.'))?.w).toBe(0);
    expect(result.unusableParts).toEqual([]);
    const unmatched = await kerf.solve({ saw: { stockType: 'linear' }, stock: [{ l: 3000, w: 45 }], parts: [{ l: 1000, w: 60 }] });
    expect(unmatched.unusableParts.map((u) => u.issues[0].message)).toEqual([expect.stringMatching(/no bar with no material, width 60/)]);
  });

  it('a linear result echoes no cut type, preference or guillotine options', async () => {
    const result = await kerf.solve({ saw: { stockType: 'linear', cutType: 'guillotine', bladeWidth: 4 }, stock: [{ l: 6000 }], parts: [{ l: 1000, q: 2 }] });
    expect(result.saw).toEqual({ stockType: 'linear', bladeWidth: 4, options: expect.any(Object) });
  });

  it('a missing required field is named: "parts[0].l is required"', async () => {
    const post = (body: unknown) => call(`${server.url}/v3/calculate`, { method: 'POST', key: DEV_KEY, body });
    const missingLength = await post({ stock: [{ l: 1000, w: 500 }], parts: [{ w: 100 }] });
    expect(missingLength.status).toBe(400);
    expect(missingLength.json.error).toBe('Invalid request: parts[0].l is required');
    expect(missingLength.json.details.issues).toEqual([{ path: 'parts[0].l', message: 'is required' }]);
    const sheetWithoutWidth = await post({ stock: [{ l: 1000 }], parts: [{ l: 100, w: 100 }] });
    expect(sheetWithoutWidth.json.details.issues).toEqual([{ path: 'stock[0].w', message: 'is required' }]);
    const noStock = await post({ parts: [{ l: 100, w: 100 }] });
    expect(noStock.json.error).toBe('Invalid request: stock is required');
    const noId = await call(`${server.url}/v3/result`, { key: DEV_KEY });
    expect(noId.status).toBe(400);
    expect(noId.json.details.issues).toEqual([{ path: 'id', message: 'is required' }]);
  });
});
