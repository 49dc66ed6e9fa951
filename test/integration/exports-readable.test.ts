// Long (over 400 lines) because it is one reader's checklist per export format, sharing one server and its jobs.
// The exports as the people who use them read them: a CNC operator (drilling face, type and
// depth), a shop writing part names in any script, a sawyer (steps as fence settings, cut
// numbers on the diagram), whoever follows a nested sheet (labels inside each shape,
// neighbours told apart, clean numbers), one part numbering from diagram to label to list,
// edge banding on the drawings and labels, bars several to a page, unique PTX codes. Each
// file is read back by an independent reader (pdf.js, csv-parse, dxf-parser, an XML parser,
// the PTX reader in test/support).
import { parse as parseCsv } from 'csv-parse/sync';
import DxfParserModule from 'dxf-parser';
import { XMLParser } from 'fast-xml-parser';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_JOBS, type ExportJobName } from '../support/export-jobs.js';
import { submit, waitForResult } from '../support/client.js';
import { parsePtx } from '../support/ptx-reader.js';
import { DEV_KEY, startServer, type KerfServer } from '../support/server.js';

const DxfParser = ((DxfParserModule as any).default ?? DxfParserModule) as typeof import('dxf-parser').DxfParser;

let server: KerfServer;
const jobs = {} as Record<ExportJobName, { id: number; record: any }>;

beforeAll(async () => {
  server = await startServer();
  await Promise.all((Object.keys(EXPORT_JOBS) as ExportJobName[]).map(async (name) => {
    const id = await submit(server.url, DEV_KEY, EXPORT_JOBS[name]);
    const reply = await waitForResult(server.url, DEV_KEY, id);
    expect(reply.status, reply.text).toBe(200);
    jobs[name] = { id, record: reply.json };
  }));
});
afterAll(async () => {
  await server?.stop();
});

async function exported(job: ExportJobName, format: string, option = 'layout'): Promise<{ bytes: Buffer; text: string }> {
  const response = await fetch(`${server.url}/v3/result/export?id=${jobs[job].id}&format=${format}&option=${option}`, { headers: { authorization: DEV_KEY } });
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.status, bytes.toString('utf8', 0, 300)).toBe(200);
  return { bytes, text: bytes.toString('utf8') };
}

const csvRows = (text: string): Record<string, string>[] => parseCsv(text, { columns: true, bom: true, record_delimiter: '\r\n' });

const many = new Set(['g', 'rect', 'line', 'polygon', 'circle', 'text', 'svg']);
function svgOf(text: string) {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => many.has(name) }).parse(text);
  const groups = doc.svg[0].g as any[];
  const all = (kind: string) => groups.flatMap((g) => (g.g?.[0]?.[kind] ?? []) as any[]);
  return { groups, all };
}
/** translate(x y) of an SVG text: its anchor point in stock coordinates. */
const textAt = (t: any) => {
  const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(t.transform)!;
  return { x: Number(m[1]), y: Number(m[2]), size: Number(t['font-size']), text: String(t['#text']), turned: t.transform.includes('rotate') };
};
const emWidth = (s: string) => [...s].reduce((w, c) => w + (c.codePointAt(0)! >= 0x2e80 ? 1 : 0.6), 0);

/** pdf.js text per page as lines (items grouped by baseline). */
async function pdfText(bytes: Uint8Array): Promise<string[][]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  const pages: string[][] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    const rows = new Map<number, { x: number; s: string }[]>();
    for (const item of content.items as { str: string; transform: number[] }[]) {
      if (!item.str.trim()) continue;
      const y = Math.round(item.transform[5]);
      const key = [y, y - 1, y + 1].find((k) => rows.has(k)) ?? y;
      rows.set(key, [...(rows.get(key) ?? []), { x: item.transform[4], s: item.str }]);
    }
    pages.push([...rows.entries()].sort((a, b) => b[0] - a[0]).map(([, r]) => r.sort((a, b) => a.x - b.x).map((t) => t.s).join(' ').replace(/\s+/g, ' ').trim()));
  }
  await pdf.destroy();
  return pages;
}

/** The label sheets' text, one entry per label (3 x 8 to a page, 66 x 33.9 mm pitch), in print order. */
async function labelTexts(bytes: Uint8Array): Promise<string[]> {
  const mm = 72 / 25.4;
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  const out: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const page = await pdf.getPage(i);
    const height = page.getViewport({ scale: 1 }).height;
    const cells = new Map<number, { x: number; y: number; s: string }[]>();
    for (const item of (await page.getTextContent()).items as { str: string; transform: number[] }[]) {
      const x = item.transform[4], y = height - item.transform[5];
      const col = Math.floor((x - 6.4 * mm) / (66 * mm)), row = Math.floor((y - 12.9 * mm) / (33.9 * mm));
      if (!item.str.trim() || row < 0 || row > 7) continue;
      const k = row * 3 + col;
      cells.set(k, [...(cells.get(k) ?? []), { x, y, s: item.str }]);
    }
    for (const k of [...cells.keys()].sort((a, b) => a - b)) out.push(cells.get(k)!.sort((a, b) => a.y - b.y || a.x - b.x).map((t) => t.s).join('\n'));
  }
  await pdf.destroy();
  return out;
}

function inRing(p: { x: number; y: number }, ring: { x: number; y: number }[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i], b = ring[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}
const partBox = (p: any) => ({ x: p.x, y: p.y, dx: p.rot ? p.w : p.l, dy: p.rot ? p.l : p.w });

describe('1. drilling keeps its face, type and depth', () => {
  it('machining CSV: face, side, type, depth and through columns; edge bores enter on the part edge', async () => {
    const { record } = jobs.cabinet;
    const rows = csvRows((await exported('cabinet', 'csv', 'machining')).text);
    const placed = record.parts.filter((p: any) => p.added);
    const sides = placed.filter((p: any) => p.name === 'side'), doors = placed.filter((p: any) => p.name === 'door');
    expect(rows).toHaveLength(sides.length * 6 + doors.length * 2);
    const of = (face: string) => rows.filter((r) => r.face === face);
    expect(of('0').map((r) => [r.side, r.type, r.depth, r.through])).toEqual(expect.arrayContaining([['front', 'shelf', '12', 'no'], ['front', 'hinge', '13', 'no']]));
    expect(of('1')).toHaveLength(sides.length * 2);
    expect(of('1').every((r) => r.side === 'back' && r.type === 'shelf' && r.depth === '12')).toBe(true);
    for (const r of [...of('2'), ...of('4')]) {
      const p = record.parts.find((q: any) => q.id === r.part_id);
      const b = partBox(p);
      const x = Number(r.x), y = Number(r.y);
      const onEdge = [Math.abs(x - b.x), Math.abs(x - b.x - b.dx), Math.abs(y - b.y), Math.abs(y - b.y - b.dy)].some((d) => d < 1e-6);
      expect(onEdge, `edge bore of ${r.part_id} at ${x},${y} on its edge`).toBe(true);
      expect([r.side, r.depth, r.part_x, r.part_y, r.number]).toEqual([r.face === '2' ? 'edge l1' : 'edge w1', '30', '280', '9', String(Number(p.id.split('.')[0]) + 1)]);
    }
  });

  it('SVG and DXF draw back-face holes dashed, edge bores from the edge, front holes as circles; no hinge cup covers a part number', async () => {
    const { record } = jobs.cabinet;
    const svg = svgOf((await exported('cabinet', 'svg')).text);
    const circles = svg.all('circle');
    const back = circles.filter((c) => c['data-face'] === 'back'), front = circles.filter((c) => c['data-face'] === 'front');
    const sides = record.parts.filter((p: any) => p.added && p.name === 'side');
    const doors = record.parts.filter((p: any) => p.added && p.name === 'door');
    const distinct = (list: any[]) => new Set(list.map((p) => `${p.stock.id}|${p.x}|${p.y}`)).size;
    expect(back).toHaveLength(distinct(sides) * 2);
    expect(back.every((c) => c['stroke-dasharray'])).toBe(true);
    expect(front.every((c) => !c['stroke-dasharray'])).toBe(true);
    expect(front).toHaveLength(distinct(sides) * 2 + distinct(doors) * 2);
    const slots = svg.all('polygon').filter((p) => p['data-face'] === 'edge');
    expect(slots).toHaveLength(distinct(sides) * 2);
    for (const slot of slots) {
      const p = record.parts.find((q: any) => q.id === slot['data-drill']);
      const b = partBox(p);
      const pts = String(slot.points).split(' ').map((s) => s.split(',').map(Number));
      // Two corners on the part's edge, the other two 30 (the depth) inside it.
      const onEdge = pts.filter(([x, y]) => [x - b.x, b.x + b.dx - x, y - b.y, b.y + b.dy - y].some((d) => Math.abs(d) < 1e-3));
      expect(onEdge.length, `slot of ${p.id}`).toBe(2);
      expect(pts.every(([x, y]) => x >= b.x - 1e-3 && x <= b.x + b.dx + 1e-3 && y >= b.y - 1e-3 && y <= b.y + b.dy + 1e-3)).toBe(true);
    }
    // The doors' 35 mm cups and their numbers: the number's box clear of every cup.
    const labels = svg.all('text').filter((t) => t['data-label-for'] && t['font-weight'] === 'bold');
    for (const door of doors) {
      const label = labels.find((t) => t['data-label-for'] === door.id);
      if (!label) continue; // a stacked copy: its placement carries the first id
      const t = textAt(label);
      const hw = (t.turned ? t.size : emWidth(t.text) * t.size) / 2, hh = (t.turned ? emWidth(t.text) * t.size : t.size) / 2;
      for (const cup of front.filter((c) => c['data-drill'] === door.id)) {
        const cx = Number(cup.cx), cy = Number(cup.cy), r = Number(cup.r);
        const nx = Math.max(t.x - hw, Math.min(cx, t.x + hw)), ny = Math.max(t.y - hh, Math.min(cy, t.y + hh));
        expect(Math.hypot(cx - nx, cy - ny), `door ${door.id} number clear of its cup`).toBeGreaterThanOrEqual(r);
      }
    }
    expect(labels.filter((t) => doors.some((d: any) => d.id === t['data-label-for'])).length).toBeGreaterThan(0);

    const dxfText = (await exported('cabinet', 'dxf')).text;
    const dxf = new DxfParser().parseSync(dxfText)!;
    const on = (type: string, layer: string) => dxf.entities.filter((e: any) => e.type === type && e.layer === layer);
    expect(on('CIRCLE', 'DRILLING_BACK')).toHaveLength(back.length);
    expect(on('CIRCLE', 'DRILLING')).toHaveLength(front.length);
    expect(on('POLYLINE', 'DRILLING_EDGE')).toHaveLength(slots.length);
    // dxf-parser skips a layer's line type: read it from the LAYER table itself.
    expect(dxfText).toMatch(/\r\n2\r\nDRILLING_BACK\r\n70\r\n0\r\n62\r\n\d+\r\n6\r\nDASHED\r\n/);
  });
});

describe('2. text in every script', () => {
  const names = ['półka łączona', 'Tür links', 'ράφι κουζίνας', 'Шкаф боковина', '书架 側板'];

  it('PDF: report and labels print the names with an embedded font, and the file stays small', async () => {
    const { bytes } = await exported('names', 'pdf');
    const text = (await pdfText(bytes)).flat().join('\n');
    for (const name of names) expect(text, name).toContain(name);
    expect(text).toContain('Płyta MDF');
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+WenQuanYiMicroHei/);
    expect(bytes.toString('latin1')).toContain('/FontFile2');
    // Only the glyphs used are embedded: far below the 5 MB font file.
    expect(bytes.length).toBeLessThan(150_000);
    const labels = (await pdfText((await exported('names', 'pdf', 'labels')).bytes)).flat().join('\n');
    for (const name of names) expect(labels, name).toContain(name);
  });

  it('CSV starts with a byte-order mark and keeps the names; SVG and DXF keep them too', async () => {
    const csv = await exported('names', 'csv');
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new Set(csvRows(csv.text).map((r) => r.name))).toEqual(new Set([...names, 'CABINET SIDE LEFT', 'CABINET SIDE RIGHT']));
    const svg = svgOf((await exported('names', 'svg')).text);
    const labelled = new Set(svg.all('text').filter((t) => t['data-label-for']).map((t) => String(t['#text'])));
    for (const name of names) expect(labelled, name).toContain(name);
    // DXF text is 8-bit: AutoCAD's \U+XXXX escapes, decoded here as CAD programs do.
    const dxf = new DxfParser().parseSync((await exported('names', 'dxf')).text)!;
    const decode = (s: string) => s.replace(/\\U\+([0-9A-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    const texts = new Set(dxf.entities.filter((e: any) => e.type === 'TEXT').map((e: any) => decode(e.text)));
    for (const name of names) expect(texts, name).toContain(name);
  });

  it('PTX: names transliterated to readable ASCII, codes unique', async () => {
    const text = (await exported('names', 'ptx')).text;
    expect(/^[\x20-\x7e\r\n]*$/.test(text)).toBe(true);
    const ptx = parsePtx(text);
    const desc = ptx.records.get('PARTS_INF')!.map((f) => f[2]);
    expect(desc).toEqual(['polka laczona', 'Tur links', 'rafi koyzinas', 'Shkaf bokovina', 'ShuJia CeBan', 'CABINET SIDE LEFT', 'CABINET SIDE RIGHT']);
    const codes = ptx.records.get('PARTS_REQ')!.map((f) => f[2]);
    expect(codes.slice(0, 5)).toEqual(['POLKA_LACZ', 'TUR_LINKS', 'RAFI_KOYZI', 'SHKAF_BOKO', 'SHUJIA_CEB']);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((c) => /^[A-Z0-9_.-]{1,10}$/.test(c))).toBe(true);
    expect(ptx.records.get('MATERIALS')![0][2]).toBe('PLYTA_MDF_');
  });
});

describe('3. the cut list a sawyer works from', () => {
  it('PDF: per pattern, the steps as fence settings in saw order, beside the diagram', async () => {
    const { record } = jobs.cabinet;
    const pages = await pdfText((await exported('cabinet', 'pdf')).bytes);
    const kerf = record.saw.bladeWidth;
    for (const s of record.stock.filter((x: any) => x.used)) {
      const page = pages.find((l) => l[0]?.startsWith(`Pattern `) && l[0].includes(`· stock ${s.id} `))!;
      const text = page.join('\n');
      expect(text).toContain('Saw steps');
      expect(text).toMatch(/trim 10 × 4/);
      // Rip settings, recomputed from the record: each first-stage cut takes a strip from the edge or the last cut.
      const cuts = record.cuts.filter((c: any) => c.stock.id === s.id && c.phase === 1).sort((a: any, b: any) => a.position - b.position);
      const dim = cuts[0]?.dimension;
      const start = dim === 'l' ? s.trim.l1 : s.trim.w1;
      const fences = cuts.map((c: any, i: number) => c.position - (i === 0 ? start : cuts[i - 1].position + kerf));
      const printed = [...text.matchAll(/\brip (\d+(?:\.\d+)?)(?: × (\d+))?/g)].flatMap((m) => Array(Number(m[2] ?? 1)).fill(Number(m[1])));
      expect(printed, `rips of ${s.id}`).toEqual(fences);
      expect(text).toMatch(/\bcross \d+/);
    }
    expect(pages.some((l) => l[0]?.startsWith('Cut list in saw order'))).toBe(false);
  });

  it('SVG: every cut carries its number, on the cut', async () => {
    const { record } = jobs.cabinet;
    const svg = svgOf((await exported('cabinet', 'svg')).text);
    const numbers = svg.all('text').filter((t) => t['data-cut-number']);
    for (const c of record.cuts) {
      const t = numbers.find((n) => n['data-cut-number'] === `${c.stock.id}#${c.order}`);
      expect(t, `number of cut ${c.stock.id}#${c.order}`).toBeDefined();
      const at = textAt(t);
      expect(at.text).toBe(String(c.order));
      const on = c.dimension === 'l' ? Math.abs(at.y - c.y1) < 1e-3 && at.x >= c.x1 && at.x <= c.x2 : Math.abs(at.x - c.x1) < 1e-3 && at.y >= c.y1 && at.y <= c.y2;
      expect(on).toBe(true);
    }
  });
});

describe('4. nesting drawings and clean numbers', () => {
  it('the record has clean numbers: no float noise next to whole-number input (on the 3-decimal grid, or a true value farther off), every coordinate inside its stock', async () => {
    for (const job of ['nesting', 'cabinet', 'roll', 'linear'] as const) {
      const { record } = jobs[job];
      const size = new Map(record.stock.map((s: any) => [s.id, s]));
      // Clean: on the grid of 3 decimals, or a true value (a slanted corner) clear of it, with at most 6.
      const decimals = (v: number) => {
        const grid = Math.round(v * 1000) / 1000;
        const digits = (String(v).split('.')[1] ?? '').length;
        return digits <= 3 || (Math.abs(v - grid) > 5e-5 && digits <= 6) ? 0 : digits;
      };
      const inside = (stockId: string, x: number, y: number) => {
        const s: any = size.get(stockId);
        return x >= 0 && y >= 0 && x <= s.l && y <= s.w;
      };
      for (const p of record.parts.filter((q: any) => q.added)) {
        for (const q of [{ x: p.x, y: p.y }, ...(p.placedOutline ?? []), ...(p.placedHoles ?? []).flat()]) {
          expect(decimals(q.x) <= 3 && decimals(q.y) <= 3, `${job} ${p.id} at ${q.x},${q.y}`).toBe(true);
          expect(inside(p.stock.id, q.x, q.y), `${job} ${p.id} at ${q.x},${q.y} inside`).toBe(true);
        }
      }
      for (const c of record.cuts) expect(inside(c.stock.id, c.x1, c.y1) && inside(c.stock.id, c.x2, c.y2) && [c.x1, c.y1, c.x2, c.y2].every((v) => decimals(v) <= 3)).toBe(true);
      for (const o of record.offcuts) expect(inside(o.stock.id, o.x, o.y) && inside(o.stock.id, o.x + o.l, o.y + o.w)).toBe(true);
      const m = record.metadata;
      for (const v of [m.totalCutLength, m.totalStackedCutLength, m.totalPartArea, m.totalOffcutsArea]) expect(decimals(v), `${job} total ${v}`).toBeLessThanOrEqual(3);
    }
  });

  it('SVG: each shaped part\'s label sits inside its material (not in the notch or the hole); touching neighbours have different fills', async () => {
    const { record } = jobs.nesting;
    const svg = svgOf((await exported('nesting', 'svg')).text);
    const shapes = svg.all('polygon').filter((p) => p['data-part']);
    const labels = svg.all('text').filter((t) => t['data-label-for'] && t['font-weight'] === 'bold');
    const placed = record.parts.filter((p: any) => p.added);
    expect(labels.length).toBe(placed.length);
    for (const p of placed) {
      const t = textAt(labels.find((l) => l['data-label-for'] === p.id));
      const hw = (t.turned ? t.size : emWidth(t.text) * t.size) / 2, hh = (t.turned ? emWidth(t.text) * t.size : t.size) / 2;
      for (const corner of [{ x: t.x - hw, y: t.y - hh }, { x: t.x + hw, y: t.y - hh }, { x: t.x + hw, y: t.y + hh }, { x: t.x - hw, y: t.y + hh }]) {
        expect(inRing(corner, p.placedOutline), `${p.name} ${p.id} label inside its outline`).toBe(true);
        for (const hole of p.placedHoles) expect(inRing(corner, hole), `${p.id} label outside its hole`).toBe(false);
      }
    }
    const boxes = shapes.map((s) => {
      const pts = String(s.points).split(' ').map((q) => q.split(',').map(Number));
      const xs = pts.map((q) => q[0]), ys = pts.map((q) => q[1]);
      return { fill: s.fill, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
    });
    let touching = 0;
    boxes.forEach((a, i) => boxes.slice(0, i).forEach((b) => {
      if (Math.max(a.x0 - b.x1, b.x0 - a.x1, a.y0 - b.y1, b.y0 - a.y1) > 0) return;
      touching++;
      expect(a.fill).not.toBe(b.fill);
    }));
    expect(touching).toBeGreaterThan(0);
  });

  it('PDF: the nesting cover prints its totals as a person reads them', async () => {
    const { record } = jobs.nesting;
    const cover = (await pdfText((await exported('nesting', 'pdf')).bytes))[0].join('\n');
    const length = /Cut length ([\d.]+)/.exec(cover)![1];
    expect((length.split('.')[1] ?? '').length).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(length) - record.metadata.totalCutLength)).toBeLessThanOrEqual(0.05);
  });
});

describe('5. one numbering, labels in saw order', () => {
  it('the number on the diagram is the one in the CSV, on the label, in the parts list and next to the name in the DXF', async () => {
    const { record } = jobs.cabinet;
    const number = (id: string) => String(Number(id.split('.')[0]) + 1);
    const csv = csvRows((await exported('cabinet', 'csv')).text);
    for (const r of csv) expect(r.number).toBe(number(r.part_id));
    const svg = svgOf((await exported('cabinet', 'svg')).text);
    for (const t of svg.all('text').filter((x) => x['data-label-for'] && x['font-weight'] === 'bold')) expect(String(t['#text'])).toBe(number(t['data-label-for']));
    const dxf = new DxfParser().parseSync((await exported('cabinet', 'dxf')).text)!;
    const texts = dxf.entities.filter((e: any) => e.type === 'TEXT' && e.layer === 'LABELS').map((e: any) => e.text);
    for (const name of ['side', 'door', 'bottom', 'rail', 'shelf']) expect(texts, name).toContain(name);
    const labels = await labelTexts((await exported('cabinet', 'pdf', 'labels')).bytes);
    const placed = record.parts.filter((p: any) => p.added);
    expect(labels).toHaveLength(placed.length);
    for (const label of labels) {
      // The name, then on the same line (a lower baseline: it is larger) the number.
      const [name, number] = label.split('\n');
      expect(number).toBe(String(Number(placed.find((p: any) => p.name === name).id.split('.')[0]) + 1));
    }
  });

  it('labels come in the order the parts leave the saw: pattern by pattern, each part after the cut that frees it', async () => {
    const { record } = jobs.cabinet;
    const kerf = record.saw.bladeWidth;
    const labels = await labelTexts((await exported('cabinet', 'pdf', 'labels')).bytes);
    const where = labels.map((l) => /pattern (\d+) · stock (\S+) · x (\S+) y (\S+)/.exec(l)).filter((m) => m !== null);
    expect(where).toHaveLength(record.parts.filter((p: any) => p.added).length);
    // Independently: a part is free after the last cut along its edges (trims count), in cut order.
    const freedAt = (stockId: string, x: number, y: number) => {
      const p = record.parts.find((q: any) => q.added && q.stock.id === stockId && q.x === x && q.y === y);
      const b = partBox(p);
      const bounding = record.cuts.filter((c: any) => c.stock.id === stockId && (c.dimension === 'l'
        ? (Math.abs(c.position - (b.y + b.dy)) < 1e-6 || Math.abs(c.position + kerf - b.y) < 1e-6) && c.x1 <= b.x + 1e-6 && c.x2 >= b.x + b.dx - 1e-6
        : (Math.abs(c.position - (b.x + b.dx)) < 1e-6 || Math.abs(c.position + kerf - b.x) < 1e-6) && c.y1 <= b.y + 1e-6 && c.y2 >= b.y + b.dy - 1e-6));
      return Math.max(0, ...bounding.map((c: any) => c.order));
    };
    const keys = where.map((m) => [Number(m[1]), freedAt(m[2], Number(m[3]), Number(m[4]))]);
    for (let i = 1; i < keys.length; i++) {
      const [pa, fa] = keys[i - 1], [pb, fb] = keys[i];
      expect(pb > pa || (pb === pa && fb >= fa) || (pb === pa && fb < fa && keys.slice(0, i).some(([p, f]) => p === pb && f > fb)), `label ${i}`).toBe(true);
    }
    expect(keys.map(([p]) => p)).toEqual([...keys.map(([p]) => p)].sort((a, b) => a - b));
  });
});

describe('6. edge banding on the drawings and the labels', () => {
  it('SVG and DXF draw a line on each banded edge (sides, types, {type, thickness}, legacy x/y names); labels name them', async () => {
    const { record } = jobs.cabinet;
    const svg = svgOf((await exported('cabinet', 'svg')).text);
    const lines = svg.all('line').filter((l) => l['data-banding']);
    const expected: Record<string, string[]> = { side: ['l1', 'l2'], door: ['l1', 'l2', 'w1', 'w2'], bottom: ['l2', 'w1'], rail: [], shelf: ['l2'] };
    const firstIds = new Set(lines.map((l) => String(l['data-banding']).split(':')[0]));
    expect(firstIds.size).toBeGreaterThan(0);
    for (const id of firstIds) {
      const p = record.parts.find((q: any) => q.id === id);
      const sides = lines.filter((l) => String(l['data-banding']).startsWith(`${id}:`)).map((l) => String(l['data-banding']).split(':')[1]).sort();
      expect(sides, `${p.name} ${id}`).toEqual(expected[p.name]);
      const b = partBox(p);
      for (const l of lines.filter((x) => String(x['data-banding']).startsWith(`${id}:`))) {
        const [x1, y1, x2, y2] = [l.x1, l.y1, l.x2, l.y2].map(Number);
        // Along one edge of the part, just inside it.
        const horizontal = Math.abs(y1 - y2) < 1e-6;
        expect(horizontal ? Math.min(Math.abs(y1 - b.y), Math.abs(y1 - b.y - b.dy)) : Math.min(Math.abs(x1 - b.x), Math.abs(x1 - b.x - b.dx))).toBeLessThan(Math.min(b.dx, b.dy) * 0.05);
        expect(horizontal ? Math.abs(Math.abs(x2 - x1) - b.dx) : Math.abs(Math.abs(y2 - y1) - b.dy)).toBeLessThan(1e-3);
        // l sides run along the part's length, w sides across it.
        const along = horizontal ? b.dx : b.dy;
        const side = String(l['data-banding']).split(':')[1];
        expect(Math.abs(along - (side.startsWith('l') ? p.l : p.w))).toBeLessThan(1e-6);
      }
    }
    const dxf = new DxfParser().parseSync((await exported('cabinet', 'dxf')).text)!;
    expect(dxf.entities.filter((e: any) => e.type === 'LINE' && e.layer === 'BANDING')).toHaveLength(lines.length);
    const labels = (await pdfText((await exported('cabinet', 'pdf', 'labels')).bytes)).flat().join('\n');
    expect(labels).toContain('Edges: l1 ABS 2, l2 ABS 0.8');
    expect(labels).toContain('Edges: l1, l2, w1, w2');
    expect(labels).toContain('Edges: l2 PVC, w1 PVC');
  });
});

describe('7. bars several to a page; unique PTX codes', () => {
  it('PDF: the bars of a linear job share pages, each with its cuts', async () => {
    const { record } = jobs.linear;
    const patterns = record.stock.filter((s: any) => s.used).length;
    expect(patterns).toBeGreaterThan(2);
    const pages = await pdfText((await exported('linear', 'pdf')).bytes);
    const barPages = pages.filter((l) => l[0] === 'Bars');
    expect(barPages.length).toBeLessThan(patterns);
    expect(barPages.flat().filter((l) => /^Pattern \d+ of \d+ · stock /.test(l))).toHaveLength(patterns);
    expect(barPages.flat().join('\n')).toMatch(/\d+: cut (2500|1830|1170|640) → part \d/);
  });

  it('PTX: two parts whose names share their first ten letters get different codes', async () => {
    const codes = parsePtx((await exported('names', 'ptx')).text).records.get('PARTS_REQ')!.map((f) => f[2]);
    expect(codes.slice(5)).toEqual(['CABINET_SI', 'CABINET_-2']);
  });
});
