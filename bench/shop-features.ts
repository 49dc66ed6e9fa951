// bench/shop-features: the cabinet jobs of `make bench-engine` (bench/cabinet-jobs.ts) run as
// service requests (calculate(), one job at a time, service budget and effort) with and
// without each shop option of issue 31: offcuts first, one big leftover, edge banding with
// deductBanding, matched-grain drawer groups. Prints one markdown table: sheets, yield and time.
//
//   BENCH_SHOP_JOBS  how many of the 20 jobs (default 20)
import { calculationRequest, normalizeRequest, type CalculationInput } from '../src/schema/request.js';
import { calculate } from '../src/engine/calculate.js';
import type { ResultRecord } from '../src/schema/result.js';
import { cabinetRows } from './cabinet-jobs.js';

const JOBS = Number(process.env.BENCH_SHOP_JOBS ?? 20);
const trim = { l1: 10, l2: 10, w1: 10, w2: 10 };
const NEW_STOCK = [
  { l: 2800, w: 2070, cost: 45, trim }, { l: 2440, w: 1220, cost: 22, trim }, { l: 3050, w: 1530, cost: 34, trim },
];
/** A shop's rack: three leftovers of earlier jobs. */
const RACK = [{ l: 1800, w: 900, q: 1, offcut: true }, { l: 1400, w: 700, q: 1, offcut: true }, { l: 2100, w: 600, q: 1, offcut: true }];

type Variant = { name: string; request: (seed: number) => CalculationInput };

function base(seed: number, extra: Partial<CalculationInput> = {}, options: Record<string, unknown> = {}): CalculationInput {
  const job = cabinetRows(seed);
  return {
    saw: { bladeWidth: 4.4, guillotineOptions: { maxPhase: 3 }, options: { seed, ...options } },
    stock: NEW_STOCK,
    parts: job.rows.filter((r) => r.q > 0),
    ...extra,
  };
}

function withGroups(seed: number): CalculationInput {
  const request = base(seed);
  const parts = request.parts;
  const row = (l: number, w: number) => parts.findIndex((p) => p.l === Math.max(l, w) && p.w === Math.min(l, w));
  const groups = [...cabinetRows(seed).drawerStacks].map(([width, q]) => ({
    // Two 280 fronts and a 140 one, a kerf (4.4) apart, across the front width.
    positions: [{ part: row(width, 280), x: 0, y: 0 }, { part: row(width, 280), x: 0, y: 284.4 }, { part: row(width, 140), x: 0, y: 568.8 }],
    q,
  }));
  // Front rows are "l x w" with l the longer side; the groups place them with l along x.
  return { ...request, groups: groups.filter((g) => g.positions.every((p) => p.part >= 0)) };
}

function withBanding(seed: number): CalculationInput {
  const request = base(seed, {}, { deductBanding: true });
  const band = { type: 'ABS', thickness: 1 };
  return { ...request, parts: request.parts.map((p) => ({ ...p, extras: { banding: { sides: { l1: band, l2: band, w1: band, w2: band } } } })) };
}

const VARIANTS: Variant[] = [
  { name: 'baseline', request: (seed) => base(seed) },
  { name: 'rack of 3 offcuts, offcutPriority false', request: (seed) => base(seed, { stock: [...NEW_STOCK, ...RACK] }, { offcutPriority: false }) },
  { name: 'rack of 3 offcuts, offcutPriority true', request: (seed) => base(seed, { stock: [...NEW_STOCK, ...RACK] }) },
  { name: 'leftover true', request: (seed) => base(seed, {}, { leftover: true }) },
  { name: 'banding 1 mm all round, deductBanding', request: withBanding },
  { name: 'drawer fronts as groups', request: withGroups },
];

interface Row { sheets: number; newSheets: number; newArea: number; stockArea: number; partArea: number; ms: number; leftover: number; largest: number; unplaced: number }

function measure(record: ResultRecord, ms: number): Row {
  const used = record.stock.filter((s) => s.used);
  // Largest offcut on the emptiest sheet (what the leftover option aims at), and anywhere.
  const emptiest = [...used].sort((a, b) => a.analysis.areaEfficiency - b.analysis.areaEfficiency)[0];
  const leftover = Math.max(0, ...record.offcuts.filter((o) => o.stock.id === emptiest?.id).map((o) => o.l * o.w));
  const largest = Math.max(0, ...record.offcuts.map((o) => o.l * o.w));
  return {
    sheets: record.metadata.totalUsedStock,
    newSheets: used.filter((s) => !s.offcut).reduce((n, s) => n + s.stack, 0),
    newArea: used.filter((s) => !s.offcut).reduce((n, s) => n + s.l * s.w * s.stack, 0),
    stockArea: record.metadata.totalStockArea,
    partArea: record.metadata.totalPartArea,
    ms,
    leftover,
    largest,
    unplaced: record.unusableParts.reduce((n, u) => n + u.q, 0),
  };
}

console.log(`\n### Shop options on the cabinet jobs (${JOBS} jobs, service settings, one job at a time)\n`);
console.log('| variant | sheets | new sheets | new stock m² | yield | largest offcut of the emptiest sheet (m², mean) | largest offcut (m², mean) | unplaced | median time | max time |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const variant of VARIANTS) {
  const rows: Row[] = [];
  for (let seed = 1; seed <= JOBS; seed++) {
    const normal = normalizeRequest(calculationRequest.parse(variant.request(seed)));
    if (!('request' in normal)) throw new Error(`${variant.name}, job ${seed}: ${JSON.stringify(normal.issues)}`);
    const t0 = performance.now();
    const record = await calculate(normal.request, { jobId: seed, budgetMs: 30000, minOffcut: 50 });
    rows.push(measure(record, performance.now() - t0));
  }
  const sum = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0);
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const m2 = (v: number) => (v / 1e6).toFixed(3);
  console.log(`| ${variant.name} | ${sum((r) => r.sheets)} | ${sum((r) => r.newSheets)} | ${m2(sum((r) => r.newArea))} | ${(100 * sum((r) => r.partArea) / sum((r) => r.stockArea)).toFixed(2)} % | ${m2(sum((r) => r.leftover) / rows.length)} | ${m2(sum((r) => r.largest) / rows.length)} | ${sum((r) => r.unplaced)} | ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms | ${ms.at(-1)!.toFixed(0)} ms |`);
}
