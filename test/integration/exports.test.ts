// Long (over 400 lines) because every format is read back by its own independent reader against one server's jobs.
// GET /v3/result/export end to end: every format of real jobs is read back with an
// independent reader (pdf.js, dxf-parser, an XML parser, csv-parse, the PTX reader in
// test/support) and compared with the result record; then the error answers.
import { parse as parseCsv } from 'csv-parse/sync';
import DxfParserModule from 'dxf-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMATS, parseRecord } from '../../src/exports/index.js';
import { submit, waitForResult } from '../support/client.js';
import { parsePtx, readPatterns } from '../support/ptx-reader.js';
import { cli, DEV_KEY, startServer, type KerfServer } from '../support/server.js';

// dxf-parser ships CommonJS and ESM builds: take the class from whichever was loaded.
const DxfParser = ((DxfParserModule as any).default ?? DxfParserModule) as typeof import('dxf-parser').DxfParser;

const cabinet = {
  saw: { bladeWidth: 4, cutType: 'guillotine', stockType: 'sheet', cutPreference: 'l' },
  stock: [{ l: 2800, w: 2070, t: 18, material: 'MDF', q: 10, cost: 40, grain: 'l', trim: { l1: 10, l2: 10, w1: 10, w2: 10 } }],
  parts: [
    {
      l: 720, w: 560, t: 18, q: 4, name: 'side', material: 'MDF',
      extras: { banding: { sides: { l1: 'ABS 2mm', l2: true } } },
      machining: { holes: [{ x: 37, y: 100, diameter: 5, depth: 12 }, { x: 37, y: 400, diameter: 5 }] },
    },
    { l: 764, w: 560, t: 18, q: 4, name: 'bottom', material: 'mdf' },
    { l: 764, w: 100, t: 18, q: 8, name: '=rail', material: 'MDF' },
    { l: 716, w: 396, t: 18, q: 4, name: 'door, "front"', material: 'MDF', grain: 'l' },
    { l: 740, w: 520, t: 18, q: 3, name: 'shelf\nlower', material: 'MDF' },
    { l: 3000, w: 100, q: 1, name: 'too long', material: 'MDF' },
  ],
};
/** First cuts across the length: PTX pattern type 1; a fractional kerf. */
const turned = {
  saw: { bladeWidth: 3.2, cutPreference: 'w' },
  stock: [{ l: 2440, w: 1220, material: 'birch', trim: { l1: 5, l2: 5, w1: 8, w2: 8 } }],
  parts: [{ l: 600, w: 400, q: 7, name: 'panel', material: 'birch' }, { l: 1000, w: 300, q: 3, name: 'strip', material: 'birch' }],
};
/** Identical sheets: one pattern with stack 4. */
const stacked = {
  saw: { bladeWidth: 0 },
  stock: [{ l: 1000, w: 1000, trim: { l1: 5, l2: 5, w1: 5, w2: 5 } }],
  parts: [{ l: 495, w: 495, q: 16, name: 'tile' }],
};

/** About a thousand parts: a record past the size the server renders in place, so exports run in worker threads. */
const large = {
  saw: { bladeWidth: 4 },
  stock: [{ l: 2800, w: 2070, trim: { l1: 10, l2: 10, w1: 10, w2: 10 } }],
  parts: Array.from({ length: 25 }, (_, i) => ({ l: 150 + ((i * 97) % 600), w: 80 + ((i * 61) % 300), q: 40, name: `p${i}` })),
};

let server: KerfServer;
const jobs: Record<'cabinet' | 'turned' | 'stacked' | 'large', { id: number; record: any; text: string }> = {} as any;

beforeAll(async () => {
  // Faults on: a job named __exit__ fails (one attempt), __hang__ stays running for a while.
  server = await startServer({ env: { KERF_TEST_FAULTS: '1', KERF_MAX_ATTEMPTS: '1', KERF_JOB_BUDGET_MS: '3000', KERF_ABORT_GRACE_MS: '1500' } });
  await Promise.all((['cabinet', 'turned', 'stacked', 'large'] as const).map(async (name) => {
    const id = await submit(server.url, DEV_KEY, { cabinet, turned, stacked, large }[name]);
    const reply = await waitForResult(server.url, DEV_KEY, id);
    expect(reply.status, reply.text).toBe(200);
    jobs[name] = { id, record: reply.json, text: reply.text };
  }));
});
afterAll(async () => {
  await server?.stop();
});

interface Download { status: number; headers: Headers; bytes: Uint8Array; text: string; json: any }

async function download(query: string, key: string | null = DEV_KEY, base = server.url): Promise<Download> {
  const response = await fetch(`${base}/v3/result/export?${query}`, { headers: key ? { authorization: key } : {} });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: any;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, bytes, text, json };
}

async function exported(job: keyof typeof jobs, format: string, option?: string): Promise<Download> {
  const reply = await download(`id=${jobs[job].id}&format=${format}${option ? `&option=${option}` : ''}`);
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  return reply;
}

const near = (a: number, b: number, tol = 1e-6) => Math.abs(a - b) <= tol;

/** The record's distinct placements per stock entry (a stacked entry lists each once per sheet). */
function placements(record: any) {
  const out = new Map<string, { id: string; row: string; x: number; y: number; dx: number; dy: number }[]>();
  const seen = new Set<string>();
  for (const p of record.parts) {
    if (!p.added) continue;
    const key = `${p.stock.id}|${p.x}|${p.y}|${p.rot}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = out.get(p.stock.id) ?? [];
    list.push({ id: p.id, row: p.id.split('.')[0], x: p.x, y: p.y, dx: p.rot ? p.w : p.l, dy: p.rot ? p.l : p.w });
    out.set(p.stock.id, list);
  }
  return out;
}
const usedStock = (record: any) => record.stock.filter((s: any) => s.used);
const rectKey = (r: { x: number; y: number; dx: number; dy: number }) => [r.x, r.y, r.dx, r.dy].map((v) => v.toFixed(3)).join(',');
const sorted = (keys: string[]) => [...keys].sort();

describe('export formats, read back and compared with the record', () => {
  it('answers each format with its content type and an attachment file name', async () => {
    const id = jobs.cabinet.id;
    const expected: Record<string, RegExp> = { pdf: /^application\/pdf/, csv: /^text\/csv/, dxf: /^image\/vnd\.dxf/, svg: /^image\/svg\+xml/, ptx: /^text\/plain/ };
    for (const [format, type] of Object.entries(expected)) {
      const reply = await exported('cabinet', format);
      expect(reply.headers.get('content-type')).toMatch(type);
      expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="job-${id}.${format}"`);
    }
  });

  it('CSV: RFC 4180, one row per placed part, and the parts, cuts and machining options', async () => {
    const record = jobs.cabinet.record;
    const reply = await exported('cabinet', 'csv');
    const csv = reply.text;
    expect(csv.endsWith('\r\n')).toBe(true);
    // UTF-8 with a byte-order mark, so Excel on Windows reads the names as written.
    expect([...reply.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: Record<string, string>[] = parseCsv(csv, { columns: true, bom: true, record_delimiter: '\r\n' });
    const placed = record.parts.filter((p: any) => p.added);
    expect(rows).toHaveLength(placed.length);
    const asText = (s: string) => (/^[=+\-@]/.test(s) ? `'${s}` : s);
    rows.forEach((row, i) => {
      const p = placed[i];
      expect(row).toEqual({
        stock_id: p.stock.id, part_id: p.id, name: asText(p.name), x: String(p.x), y: String(p.y), l: String(p.l), w: String(p.w),
        rotated: p.rot === 1 ? 'yes' : 'no', material: p.material, rotation: String(p.rot === 1 ? 90 : 0), mirrored: 'no',
        number: String(Number(p.id.split('.')[0]) + 1), copy: String(Number(p.id.split('.')[1]) + 1),
      });
    });
    // The quoting really happened: a comma, quotes and a line break survive inside one field.
    expect(rows.some((r) => r.name === 'door, "front"')).toBe(true);
    expect(rows.some((r) => r.name === 'shelf\nlower')).toBe(true);
    expect(rows.some((r) => r.name === "'=rail")).toBe(true);

    const parts: Record<string, string>[] = parseCsv((await exported('cabinet', 'csv', 'parts')).text, { columns: true, bom: true, record_delimiter: '\r\n' });
    expect(parts.map((r) => [r.part, r.name, r.qty_requested, r.qty_placed])).toEqual([
      ['0', 'side', '4', '4'], ['1', 'bottom', '4', '4'], ['2', "'=rail", '8', '8'], ['3', 'door, "front"', '4', '4'], ['4', 'shelf\nlower', '3', '3'], ['5', 'too long', '1', '0'],
    ]);

    const cuts: Record<string, string>[] = parseCsv((await exported('cabinet', 'csv', 'cuts')).text, { columns: true, bom: true, record_delimiter: '\r\n' });
    expect(cuts).toHaveLength(record.cuts.length);
    const key = (c: any) => [c.stock.id, c.order, c.phase, c.dimension, c.position, c.x1, c.y1, c.x2, c.y2, c.isTrim].join('|');
    expect(sorted(cuts.map((c) => [c.stock_id, c.order, c.phase, c.dimension, c.position, c.x1, c.y1, c.x2, c.y2, c.is_trim].join('|'))))
      .toEqual(sorted(record.cuts.map(key)));

    const drills: Record<string, string>[] = parseCsv((await exported('cabinet', 'csv', 'machining')).text, { columns: true, bom: true, record_delimiter: '\r\n' });
    expect(drills).toHaveLength(8);
    for (const d of drills) {
      const p = record.parts.find((q: any) => q.id === d.part_id);
      const [dx, dy] = p.rot ? [p.w, p.l] : [p.l, p.w];
      expect(Number(d.x)).toBeGreaterThan(p.x);
      expect(Number(d.x)).toBeLessThan(p.x + dx);
      expect(Number(d.y)).toBeGreaterThan(p.y);
      expect(Number(d.y)).toBeLessThan(p.y + dy);
      expect(d.diameter).toBe('5');
    }
  });

  it('PDF: cover totals, a page per pattern with its saw steps, and the parts list, read back as text', async () => {
    const record = jobs.cabinet.record;
    const pages = await pdfPages((await exported('cabinet', 'pdf')).bytes);
    const used = usedStock(record);
    pages.forEach((lines, i) => expect(lines.join('\n')).toContain(`page ${i + 1} of ${pages.length}`));

    const cover = pages[0].join('\n');
    const m = record.metadata;
    expect(cover).toContain('Cutting plan');
    expect(cover).toContain(`Job ${record.jobId}`);
    expect(cover).toContain(`${(m.totalEfficiency * 100).toFixed(1)} %`);
    expect(cover).toMatch(new RegExp(`Sheets used ${m.totalUsedStock}\\b`));
    expect(cover).toContain(`Cuts ${m.totalCuts} (stacked ${m.totalStackedCuts})`);
    expect(cover).toContain(`Cut length ${m.totalCutLength}`);
    expect(cover).toContain(`Stock cost ${m.totalStockCost}`);
    expect(cover).toMatch(new RegExp(`2800 × 2070 × 18 MDF ${m.totalUsedStock} ${used.length}`));
    expect(cover).toContain('too long');

    const patternPages = pages.filter((lines) => lines.some((l) => /^Pattern \d+ of \d+ · stock /.test(l)));
    expect(patternPages).toHaveLength(used.length);
    used.forEach((s: any, i: number) => {
      const page = patternPages[i].join('\n');
      expect(page).toContain(`Pattern ${i + 1} of ${used.length} · stock ${s.id}`);
      expect(page).toContain(`× ${s.stack} sheet`);
      expect(page).toContain(`${s.analysis.numberOfCuts} cuts`);
      // Every part row on the sheet shows its number in the diagram.
      const numbers = new Set(patternPages[i].flatMap((l) => l.split(' ')));
      const rows = new Set([...placements(record).get(s.id)!].map((p) => String(Number(p.row) + 1)));
      for (const n of rows) expect(numbers.has(n), `number ${n} on pattern ${s.id}`).toBe(true);
    });

    // Beside each diagram, the saw steps: every cut number of the pattern once, in saw order.
    const columns = await pdfPages((await exported('cabinet', 'pdf')).bytes, 560);
    const patternColumns = columns.filter((_, k) => /^Pattern \d+ of \d+ · stock /.test(pages[k][0] ?? ''));
    used.forEach((s: any, i: number) => {
      const steps = patternColumns[i].map((l) => /^([\d–, ]+?) (trim|head|rip|cross|recut) \d/.exec(l)).filter((m) => m !== null);
      const listed = steps.flatMap((m) => {
        const cuts = m[1].replace(/ /g, '');
        const range = /^(\d+)–(\d+)$/.exec(cuts);
        return range ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, k) => Number(range[1]) + k) : cuts.split(',').filter(Boolean).map(Number);
      });
      expect(listed, `saw steps of ${s.id}`).toEqual(record.cuts.filter((c: any) => c.stock.id === s.id).map((c: any) => c.order).sort((a: number, b: number) => a - b));
    });
    // The parts list: a row per part row with its number, sizes and counts.
    const all = pages.flatMap((lines) => lines);
    const rowsOf = new Map<string, any[]>();
    for (const p of record.parts) rowsOf.set(p.id.split('.')[0], [...(rowsOf.get(p.id.split('.')[0]) ?? []), p]);
    [...rowsOf.entries()].forEach(([row, list], i) => {
      const p = list[0];
      const name = p.name.replace(/\s+/g, ' ');
      const placed = list.filter((q) => q.added).length;
      expect(all.some((l) => l.startsWith(`${i + 1} ${row} ${name} ${p.l} ${p.w}`) && l.includes(` ${list.length} ${placed}`)), `parts list row ${row}`).toBe(true);
    });
    expect(all).toContain('1 0 side 720 560 18 MDF 4 4 l1 ABS 2mm, l2 0.0×4');
  });

  it('PDF labels: one label per placed part, 24 to a page, with the id, name, size and banding', async () => {
    const record = jobs.cabinet.record;
    const pages = await pdfPages((await exported('cabinet', 'pdf', 'labels')).bytes);
    const placed = record.parts.filter((p: any) => p.added);
    expect(pages).toHaveLength(Math.ceil(placed.length / 24));
    const text = pages.flatMap((l) => l).join('\n');
    for (const p of placed) {
      expect(text).toContain(p.id);
      expect(text).toContain(`stock ${p.stock.id}`);
      expect(text).toContain(`x ${p.x} y ${p.y}`);
    }
    expect(text.match(/Edges: l1 ABS 2mm, l2/g)).toHaveLength(4);
    expect(text).toContain('716 × 396 × 18 · MDF');
  });

  it('DXF: layers, units, sheets side by side, parts, cuts, offcuts and drilling where the record has them', async () => {
    for (const job of ['cabinet', 'turned', 'stacked'] as const) {
      const record = jobs[job].record;
      const dxf = new DxfParser().parseSync((await exported(job, 'dxf')).text)!;
      expect(dxf.header.$ACADVER).toBe('AC1009');
      expect(dxf.header.$INSUNITS).toBe(4);
      expect(Object.keys(dxf.tables.layer.layers)).toEqual(expect.arrayContaining(['STOCK', 'PARTS', 'CUTS', 'OFFCUTS', 'LABELS', 'DRILLING']));
      const of = (type: string, layer: string) => dxf.entities.filter((e: any) => e.type === type && e.layer === layer) as any[];
      const box = (e: any) => {
        const xs = e.vertices.map((v: any) => v.x), ys = e.vertices.map((v: any) => v.y);
        return { x: Math.min(...xs), y: Math.min(...ys), dx: Math.max(...xs) - Math.min(...xs), dy: Math.max(...ys) - Math.min(...ys) };
      };
      const sheets = of('POLYLINE', 'STOCK').map(box).sort((a, b) => a.x - b.x);
      const used = usedStock(record);
      expect(sheets).toHaveLength(used.length);
      const byStock = placements(record);
      used.forEach((s: any, i: number) => {
        const sheet = sheets[i];
        expect([sheet.dx, sheet.dy, sheet.y]).toEqual([s.l, s.w, 0]);
        if (i > 0) expect(sheet.x).toBeGreaterThan(sheets[i - 1].x + sheets[i - 1].dx);
        const inside = (b: { x: number }) => b.x >= sheet.x - 1e-6 && b.x <= sheet.x + sheet.dx + 1e-6;
        const shift = (b: any) => ({ ...b, x: b.x - sheet.x });
        expect(sorted(of('POLYLINE', 'PARTS').map(box).filter(inside).map(shift).map(rectKey)))
          .toEqual(sorted(byStock.get(s.id)!.map(rectKey)));
        expect(sorted(of('POLYLINE', 'OFFCUTS').map(box).filter(inside).map(shift).map(rectKey)))
          .toEqual(sorted(record.offcuts.filter((o: any) => o.stock.id === s.id).map((o: any) => rectKey({ x: o.x, y: o.y, dx: o.l, dy: o.w }))));
        const lines = of('LINE', 'CUTS').filter((e) => inside(e.vertices[0]))
          .map((e) => [e.vertices[0].x - sheet.x, e.vertices[0].y, e.vertices[1].x - sheet.x, e.vertices[1].y].map((v: number) => v.toFixed(3)).join(','));
        expect(sorted(lines)).toEqual(sorted(record.cuts.filter((c: any) => c.stock.id === s.id).map((c: any) => [c.x1, c.y1, c.x2, c.y2].map((v: number) => v.toFixed(3)).join(','))));
        expect(of('TEXT', 'LABELS').some((t) => t.text.startsWith(`${s.id} `) && t.text.endsWith(`x${s.stack}`))).toBe(true);
      });
      if (job === 'cabinet') {
        const circles = of('CIRCLE', 'DRILLING');
        expect(circles).toHaveLength(8); // 4 sides x 2 holes, each placed once
        expect(circles.every((c) => c.radius === 2.5)).toBe(true);
      }
    }
  });

  it('SVG: valid standalone XML, one group per stock entry, y flipped, parts and cuts at record coordinates', async () => {
    for (const job of ['cabinet', 'turned', 'stacked'] as const) {
      const record = jobs[job].record;
      const text = (await exported(job, 'svg')).text;
      expect(XMLValidator.validate(text)).toBe(true);
      const many = new Set(['g', 'rect', 'line', 'polygon', 'circle', 'text']);
      const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => many.has(name) }).parse(text);
      const svg = doc.svg;
      expect(svg.xmlns).toBe('http://www.w3.org/2000/svg');
      expect(svg.viewBox).toMatch(/^0 0 [\d.]+ [\d.]+$/);
      const groups = svg.g as any[];
      const used = usedStock(record);
      expect(groups.map((g) => g.id)).toEqual(used.map((s: any) => `stock-${s.id}`));
      const byStock = placements(record);
      used.forEach((s: any, i: number) => {
        const inner = groups[i].g[0];
        expect(inner.transform).toMatch(/scale\(1 -1\)$/);
        const rects = inner.rect as any[];
        const parts = rects.filter((r) => r['data-part']).map((r) => ({ x: +r.x, y: +r.y, dx: +r.width, dy: +r.height }));
        expect(sorted(parts.map(rectKey))).toEqual(sorted(byStock.get(s.id)!.map(rectKey)));
        const sheet = rects.find((r) => r['data-sheet'] === s.id);
        expect([+sheet.x, +sheet.y, +sheet.width, +sheet.height]).toEqual([0, 0, s.l, s.w]);
        const offcuts = rects.filter((r) => r['data-offcut']).map((r) => ({ x: +r.x, y: +r.y, dx: +r.width, dy: +r.height }));
        expect(sorted(offcuts.map(rectKey))).toEqual(sorted(record.offcuts.filter((o: any) => o.stock.id === s.id).map((o: any) => rectKey({ x: o.x, y: o.y, dx: o.l, dy: o.w }))));
        const cuts = (inner.line as any[]).filter((l) => l['data-cut']);
        expect(cuts).toHaveLength(record.cuts.filter((c: any) => c.stock.id === s.id).length);
        for (const l of cuts) {
          const c = record.cuts.find((k: any) => `${k.stock.id}#${k.order}` === l['data-cut']);
          expect([+l.x1, +l.y1, +l.x2, +l.y2].every((v, k) => near(v, [c.x1, c.y1, c.x2, c.y2][k], 1e-3))).toBe(true);
        }
      });
    }
  });

  it('PTX: the independent reader walks CUTS phase by phase and lands every part where the record placed it', async () => {
    for (const job of ['cabinet', 'turned', 'stacked'] as const) {
      const record = jobs[job].record;
      const file = parsePtx((await exported(job, 'ptx')).text);
      expect(file.version).toBe('1.21');
      const lines = (await exported(job, 'ptx')).text.split('\r\n');
      expect(lines.map((l) => l.split(',')[0]).filter((t, i, all) => t && all.indexOf(t) === i))
        .toEqual(['HEADER', 'JOBS', 'PARTS_REQ', 'PARTS_INF', 'BOARDS', 'MATERIALS', ...(record.offcuts.length ? ['OFFCUTS'] : []), 'PATTERNS', 'CUTS', 'VECTORS']);
      // PART_INDEX -> part row through PARTS_INF.BARCODE1.
      const rowOfIndex = new Map(file.records.get('PARTS_INF')!.map((f) => [Number(f[1]), f[26]]));
      const offcutIds = new Map((file.records.get('OFFCUTS') ?? []).map((f) => [Number(f[1]), f[10]]));
      const readings = readPatterns(file);
      const used = usedStock(record);
      expect(readings).toHaveLength(used.length);
      const byStock = placements(record);
      const firstCuts = new Map<string, string>();
      for (const c of [...record.cuts].sort((a: any, b: any) => a.order - b.order)) if (!c.isTrim && !firstCuts.has(c.stock.id)) firstCuts.set(c.stock.id, c.dimension);
      used.forEach((s: any, i: number) => {
        const r = readings[i];
        expect([r.length, r.width, r.qtyRun, r.qtyCycles]).toEqual([s.l, s.w, s.stack, s.stack]);
        expect(r.type).toBe(firstCuts.get(s.id) === 'w' ? 1 : 0);
        const landed = r.landings.filter((l) => l.kind === 'part').map((l) => `${rowOfIndex.get(l.index)}@${rectKey(l)}`);
        const expected = byStock.get(s.id)!.map((p) => `${p.row}@${rectKey(p)}`);
        expect(sorted(landed)).toEqual(sorted(expected));
        const offcuts = r.landings.filter((l) => l.kind === 'offcut').map((l) => `${offcutIds.get(l.index)}@${rectKey(l)}`);
        expect(sorted(offcuts)).toEqual(sorted(record.offcuts.filter((o: any) => o.stock.id === s.id).map((o: any) => `${o.id}@${rectKey({ x: o.x, y: o.y, dx: o.l, dy: o.w })}`)));
        // QTY_PARTS totals every sheet of the pattern.
        const instances = new Map<string, number>();
        for (const p of record.parts) if (p.added && p.stock.id === s.id) instances.set(p.id.split('.')[0], (instances.get(p.id.split('.')[0]) ?? 0) + 1);
        expect(new Map([...r.qtyParts].map(([k, v]) => [rowOfIndex.get(k), v]))).toEqual(instances);
      });
      if (job === 'stacked') expect(readings.map((r) => r.qtyRun)).toContain(4);
      if (job === 'turned') expect(readings.map((r) => r.type)).toContain(1);
      // Every non-trim cut of the record is one of the saw's cuts (VECTORS, origin bottom-left).
      const vectors = file.records.get('VECTORS')!.map((f) => f.map(Number));
      for (const c of record.cuts.filter((k: any) => !k.isTrim)) {
        const pattern = used.findIndex((s: any) => s.id === c.stock.id) + 1;
        const hit = vectors.some(([, p, , x1, y1, x2, y2]) => p === pattern && (c.dimension === 'l'
          ? near(y1, c.position, 1e-3) && near(y2, c.position, 1e-3) && x1 <= c.x1 + 1e-3 && x2 >= c.x2 - 1e-3
          : near(x1, c.position, 1e-3) && near(x2, c.position, 1e-3) && y1 <= c.y1 + 1e-3 && y2 >= c.y2 - 1e-3));
        expect(hit, `cut ${c.stock.id}#${c.order} in VECTORS`).toBe(true);
      }
    }
  });

  it('renders a large record in worker threads, several at once, to the same files', async () => {
    const { text, record } = jobs.large;
    expect(text.length).toBeGreaterThan(256 * 1024);
    const formats = ['csv', 'dxf', 'svg', 'ptx', 'pdf'];
    const replies = await Promise.all(formats.map((f) => exported('large', f)));
    const local = parseRecord(text);
    for (const [i, f] of formats.slice(0, 4).entries()) {
      expect(Buffer.from(replies[i].bytes).equals(Buffer.from(String(await FORMATS[f as 'csv'].render(local, 'layout')), 'utf8')), f).toBe(true);
    }
    const pages = await pdfPages(replies[4].bytes);
    expect(pages.filter((lines) => lines.some((l) => /^Pattern \d+ of \d+ · stock /.test(l)))).toHaveLength(usedStock(record).length);
    const readings = readPatterns(parsePtx(replies[3].text));
    expect(readings.reduce((n, r) => n + r.landings.filter((l) => l.kind === 'part').length, 0)).toBe([...placements(record).values()].flat().length);
  });

  it('PTX: parts, boards and materials carry the record\'s sizes and counts', async () => {
    const record = jobs.cabinet.record;
    const file = parsePtx((await exported('cabinet', 'ptx')).text);
    const req = file.records.get('PARTS_REQ')!;
    expect(req.map((f) => [f[1], f[4], f[5], f[6], f[10]])).toEqual([
      ['1', '720', '560', '4', '4'], ['2', '764', '560', '4', '4'], ['3', '764', '100', '8', '8'], ['4', '716', '396', '4', '4'], ['5', '740', '520', '3', '3'], ['6', '3000', '100', '1', '0'],
    ]);
    expect(req[3][9]).toBe('1'); // door: grain along its length
    expect(file.records.get('PARTS_INF')![0].slice(2, 11)).toEqual(['side', '4', '720', '560', '0', 'ABS_2MM', 'EDGE', '', '']);
    const [board] = file.records.get('BOARDS')!;
    expect([board[4], board[5], board[7], board[8]]).toEqual(['2800', '2070', String(record.metadata.totalUsedStock), '40']);
    const mdf = file.records.get('MATERIALS')!.find((f) => f[2] === 'MDF_18')!;
    expect([mdf[4], mdf[6], mdf[7]]).toEqual(['18', '4', '4']);
  });
});

describe('export errors', () => {
  it('400 for an unknown or missing format and an option the format does not take, naming the allowed values', async () => {
    const id = jobs.cabinet.id;
    const unknown = await download(`id=${id}&format=xlsx`);
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ version: '3', error: expect.stringContaining('pdf, csv, dxf, svg, ptx'), details: { issues: [{ path: 'format', message: 'must be one of pdf, csv, dxf, svg, ptx' }] } });
    const missing = await download(`id=${id}`);
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('Invalid request: format is required');
    const option = await download(`id=${id}&format=csv&option=labels`);
    expect(option.status).toBe(400);
    expect(option.json.error).toContain('layout, parts, cuts, machining');
    const dxf = await download(`id=${id}&format=dxf&option=parts`);
    expect(dxf.status).toBe(400);
    expect(dxf.json.details).toEqual({ field: 'option', format: 'dxf', allowed: ['layout'] });
    expect((await download(`id=abc&format=pdf`)).status).toBe(400);
  });

  it('401 without a key; 404 for a job that does not exist, is another account\'s, or is not finished', async () => {
    const id = jobs.cabinet.id;
    expect((await download(`id=${id}&format=csv`, null)).status).toBe(401);
    const missing = await download('id=999999&format=csv');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ version: '3', error: expect.stringContaining('999999') });

    const created = await cli(server.dataDir, 'accounts', 'create', '--email', 'exports-other@example.com');
    expect(created.code, created.stderr).toBe(0);
    const otherKey = /api key \(shown once\): (\S+)/.exec(created.stdout)![1];
    const foreign = await download(`id=${id}&format=pdf`, otherKey);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error).toBe(missing.json.error.replace('999999', String(id)));

    const running = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, name: '__hang__' }] });
    const notReady = await download(`id=${running}&format=svg`);
    expect(notReady.status).toBe(404);
    expect(notReady.json.error).toMatch(/not finished/);
  });

  it('422 for a failed job: there is nothing to export', async () => {
    const failed = await submit(server.url, DEV_KEY, { stock: [{ l: 1000, w: 1000 }], parts: [{ l: 300, w: 200, name: '__exit__' }] });
    const result = await waitForResult(server.url, DEV_KEY, failed);
    expect(result.status).toBe(422);
    const reply = await download(`id=${failed}&format=pdf`);
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({ error: expect.stringMatching(/nothing to export/), details: { jobId: failed, reason: result.json.message }, version: '3' });
  });

  it('410 once the result has expired', async () => {
    const short = await startServer({ env: { KERF_RETENTION_SECONDS: '1', KERF_POOL_THREADS: '1' } });
    try {
      const id = await submit(short.url, DEV_KEY, { stock: [{ l: 100, w: 100 }], parts: [{ l: 10, w: 10 }] });
      expect((await waitForResult(short.url, DEV_KEY, id)).status).toBe(200);
      expect((await download(`id=${id}&format=csv`, DEV_KEY, short.url)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_100));
      const gone = await download(`id=${id}&format=csv`, DEV_KEY, short.url);
      expect(gone.status).toBe(410);
      expect(gone.json).toMatchObject({ version: '3', error: expect.stringMatching(/expired/) });
    } finally {
      await short.stop();
    }
  });
});

describe('formats coming with nesting and linear stock (rendered from edited records)', () => {
  it('draws placed outlines of nested parts and says a nested pattern has no saw program', async () => {
    const record = structuredClone(jobs.cabinet.record);
    const doors = record.parts.filter((p: any) => p.added && p.name === 'door, "front"');
    for (const p of doors) {
      const [dx, dy] = p.rot ? [p.w, p.l] : [p.l, p.w];
      p.rotation = p.rot ? 90 : 0;
      p.placedOutline = [{ x: p.x, y: p.y }, { x: p.x + dx, y: p.y }, { x: p.x + dx, y: p.y + dy * 0.6 }, { x: p.x + dx / 2, y: p.y + dy }, { x: p.x, y: p.y + dy * 0.6 }];
      p.placedHoles = [[{ x: p.x + 50, y: p.y + 50 }, { x: p.x + 90, y: p.y + 50 }, { x: p.x + 70, y: p.y + 90 }]];
    }
    const nested = parseRecord(JSON.stringify(record));
    const svg = String(await FORMATS.svg.render(nested, 'layout'));
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (_name, _path, _leaf, attribute) => !attribute }).parse(svg);
    const polygons = doc.svg[0].g.flatMap((g: any) => g.g[0].polygon ?? []);
    expect(polygons.filter((p: any) => p['data-part']).map((p: any) => p['data-part']).sort()).toEqual(doors.map((p: any) => p.id).sort());
    const dxf = new DxfParser().parseSync(String(await FORMATS.dxf.render(nested, 'layout')))!;
    const pentagons = dxf.entities.filter((e: any) => e.type === 'POLYLINE' && e.layer === 'PARTS' && e.vertices.length === 5);
    expect(pentagons).toHaveLength(doors.length);
    const ptx = parsePtx(String(await FORMATS.ptx.render(nested, 'layout')));
    const doorStock = doors[0].stock.id;
    const pattern = usedStock(record).findIndex((s: any) => s.id === doorStock) + 1;
    expect(ptx.records.get('NOTES')![0][2]).toMatch(/nested/);
    expect(ptx.records.get('CUTS')!.some((f) => Number(f[1]) === pattern)).toBe(false);
    const pdf = await pdfPages(await FORMATS.pdf.render(nested, 'layout') as Buffer);
    expect(pdf.length).toBeGreaterThan(usedStock(record).length);
  });

  it('handles bars of linear stock (trims at the ends): drawn one above the other, cut program along the bar', async () => {
    // Shaped as the linear engine records bars: parts along x from the start trim, a cut after each.
    const bar = (id: string, stack: number) => ({
      id, name: 'bar', l: 6000, w: 40, t: null, material: 'alu', grain: '', type: 'linear', used: true, trim: { l1: 10, l2: 10, w1: 0, w2: 0 },
      cost: 12, notes: '', stack, analysis: { areaEfficiency: 0.9, partArea: 0, totalParts: 2, numberOfCuts: 4, cutLength: 160, stackedNumberOfCuts: 4, stackedCutLength: 160, bandingLength: 0, finishArea: 0, rollLength: 0 },
    });
    const part = (id: string, x: number, l: number, stock: string) => ({
      id, name: `piece ${id}`, l, w: 40, t: null, material: 'alu', notes: '', grain: '', orientationLock: '', x, y: 0, rot: 0, added: true, stock: { id: stock },
    });
    const cut = (stock: string, order: number, position: number, isTrim = false) =>
      ({ x1: position, y1: 0, x2: position, y2: 40, dimension: 'w', position, isTrim, order, phase: isTrim ? 0 : 1, stock: { id: stock } });
    const offcut = (id: string, x: number, l: number, q: number, stock: string) => ({ id, l, w: 40, t: null, x, y: 0, q, material: 'alu', grain: '', stock: { id: stock } });
    const record = {
      ...jobs.cabinet.record, saw: { stockType: 'linear', bladeWidth: 5 },
      stock: [bar('0.0', 2), bar('0.1', 1)],
      parts: [part('0.0', 10, 2500, '0.0'), part('0.1', 10, 2500, '0.0'), part('0.2', 10, 2500, '0.1'), part('1.0', 2515, 3000, '0.0'), part('1.1', 2515, 3000, '0.0')],
      cuts: [cut('0.0', 1, 10, true), cut('0.0', 2, 5990, true), cut('0.0', 3, 2510), cut('0.0', 4, 5515), cut('0.1', 1, 10, true), cut('0.1', 2, 5990, true), cut('0.1', 3, 2510)],
      offcuts: [offcut('0.0.0', 5520, 470, 2, '0.0'), offcut('0.1.0', 2515, 3475, 1, '0.1')],
      unusableParts: [],
    };
    const linear = parseRecord(JSON.stringify(record));
    const readings = readPatterns(parsePtx(String(await FORMATS.ptx.render(linear, 'layout'))));
    expect(readings.map((r) => r.landings.map((l) => `${l.kind}@${rectKey(l)}`).sort())).toEqual([
      ['offcut@5520.000,0.000,470.000,40.000', 'part@10.000,0.000,2500.000,40.000', 'part@2515.000,0.000,3000.000,40.000'],
      ['offcut@2515.000,0.000,3475.000,40.000', 'part@10.000,0.000,2500.000,40.000'],
    ]);
    expect(readings.map((r) => [r.type, r.qtyRun])).toEqual([[1, 2], [1, 1]]);
    const dxf = new DxfParser().parseSync(String(await FORMATS.dxf.render(linear, 'layout')))!;
    const bars = dxf.entities.filter((e: any) => e.type === 'POLYLINE' && e.layer === 'STOCK').map((e: any) => Math.min(...e.vertices.map((v: any) => v.y)));
    expect(bars[0]).toBe(0);
    expect(bars[1]).toBeGreaterThan(40);
    const csv: Record<string, string>[] = parseCsv(String(await FORMATS.csv.render(linear, 'layout')), { columns: true, bom: true });
    expect(csv.map((r) => [r.stock_id, r.x, r.l])).toEqual([['0.0', '10', '2500'], ['0.0', '10', '2500'], ['0.1', '10', '2500'], ['0.0', '2515', '3000'], ['0.0', '2515', '3000']]);
    const svg = String(await FORMATS.svg.render(linear, 'layout'));
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('cut 2 bars like this');
    const pages = await pdfPages(await FORMATS.pdf.render(linear, 'layout') as Buffer);
    // Both bars on one page, each with its cuts.
    const barPages = pages.filter((l) => l.some((t) => /^Pattern \d+ of \d+ · stock /.test(t)));
    expect(barPages).toHaveLength(1);
    expect(barPages[0].filter((t) => /^Pattern \d of 2 · stock 0\.\d /.test(t))).toHaveLength(2);
    expect(barPages[0].join(' ')).toContain('1: 2500');
    expect(barPages[0].join(' ')).toContain('3: cut 2500 → part 1');
  });

  it('writes head cuts as phase 0 of a TYPE 2 pattern', async () => {
    // The turned job's first cuts, across the width, recorded as head cuts (stage 0) of a saw that rips along the length.
    const record = structuredClone(jobs.turned.record);
    record.saw.cutPreference = 'l';
    for (const c of record.cuts) if (!c.isTrim) c.phase -= 1;
    const file = parsePtx(String(await FORMATS.ptx.render(parseRecord(JSON.stringify(record)), 'layout')));
    const readings = readPatterns(file);
    expect(readings.map((r) => r.type)).toEqual(usedStock(record).map(() => 2));
    expect(file.records.get('CUTS')!.some((f) => f[4] === '0')).toBe(true);
    const byStock = placements(record);
    usedStock(record).forEach((s: any, i: number) => {
      expect(sorted(readings[i].landings.filter((l) => l.kind === 'part').map(rectKey))).toEqual(sorted(byStock.get(s.id)!.map(rectKey)));
    });
  });
});

/** Each page's text as lines: pdf.js text items (those right of fromX) grouped by baseline, left to right. */
async function pdfPages(bytes: Uint8Array, fromX = -Infinity): Promise<string[][]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  const pages: string[][] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    const rows = new Map<number, { x: number; s: string }[]>();
    for (const item of content.items as { str: string; transform: number[] }[]) {
      if (!item.str.trim() || item.transform[4] < fromX) continue;
      const y = Math.round(item.transform[5]);
      const row = rows.get(y) ?? rows.get(y - 1) ?? rows.get(y + 1) ?? [];
      row.push({ x: item.transform[4], s: item.str.trim() });
      if (!rows.has(y) && !rows.has(y - 1) && !rows.has(y + 1)) rows.set(y, row);
    }
    pages.push([...rows.entries()].sort((a, b) => b[0] - a[0]).map(([, row]) => row.sort((a, b) => a.x - b.x).map((r) => r.s).join(' ')));
  }
  await pdf.destroy();
  return pages;
}
