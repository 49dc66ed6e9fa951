// CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break,
// quotes doubled). Default: one row per placed part instance; `parts`: one row per part row;
// `cuts`: the cut list in saw order; `machining`: the drilling in stock coordinates.
// `rotation` (degrees) and `mirrored` follow the listed columns: rotation 90 for a turned part,
// any angle once nested; mirrored yes for a part nested as its mirror image.
import { drillsOf, fmt, partRows, sheetsOf, type ExportRecord, type RecordPart } from './model.js';

type Cell = string | number | boolean | null;

const turned = (p: RecordPart) => p.rot === 1 || (p.rotation !== undefined && p.rotation % 360 !== 0);

function field(value: Cell, text: boolean): string {
  if (value === null) return '';
  let s = typeof value === 'number' ? fmt(value) : String(value);
  // A name starting with = + - @ would run as a formula in a spreadsheet: keep it text.
  if (text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function table(header: string[], rows: Cell[][], textColumns: Set<string>): string {
  const text = header.map((h) => textColumns.has(h));
  return [header.join(','), ...rows.map((r) => r.map((v, i) => field(v, text[i])).join(','))].map((l) => `${l}\r\n`).join('');
}

export function renderCsv(record: ExportRecord, option: string): string {
  switch (option) {
    case 'parts': {
      const rows = partRows(record).map((r) => [r.row, r.first.name, r.first.l, r.first.w, r.first.t, r.requested, r.placed, r.first.material]);
      return table(['part', 'name', 'l', 'w', 't', 'qty_requested', 'qty_placed', 'material'], rows, new Set(['part', 'name', 'material']));
    }
    case 'cuts': {
      const rows = sheetsOf(record).flatMap((s) => s.cuts.map((c) => [c.stock.id, c.order, c.phase, c.dimension, c.position, c.x1, c.y1, c.x2, c.y2, c.isTrim]));
      return table(['stock_id', 'order', 'phase', 'dimension', 'position', 'x1', 'y1', 'x2', 'y2', 'is_trim'], rows, new Set(['stock_id']));
    }
    case 'machining': {
      const rows = record.parts.filter((p) => p.added && p.stock).flatMap((p) =>
        drillsOf(p).map((d) => [p.stock!.id, p.id, p.name, d.x, d.y, d.diameter, d.depth]));
      return table(['stock_id', 'part_id', 'name', 'x', 'y', 'diameter', 'depth'], rows, new Set(['stock_id', 'part_id', 'name']));
    }
    default: {
      const rows = record.parts.filter((p) => p.added && p.stock).map((p) => [p.stock!.id, p.id, p.name, p.x, p.y, p.l, p.w, turned(p) ? 'yes' : 'no', p.material, p.rotation ?? (p.rot === 1 ? 90 : 0), p.mirrored ? 'yes' : 'no']);
      return table(['stock_id', 'part_id', 'name', 'x', 'y', 'l', 'w', 'rotated', 'material', 'rotation', 'mirrored'], rows, new Set(['stock_id', 'part_id', 'name', 'material']));
    }
  }
}
