// Part labels for the PDF (option `labels`): one per placed part instance, 3 x 8 to an A4
// sheet (the common 63.5 x 33.9 mm label stock), in the order the parts come off the saw
// (pattern by pattern; on a beam saw the copies of a book together, else sheet by sheet).
// Each carries the part number the diagrams and lists print, large, with which copy it is,
// the name, size, material, where it is cut from, the part drawn with its banded edges, and
// "<number>-<copy>" as a Code 39 barcode.
import { code39, code39Encodable } from './code39.js';
import { STYLES } from './diagram.js';
import { bandingOf, bandText, copyOf, fmt, kerfOf, partGrainAxis, partRows, rowOf, sheetsOf, SIDES, sizeText, type ExportRecord, type RecordPart, type Side } from './model.js';
import { line, newDoc, type Doc } from './pdf-doc.js';
import { sawPlan } from './saw-steps.js';

const MM = 72 / 25.4;
export const LABEL = { cols: 3, rows: 8, w: 63.5 * MM, h: 33.9 * MM, left: 6.4 * MM, top: 12.9 * MM, pitchX: 66 * MM, pitchY: 33.9 * MM };

interface Item { part: RecordPart; number: number; copy: number; copies: number; pattern: number }

/** Every placed instance, in saw order. */
export function labelOrder(record: ExportRecord): Item[] {
  const rows = new Map(partRows(record).map((r) => [r.row, r]));
  const byId = new Map(record.parts.map((p) => [p.id, p]));
  const kerf = kerfOf(record);
  const book = record.saw.cutType === 'beam';
  const items: Item[] = [];
  for (const sheet of sheetsOf(record)) {
    const order = sawPlan(sheet, kerf).order;
    // A placement holds one instance per sheet of the stack: a book's come off together, else sheet after sheet.
    const sheetsInStack = Math.max(0, ...order.map((pl) => pl.ids.length));
    const ids = book ? order.flatMap((pl) => pl.ids) : Array.from({ length: sheetsInStack }, (_, k) => order.flatMap((pl) => pl.ids[k] ?? [])).flat();
    for (const id of ids) {
      const row = rows.get(rowOf(id))!;
      items.push({ part: byId.get(id)!, number: row.number, copy: copyOf(id), copies: row.requested, pattern: sheet.number });
    }
  }
  return items;
}

export async function renderLabels(record: ExportRecord): Promise<Buffer> {
  const items = labelOrder(record);
  const perPage = LABEL.cols * LABEL.rows;
  const pdf = newDoc(`kerf job ${record.jobId}: part labels`, Math.max(1, Math.ceil(items.length / perPage)),
    (page, pages) => `kerf · job ${record.jobId} · labels in saw order · page ${page} of ${pages}`);
  const { doc } = pdf;
  items.forEach((item, i) => {
    if (i % perPage === 0) pdf.addPage('portrait');
    const k = i % perPage;
    const x = LABEL.left + (k % LABEL.cols) * LABEL.pitchX;
    const y = LABEL.top + Math.floor(k / LABEL.cols) * LABEL.pitchY;
    label(doc, item, x, y);
  });
  if (items.length === 0) {
    pdf.addPage('portrait');
    line(doc, `Job ${record.jobId}: no part was placed, there is nothing to label`, 40, 60, { size: 12 });
  }
  doc.end();
  return pdf.done;
}

function label(doc: Doc, item: Item, x: number, y: number): void {
  const { part: p } = item;
  const pad = 7;
  const inner = LABEL.w - 2 * pad;
  doc.roundedRect(x + 1, y + 1, LABEL.w - 2, LABEL.h - 2, 4).lineWidth(0.3).stroke('#cccccc');
  // The number, large, top right; which copy under it.
  const numWidth = line(doc, String(item.number), x + LABEL.w - pad, y + 14, { size: 18, bold: true, align: 'right' });
  line(doc, `${item.copy} of ${item.copies}`, x + LABEL.w - pad, y + 28, { size: 6.5, color: '#444444', align: 'right' });
  line(doc, p.name || `part ${item.number}`, x + pad, y + 12, { size: 10, bold: true, maxWidth: inner - numWidth - 6 });
  line(doc, [sizeText(p), p.material].filter(Boolean).join(' · '), x + pad, y + 25, { size: 8, maxWidth: inner - 34 });
  const at = `pattern ${item.pattern} · stock ${p.stock!.id} · x ${fmt(p.x ?? 0)} y ${fmt(p.y ?? 0)}${p.rot === 1 ? ' · turned' : ''} · id ${p.id}`;
  line(doc, at, x + pad, y + 36, { size: 6.5, color: '#333333', maxWidth: inner });

  // The part drawn l across (l1 bottom, l2 top, w1 left, w2 right), banded edges thick.
  const bx = x + pad, by = y + 43, bw = 34, bh = 18;
  doc.rect(bx, by, bw, bh).lineWidth(0.5).stroke('#555555');
  const band = bandingOf(p);
  const bar: Record<Side, [number, number, number, number]> = {
    l1: [bx, by + bh - 3, bw, 3], l2: [bx, by, bw, 3], w1: [bx, by, 3, bh], w2: [bx + bw - 3, by, 3, bh],
  };
  for (const side of SIDES) if (band[side]) doc.rect(...bar[side]).fill(STYLES.banding.stroke!);
  const marks = SIDES.filter((s) => band[s]).map((s) => [s, bandText(band[s]!)].filter(Boolean).join(' '));
  line(doc, marks.length ? `Edges: ${marks.join(', ')}` : 'Edges: none', bx + bw + 6, by + 5, { size: 7, maxWidth: inner - bw - 6 });
  const grain = partGrainAxis(p);
  if (p.grain) line(doc, `Grain along ${p.grain === 'l' ? 'the length' : 'the width'}${grain ? ` (${grain} on the sheet)` : ''}`, bx + bw + 6, by + 14, { size: 7, maxWidth: inner - bw - 6 });

  // "<number>-<copy>" as a barcode along the bottom.
  const code = `${item.number}-${item.copy}`;
  if (code39Encodable(code)) {
    const { bars, width } = code39(code);
    const module = Math.min(1.2, inner / width);
    const top = y + 66, height = LABEL.h - 66 - 6;
    for (const [start, w] of bars) doc.rect(x + pad + start * module, top, w * module, height).fill('#000000');
  }
}
