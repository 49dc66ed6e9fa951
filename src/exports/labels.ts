// Part labels for the PDF (option `labels`): one per placed part instance, 3 x 8 to an A4
// sheet (the common 63.5 x 33.9 mm label stock), with name, size, material, where it is cut
// from, edge banding marks, and the part id as a Code 39 barcode and in large type.
import { code39, code39Encodable } from './code39.js';
import { bandingOf, fmt, partGrainAxis, sheetsOf, sizeText, type ExportRecord, type RecordPart, type Side } from './model.js';
import { line, newDoc, type Doc } from './pdf-doc.js';

const MM = 72 / 25.4;
export const LABEL = { cols: 3, rows: 8, w: 63.5 * MM, h: 33.9 * MM, left: 6.4 * MM, top: 12.9 * MM, pitchX: 66 * MM, pitchY: 33.9 * MM };

export async function renderLabels(record: ExportRecord): Promise<Buffer> {
  const patterns = new Map(sheetsOf(record).map((s) => [s.stock.id, s]));
  const placed = record.parts.filter((p) => p.added && p.stock);
  const perPage = LABEL.cols * LABEL.rows;
  const pdf = newDoc(`kerf job ${record.jobId}: part labels`, Math.max(1, Math.ceil(placed.length / perPage)),
    (page, pages) => `kerf · job ${record.jobId} · labels · page ${page} of ${pages}`);
  const { doc } = pdf;
  placed.forEach((p, i) => {
    if (i % perPage === 0) pdf.addPage('portrait');
    const k = i % perPage;
    const x = LABEL.left + (k % LABEL.cols) * LABEL.pitchX;
    const y = LABEL.top + Math.floor(k / LABEL.cols) * LABEL.pitchY;
    const sheet = patterns.get(p.stock!.id);
    label(doc, p, x, y, sheet ? `pattern ${sheet.number}` : '');
  });
  if (placed.length === 0) {
    pdf.addPage('portrait');
    line(doc, `Job ${record.jobId}: no part was placed, there is nothing to label`, 40, 60, { size: 12 });
  }
  doc.end();
  return pdf.done;
}

function label(doc: Doc, p: RecordPart, x: number, y: number, pattern: string): void {
  const pad = 7;
  const inner = LABEL.w - 2 * pad;
  doc.roundedRect(x + 1, y + 1, LABEL.w - 2, LABEL.h - 2, 4).lineWidth(0.3).stroke('#cccccc');
  const idWidth = line(doc, p.id, x + LABEL.w - pad, y + 13, { size: 15, bold: true, align: 'right' });
  line(doc, p.name || `part ${p.id}`, x + pad, y + 12, { size: 10, bold: true, maxWidth: inner - idWidth - 6 });
  line(doc, [sizeText(p), p.material].filter(Boolean).join(' · '), x + pad, y + 26, { size: 8, maxWidth: inner });
  const at = `stock ${p.stock!.id}${pattern ? ` (${pattern})` : ''} · x ${fmt(p.x ?? 0)} y ${fmt(p.y ?? 0)}${p.rot === 1 ? ' · turned' : ''}`;
  line(doc, at, x + pad, y + 37, { size: 7, color: '#333333', maxWidth: inner });

  // Banding: the part drawn l across, each banded side a thick bar (l1 bottom, l2 top, w1 left, w2 right).
  const bx = x + pad, by = y + 45, bw = 34, bh = 18;
  doc.rect(bx, by, bw, bh).lineWidth(0.5).stroke('#555555');
  const band = bandingOf(p);
  const bar: Record<Side, [number, number, number, number]> = {
    l1: [bx, by + bh - 2.5, bw, 2.5], l2: [bx, by, bw, 2.5], w1: [bx, by, 2.5, bh], w2: [bx + bw - 2.5, by, 2.5, bh],
  };
  for (const side of Object.keys(bar) as Side[]) if (band[side] !== null) doc.rect(...bar[side]).fill('#111111');
  const marks = (Object.keys(bar) as Side[]).filter((s) => band[s] !== null).map((s) => (band[s] ? `${s} ${band[s]}` : s));
  line(doc, marks.length ? `Edges: ${marks.join(', ')}` : 'Edges: none', bx + bw + 6, by + 5, { size: 7, maxWidth: inner - bw - 6 });
  const grain = partGrainAxis(p);
  if (p.grain) line(doc, `Grain along ${p.grain === 'l' ? 'the length' : 'the width'}${grain ? ` (${grain} on the sheet)` : ''}`, bx + bw + 6, by + 14, { size: 7, maxWidth: inner - bw - 6 });

  // The id as a barcode along the bottom.
  if (code39Encodable(p.id)) {
    const { bars, width } = code39(p.id);
    const module = Math.min(1.2, inner / width);
    const top = y + 68, height = LABEL.h - 68 - 6;
    for (const [start, w] of bars) doc.rect(x + pad + start * module, top, w * module, height).fill('#000000');
  }
}

