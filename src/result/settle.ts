// The one place a result record's numbers are settled, after any engine built it. The engines
// work in floating point (nesting in float32), so without this a part drawn at x -0.000012 or
// 199.999988 reaches every client and every export. A length, area or coordinate within
// floating-point noise of the request's own grid (3 decimals, more when the request's sizes
// have more: 1/64 inch is 0.015625) lands on it; one farther off is a true value (a corner of
// a part turned 37 degrees) and keeps 6 decimals, so no part moves by more than the noise and
// clearances hold. No -0, and every coordinate of the sheet's geometry inside its stock.
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';

const MAX_DECIMALS = 6;
/** How far from the grid a value may be and still be noise: float32 carries about 7 digits. */
const NOISE = 5e-5;

function decimalsOf(n: number): number {
  if (!Number.isFinite(n) || Number.isInteger(n)) return 0;
  const [mantissa, exponent] = n.toExponential().split('e');
  const digits = (mantissa.split('.')[1] ?? '').length;
  return Math.max(0, digits - Number(exponent));
}

/** Decimals the record's lengths keep: 3, or as many as the request's sizes carry, at most 6. */
export function gridDecimals(request: CalcRequest): number {
  let d = 3;
  const see = (n: number | undefined) => { if (n !== undefined) d = Math.max(d, decimalsOf(n)); };
  see(request.saw.bladeWidth);
  for (const s of request.stock) [s.l, s.w, s.t, s.trim.l1, s.trim.l2, s.trim.w1, s.trim.w2].forEach(see);
  for (const p of request.parts) {
    [p.l, p.w, p.t].forEach(see);
    for (const ring of [p.outline ?? [], ...(p.holes ?? [])]) for (const q of ring) { see(q.x); see(q.y); }
  }
  return Math.min(d, MAX_DECIMALS);
}

export function settleRecord(record: ResultRecord, request: CalcRequest): ResultRecord {
  const scale = 10 ** gridDecimals(request);
  const on = (v: number) => {
    const grid = Math.round(v * scale) / scale;
    return (Math.abs(v - grid) <= NOISE ? grid : Math.round(v * 1e6) / 1e6) + 0; // + 0 turns -0 into 0
  };
  const inside = (v: number, max: number) => Math.min(Math.max(on(v), 0), on(max));

  const size = new Map<string, { l: number; w: number }>();
  for (const s of record.stock) {
    s.l = on(s.l);
    s.w = on(s.w);
    size.set(s.id, s);
    const a = s.analysis;
    a.partArea = on(a.partArea);
    a.cutLength = on(a.cutLength);
    a.stackedCutLength = on(a.stackedCutLength);
    a.rollLength = on(a.rollLength);
  }
  const point = (p: { x: number; y: number }, s: { l: number; w: number }) => {
    p.x = inside(p.x, s.l);
    p.y = inside(p.y, s.w);
  };
  for (const p of record.parts) {
    const s = p.stock && size.get(p.stock.id);
    if (!s) continue;
    const shaped = p as { placedOutline?: { x: number; y: number }[]; placedHoles?: { x: number; y: number }[][] };
    // A nested part's x, y is where its turned l x w frame starts, which may lie off the sheet
    // where the shape does not fill the frame: only its outline must be inside.
    const place = shaped.placedOutline?.length ? on : inside;
    if (p.x !== null) p.x = place(p.x, s.l);
    if (p.y !== null) p.y = place(p.y, s.w);
    shaped.placedOutline?.forEach((q) => point(q, s));
    shaped.placedHoles?.forEach((ring) => ring.forEach((q) => point(q, s)));
  }
  for (const c of record.cuts) {
    const s = size.get(c.stock.id);
    if (!s) continue;
    c.x1 = inside(c.x1, s.l); c.x2 = inside(c.x2, s.l);
    c.y1 = inside(c.y1, s.w); c.y2 = inside(c.y2, s.w);
    c.position = inside(c.position, c.dimension === 'l' ? s.w : s.l);
  }
  for (const o of record.offcuts) {
    const s = size.get(o.stock.id);
    if (!s) continue;
    o.x = inside(o.x, s.l);
    o.y = inside(o.y, s.w);
    o.l = Math.min(on(o.l), on(s.l - o.x));
    o.w = Math.min(on(o.w), on(s.w - o.y));
  }
  const m = record.metadata;
  for (const key of ['totalCutLength', 'totalStackedCutLength', 'totalStockArea', 'totalStockUsedArea', 'totalPartArea',
    'totalBladeArea', 'totalTrimArea', 'totalRollLength'] as const) m[key] = on(m[key]);
  // The offcuts' total is of the offcuts as settled.
  m.totalOffcutsArea = Math.round(record.offcuts.reduce((sum, o) => sum + o.l * o.w * o.q, 0) * 1e6) / 1e6;
  for (const entry of Object.values(m.materialSummary)) {
    entry.stockArea = on(entry.stockArea);
    entry.partArea = on(entry.partArea);
  }
  return record;
}
