// The service's own layout check (src/result/check-layout.ts): every layout the engines make
// for a handful of requests of each stock and cut type passes it, and each kind of broken
// layout (overlap, off the stock, a part lost, a cut through a part, a bar overfilled, stock
// used beyond its quantity) is caught.
import { describe, expect, it } from 'vitest';
import { calculate } from '../../src/engine/calculate.js';
import { checkLayout } from '../../src/result/check-layout.js';
import { calculationRequest, normalizeRequest, type CalcRequest } from '../../src/schema/request.js';
import type { ResultRecord } from '../../src/schema/result.js';

function canonical(input: unknown): CalcRequest {
  const normalized = normalizeRequest(calculationRequest.parse(input));
  if ('issues' in normalized) throw new Error(JSON.stringify(normalized.issues));
  return normalized.request;
}

const solve = (request: CalcRequest) => calculate(request, { jobId: 1, budgetMs: 20_000, minOffcut: 0 });
const clone = (record: ResultRecord): ResultRecord => structuredClone(record);

const sheet = canonical({
  saw: { bladeWidth: 4 },
  stock: [{ l: 2440, w: 1220, q: 2, trim: { l1: 10, l2: 10, w1: 10, w2: 10 } }],
  parts: [{ l: 700, w: 500, q: 5 }, { l: 400, w: 300, q: 6 }, { l: 3000, w: 100, q: 1 }],
});
const router = canonical({ saw: { cutType: 'efficiency', bladeWidth: 6, options: { minSpacing: 8 } }, stock: [{ l: 1000, w: 800 }], parts: [{ l: 300, w: 200, q: 7 }] });
const roll = canonical({ saw: { stockType: 'roll', bladeWidth: 3 }, stock: [{ l: 20000, w: 1370 }], parts: [{ l: 500, w: 400, q: 9 }, { l: 300, w: 250, q: 8 }] });
const bars = canonical({ saw: { stockType: 'linear', bladeWidth: 5 }, stock: [{ l: 6000, trim: { l1: 20, l2: 20 } }], parts: [{ l: 1900, q: 5 }, { l: 750, q: 4 }] });
const nesting = canonical({ saw: { cutType: 'nesting', bladeWidth: 2 }, stock: [{ l: 1000, w: 600 }], parts: [{ l: 300, w: 200, q: 4, outline: [{ x: 0, y: 0 }, { x: 300, y: 0 }, { x: 0, y: 200 }] }] });

describe('checkLayout', () => {
  it('passes the layouts of every engine', async () => {
    for (const request of [sheet, router, roll, bars, nesting]) {
      const record = await solve(request);
      expect(checkLayout(request, record), `${request.saw.stockType}/${request.saw.cutType}`).toEqual([]);
    }
  });

  it('catches overlapping parts and parts closer than the kerf', async () => {
    const record = await solve(router);
    const broken = clone(record);
    const [a, b] = broken.parts.filter((p) => p.added && p.stock!.id === broken.parts[0]!.stock!.id);
    Object.assign(b!, { x: a!.x! + a!.l + 7, y: a!.y, rot: a!.rot });
    expect(checkLayout(router, broken).join('\n')).toMatch(/closer than the kerf 8/);
  });

  it('catches a part off its stock or inside a trim, and a part placed nowhere', async () => {
    const record = await solve(sheet);
    const off = clone(record);
    off.parts.find((p) => p.added)!.x = 5;
    expect(checkLayout(sheet, off).join('\n')).toMatch(/leaves the usable area/);
    const lost = clone(record);
    Object.assign(lost.parts.find((p) => p.added)!, { added: false, x: null, y: null, stock: null, rot: null });
    expect(checkLayout(sheet, lost).join('\n')).toMatch(/placed \+ .* unusable, \d+ requested/);
    // The 3000 long part fits no sheet: it is listed as unusable, and dropping that is caught too.
    expect(record.unusableParts.map((u) => u.id)).toEqual(['2']);
    expect(checkLayout(sheet, { ...clone(record), unusableParts: [] }).join('\n')).toMatch(/part row 2: 0 placed \+ 0 unusable, 1 requested/);
  });

  it('catches a saw cut through a part and stock used beyond its quantity', async () => {
    const record = await solve(sheet);
    const cut = clone(record);
    const part = cut.parts.find((p) => p.added)!;
    const through = cut.cuts.find((c) => !c.isTrim && c.stock.id === part.stock!.id)!;
    Object.assign(through, { dimension: 'l', position: part.y! + 1, x1: part.x!, x2: part.x! + 10, y1: part.y! + 1, y2: part.y! + 1 });
    expect(checkLayout(sheet, cut).join('\n')).toMatch(/runs through part/);
    const overused = clone(record);
    overused.stock.find((s) => s.used)!.stack = 3;
    expect(checkLayout(sheet, overused).join('\n')).toMatch(/stock row 0: \d+ used, 2 available/);
  });

  it('catches a bar filled past its length, and a nested part outside its sheet', async () => {
    const cut = await solve(bars);
    const long = clone(cut);
    long.parts.find((p) => p.added)!.x = 6000 - 1000;
    expect(checkLayout(bars, long).join('\n')).toMatch(/leaves the usable area/);
    const nested = clone(await solve(nesting));
    const moved = nested.parts.find((p) => p.added)!;
    moved.placedOutline = moved.placedOutline!.map((q) => ({ x: q.x + 2000, y: q.y }));
    expect(checkLayout(nesting, nested).join('\n')).toMatch(/leaves the usable area/);
  });

  it('takes two true shapes in one bounding box for two positions, and one outline twice for a stacked pair', async () => {
    const record = await solve(nesting);
    const [a, b] = record.parts.filter((p) => p.added);
    const xs = a!.placedOutline!.map((q) => q.x);
    const ys = a!.placedOutline!.map((q) => q.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // The triangle turned half a turn within the same box: they interlock, touching along the diagonal.
    const interlocked = clone(record);
    Object.assign(interlocked.parts.find((p) => p.id === b!.id)!, { stock: a!.stock, placedOutline: a!.placedOutline!.map((q) => ({ x: x0 + x1 - q.x, y: y0 + y1 - q.y })) });
    expect(checkLayout(nesting, interlocked).join('\n')).not.toMatch(/at one position/);
    const twice = clone(record);
    Object.assign(twice.parts.find((p) => p.id === b!.id)!, { stock: a!.stock, placedOutline: a!.placedOutline });
    expect(checkLayout(nesting, twice).join('\n')).toMatch(/2 parts at one position/);
  });
});
