// The spine end to end: POST /v3/calculate, poll /v3/result/ready, GET /v3/result, and the
// independent validator on every layout the real server returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, solveChecked, submit, waitForResult } from '../support/client.js';
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

const cabinet = {
  saw: { bladeWidth: 4, cutType: 'guillotine', stockType: 'sheet', cutPreference: 'l' },
  stock: [{ l: 2800, w: 2070, t: 18, material: 'MDF', q: 10, cost: 40, trim: { l1: 10, l2: 10, w1: 10, w2: 10 } }],
  parts: [
    { l: 720, w: 560, t: 18, q: 4, name: 'side', material: 'MDF' },
    { l: 764, w: 560, t: 18, q: 4, name: 'bottom', material: 'mdf' },
    { l: 764, w: 100, t: 18, q: 8, name: 'rail', material: 'MDF' },
    { l: 716, w: 396, t: 18, q: 4, name: 'door', material: 'MDF', grain: 'l' },
    { l: 740, w: 520, t: 18, q: 3, name: 'shelf', material: 'MDF' },
  ],
};

describe('calculate, poll, fetch', () => {
  it('returns a complete, valid guillotine layout in the SmartCut v3 shape', async () => {
    const result = await solve(cabinet);
    expect(Object.keys(result).sort()).toEqual(['cuts', 'jobId', 'metadata', 'offcuts', 'parts', 'saw', 'stock', 'unusableParts']);
    expect(result.parts).toHaveLength(23);
    expect(result.parts.every((p: any) => p.added)).toBe(true);
    expect(result.unusableParts).toEqual([]);
    expect(result.metadata.totalPartsProduced).toBe(23);
    // 23 parts of about 7.4 m2 on 5.8 m2 sheets: two sheets is the optimum.
    expect(result.metadata.totalUsedStock).toBe(2);
    expect(result.metadata.lowerBound).toBe(2);
    const used = result.stock.filter((s: any) => s.used);
    expect(used.every((s: any) => s.analysis.numberOfCuts > 0 && s.analysis.areaEfficiency > 0)).toBe(true);
    expect(result.cuts.filter((c: any) => c.isTrim).length).toBe(4 * used.length);
    expect(result.metadata.totalStockCost).toBe(80);
  });

  it('honours the first-cut direction w', async () => {
    const request = { ...cabinet, saw: { ...cabinet.saw, cutPreference: 'w' } };
    const result = await solve(request);
    const first = result.cuts.find((c: any) => !c.isTrim && c.order === Math.min(...result.cuts.filter((d: any) => !d.isTrim && d.stock.id === c.stock.id).map((d: any) => d.order)));
    expect(first.dimension).toBe('w');
  });

  it('keeps orientation locks and grain, and matches material and thickness', async () => {
    const request = {
      saw: { bladeWidth: 3.2 },
      stock: [
        { l: 2440, w: 1220, t: 18, material: 'oak', grain: 'l', q: 5 },
        { l: 2440, w: 1220, t: 12, material: 'oak', grain: 'w', q: 5 },
        { l: 2000, w: 1000, material: 'birch' },
      ],
      parts: [
        { l: 300, w: 900, t: 18, q: 6, material: 'oak', grain: 'l', name: 'grain along long side' },
        { l: 1100, w: 200, t: 12, q: 5, material: 'OAK', grain: 'w', name: 'grain along short side' },
        { l: 500, w: 450, q: 7, material: 'birch', orientationLock: 'w', name: 'long side across' },
        { l: 400, w: 400, t: 25, q: 2, material: 'oak', name: 'no 25 mm oak' },
        { l: 3000, w: 300, q: 1, material: 'birch', name: 'too long' },
      ],
    };
    const result = await solve(request);
    const reasons = Object.fromEntries(result.unusableParts.map((u: any) => [u.name, u.issues[0].message]));
    expect(Object.keys(reasons).sort()).toEqual(['no 25 mm oak', 'too long']);
    expect(reasons['no 25 mm oak']).toMatch(/no stock with material "oak", thickness 25/);
    expect(reasons['too long']).toMatch(/larger than the usable area of every matching stock/);
    expect(result.parts.filter((p: any) => p.added)).toHaveLength(18);
  });

  it('accepts numeric strings, fractions, legacy spellings and unknown fields', async () => {
    const request = {
      saw: { bladeWidth: '1/8', cutPreference: 'length', somethingNew: true },
      stock: [{ l: '96', w: '48', trim: { x1: '1/2', y1: 0.5 }, unlimitedQuantity: true }],
      parts: [{ l: '23 1/2', w: '11 3/4', q: '10', role: 'rect', extra: { a: 1 } }],
    };
    const jobId = await submit(server.url, DEV_KEY, request);
    const reply = await waitForResult(server.url, DEV_KEY, jobId);
    expect(reply.status).toBe(200);
    const placed = reply.json.parts.filter((p: any) => p.added);
    expect(placed).toHaveLength(10);
    expect(placed[0].l).toBe(23.5);
    expect(reply.json.stock[0].trim).toEqual({ l1: 0.5, l2: 0, w1: 0.5, w2: 0 });
    // The validator reads the canonical request; the service read the legacy one the same way.
    const canonical = { saw: { bladeWidth: 0.125, cutPreference: 'l' }, stock: [{ l: 96, w: 48, trim: { l1: 0.5, l2: 0, w1: 0.5, w2: 0 } }], parts: [{ l: 23.5, w: 11.75, q: 10 }] };
    expect(validateLayout(canonical, reply.json)).toEqual([]);
  });

  it('lists a part larger than every stock as unusable and still succeeds', async () => {
    const result = await solve({ stock: [{ l: 1000, w: 500 }], parts: [{ l: 1200, w: 100, q: 2, name: 'long' }, { l: 400, w: 400, q: 1 }] });
    expect(result.unusableParts).toHaveLength(1);
    expect(result.unusableParts[0]).toMatchObject({ id: '0', q: 2, name: 'long' });
    expect(result.parts.filter((p: any) => !p.added).map((p: any) => p.id)).toEqual(['0.0', '0.1']);
    expect(result.metadata.unplacedParts).toEqual([expect.objectContaining({ id: '0', count: 2 })]);
  });

  it('respects limited stock quantities and reports the rest as not enough stock', async () => {
    const result = await solve({ stock: [{ l: 1000, w: 1000, q: 1 }], parts: [{ l: 600, w: 600, q: 3 }] });
    expect(result.metadata.totalUsedStock).toBe(1);
    expect(result.unusableParts[0].q).toBe(2);
    expect(result.unusableParts[0].issues[0].message).toMatch(/not enough stock/);
  });

  it('chooses among several stock sizes and folds identical sheets into a stack', async () => {
    const request = {
      saw: { bladeWidth: 0 },
      stock: [{ l: 1000, w: 1000 }, { l: 500, w: 500 }, { l: 2000, w: 1000 }],
      parts: [{ l: 500, w: 500, q: 16 }],
    };
    const result = await solve(request);
    expect(result.metadata.totalEfficiency).toBe(1);
    expect(result.metadata.totalPartsProduced).toBe(16);
    const used = result.stock.filter((s: any) => s.used);
    expect(used.reduce((n: number, s: any) => n + s.stack, 0)).toBe(result.metadata.totalUsedStock);
    expect(used.some((s: any) => s.stack > 1)).toBe(true);
  });

  it('gives the same layout for the same request and seed', async () => {
    const request = { ...cabinet, saw: { ...cabinet.saw, options: { seed: 7 } } };
    const a = await solve(request);
    const b = await solve(request);
    const strip = (r: any) => ({ ...r, jobId: 0, metadata: { ...r.metadata, engine: null } });
    expect(strip(b)).toEqual(strip(a));
  });

  it('answers readiness 404 for a job that is not finished or does not exist', async () => {
    const ready = await call(`${server.url}/v3/result/ready?id=999999`, { key: DEV_KEY });
    expect(ready.status).toBe(404);
    expect(ready.text).toBe('');
    const result = await call(`${server.url}/v3/result?id=999999`, { key: DEV_KEY });
    expect(result.status).toBe(404);
    expect(result.json).toMatchObject({ version: '3', error: expect.stringContaining('999999') });
  });

  it('serves cutType nesting: rectangles without outline are nested as rectangles', async () => {
    const jobId = await submit(server.url, DEV_KEY, { saw: { cutType: 'nesting' }, stock: [{ l: 2000, w: 1000 }], parts: [{ l: 300, w: 200, q: 3 }] });
    const reply = await waitForResult(server.url, DEV_KEY, jobId);
    expect(reply.status).toBe(200);
    expect(reply.json.parts.every((p: any) => p.added && p.placedOutline.length === 4 && [0, 90, 180, 270].includes(p.rotation))).toBe(true);
    expect(reply.json.metadata.totalUsedStock).toBe(1);
  });
});

describe('cutType efficiency (CNC routers, free placement)', () => {
  it('returns a free layout without saw cuts, parts a tool width apart, no worse than the saw', async () => {
    const request = {
      ...cabinet,
      saw: { ...cabinet.saw, cutType: 'efficiency', bladeWidth: 0, options: { minSpacing: 12 } },
    };
    const result = await solve(request); // the validator checks the 12 mm spacing and the offcuts
    expect(result.parts.every((p: any) => p.added)).toBe(true);
    expect(result.cuts).toEqual([]);
    expect(result.metadata.totalCuts).toBe(0);
    expect(result.stock.filter((s: any) => s.used).every((s: any) => s.analysis.numberOfCuts === 0)).toBe(true);
    expect(result.offcuts.length).toBeGreaterThan(0);
    const saw = await solve({ ...request, saw: { ...request.saw, cutType: 'guillotine', bladeWidth: 12 } });
    expect(result.metadata.totalUsedStock).toBeLessThanOrEqual(saw.metadata.totalUsedStock);
    expect(result.metadata.totalUsedStock).toBeGreaterThanOrEqual(result.metadata.lowerBound);
  });
});

describe('guillotine strategy time', () => {
  it('makes fewer cuts than strategy efficiency, on no more sheets', async () => {
    const withStrategy = (strategy: string) => ({ ...cabinet, saw: { ...cabinet.saw, guillotineOptions: { strategy } } });
    const efficient = await solve(withStrategy('efficiency'));
    const quick = await solve(withStrategy('time'));
    expect(quick.metadata.totalUsedStock).toBeLessThanOrEqual(efficient.metadata.totalUsedStock);
    expect(quick.metadata.totalCuts).toBeLessThan(efficient.metadata.totalCuts);
  });
});
