// PDF report: a cover with the totals, one page per distinct pattern with its diagram to
// scale, the cut list in saw order and the parts list; `labels` gives the label sheets instead.
import { diagram, STYLES, type Diagram, type Shape } from './diagram.js';
import { renderLabels } from './labels.js';
import { bandingOf, cutLength, fmt, partRows, pieces, rowOf, sheetsOf, SIDES, sizeText, type ExportRecord, type Sheet } from './model.js';
import { A4, line, newDoc, tableRow, type Column, type Doc, type PagedDoc } from './pdf-doc.js';

const M = 36; // page margin, points
const ROW = 13;
const ROWS_PER_PAGE = 34;

export async function renderPdf(record: ExportRecord, option: string): Promise<Buffer> {
  if (option === 'labels') return renderLabels(record);
  const sheets = sheetsOf(record);
  const cutRows = cutListRows(sheets);
  const partListRows = partsListRows(record);
  const pages = 1 + sheets.length + pagesFor(cutRows) + pagesFor(partListRows);
  const pdf = newDoc(`kerf job ${record.jobId}: cutting plan`, pages, (page, total) => `kerf · job ${record.jobId} · page ${page} of ${total}`);
  cover(pdf, record, sheets);
  for (const sheet of sheets) patternPage(pdf, sheet, sheets.length);
  paged(pdf, 'Cut list in saw order', CUT_COLUMNS, cutRows);
  paged(pdf, 'Parts list', PART_COLUMNS, partListRows);
  pdf.doc.end();
  return pdf.done;
}

const pagesFor = (rows: unknown[]) => Math.max(1, Math.ceil(rows.length / ROWS_PER_PAGE));
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

function cover(pdf: PagedDoc, record: ExportRecord, sheets: Sheet[]): void {
  const { doc } = pdf;
  pdf.addPage('landscape');
  const m = record.metadata;
  let y = M + 14;
  line(doc, 'Cutting plan', M, y, { size: 22, bold: true });
  y += 26;
  line(doc, `Job ${record.jobId}`, M, y, { size: 12 });
  line(doc, 'Sizes as given in the request (the result carries no units).', A4.long - M, y, { size: 8, color: '#666666', align: 'right' });
  y += 28;

  const placed = record.parts.filter((p) => p.added).length;
  const totals: [string, string][] = [
    ['Sheets used', String(m.totalUsedStock)],
    ['Patterns', String(sheets.length)],
    ['Efficiency', pct(m.totalEfficiency)],
    ['Parts placed', `${placed} of ${record.parts.length}`],
    ['Cuts', `${m.totalCuts} (stacked ${m.totalStackedCuts})`],
    ['Cut length', `${fmt(m.totalCutLength)} (stacked ${fmt(m.totalStackedCutLength)})`],
    ['Stock cost', fmt(m.totalStockCost)],
    ['Offcuts', `${m.totalOffcuts} (area ${fmt(m.totalOffcutsArea)})`],
  ];
  line(doc, 'Totals', M, y, { size: 12, bold: true });
  y += 18;
  for (const [label, value] of totals) {
    line(doc, label, M, y, { size: 10, color: '#444444' });
    line(doc, value, M + 110, y, { size: 10, bold: true });
    y += 15;
  }

  // Sheets by size, to the right of the totals.
  const sizes = new Map<string, { size: string; material: string; sheets: number; patterns: number }>();
  for (const s of sheets) {
    const key = `${sizeText(s.stock)}|${s.stock.material}`;
    const entry = sizes.get(key) ?? { size: sizeText(s.stock), material: s.stock.material, sheets: 0, patterns: 0 };
    entry.sheets += s.stock.stack;
    entry.patterns++;
    sizes.set(key, entry);
  }
  const x2 = M + 330;
  let y2 = 96;
  line(doc, 'Sheets by size', x2, y2, { size: 12, bold: true });
  y2 += 18;
  const cols: Column[] = [{ title: 'Size', width: 150 }, { title: 'Material', width: 120 }, { title: 'Sheets', width: 60, align: 'right' }, { title: 'Patterns', width: 60, align: 'right' }];
  tableRow(doc, cols, cols.map((c) => c.title), x2, y2, { size: 9, bold: true, color: '#444444' });
  for (const e of [...sizes.values()].slice(0, 12)) {
    y2 += 14;
    tableRow(doc, cols, [e.size, e.material, String(e.sheets), String(e.patterns)], x2, y2, { size: 9 });
  }
  y2 += 30;

  const unplaced = record.unusableParts;
  if (unplaced.length) {
    line(doc, 'Not placed', x2, y2, { size: 12, bold: true, color: '#b71c1c' });
    for (const u of unplaced.slice(0, 12)) {
      y2 += 14;
      line(doc, `${u.q} × ${u.name || `part ${u.id}`} (${sizeText(u)}): ${u.issues[0]?.message ?? ''}`, x2, y2, { size: 8, maxWidth: A4.long - M - x2 });
    }
    if (unplaced.length > 12) line(doc, `and ${unplaced.length - 12} more rows`, x2, (y2 += 14), { size: 8 });
  }
  y = Math.max(y, y2) + 24;
  line(doc, 'Patterns', M, y, { size: 12, bold: true });
  y += 18;
  const pcols: Column[] = [{ title: 'Pattern', width: 60 }, { title: 'Stock', width: 70 }, { title: 'Size', width: 150 }, { title: 'Material', width: 110 }, { title: 'Sheets', width: 55, align: 'right' }, { title: 'Parts', width: 55, align: 'right' }, { title: 'Efficiency', width: 75, align: 'right' }, { title: 'Cuts', width: 55, align: 'right' }];
  tableRow(doc, pcols, pcols.map((c) => c.title), M, y, { size: 9, bold: true, color: '#444444' });
  const room = Math.floor((A4.short - 40 - y) / 13);
  for (const s of sheets.slice(0, room - 1)) {
    y += 13;
    const a = s.stock.analysis;
    tableRow(doc, pcols, [String(s.number), s.stock.id, sizeText(s.stock), s.stock.material, String(s.stock.stack), String(a.totalParts), pct(a.areaEfficiency), String(a.numberOfCuts)], M, y, { size: 9 });
  }
  if (sheets.length > room - 1) line(doc, `and ${sheets.length - room + 1} more: see the pattern pages`, M, y + 13, { size: 8 });
}

function patternPage(pdf: PagedDoc, sheet: Sheet, count: number): void {
  const { doc } = pdf;
  pdf.addPage('landscape');
  const { stock } = sheet;
  const a = stock.analysis;
  line(doc, `Pattern ${sheet.number} of ${count} · stock ${stock.id}`, M, M, { size: 14, bold: true });
  line(doc, `× ${pieces(stock)}`, A4.long - M, M, { size: 14, bold: true, align: 'right' });
  const desc = [sizeText(stock), stock.material, stock.name, stock.grain ? `grain ${stock.grain === 'l' ? 'along the length' : 'across'}` : ''].filter(Boolean).join(' · ');
  line(doc, desc, M, M + 18, { size: 10, color: '#333333' });
  line(doc, `Efficiency ${pct(a.areaEfficiency)} · ${a.totalParts} parts · ${a.numberOfCuts} cuts · cut length ${fmt(a.cutLength)}`, M, M + 32, { size: 9, color: '#555555' });

  // Fit the sheet first, then the finished drawing with its annotations.
  const area = { x: M, y: M + 48, w: A4.long - 2 * M, h: A4.short - M - 48 - 48 };
  const rough = Math.min(area.w / (stock.l * 1.06), area.h / (stock.w * 1.1));
  const d = diagram(sheet, { minText: 5 / rough, maxText: 10 / rough });
  drawDiagram(doc, d, area);
  legend(doc, A4.short - 46);
}

function drawDiagram(doc: Doc, d: Diagram, area: { x: number; y: number; w: number; h: number }): void {
  const bw = d.box.maxX - d.box.minX, bh = d.box.maxY - d.box.minY;
  const s = Math.min(area.w / bw, area.h / bh);
  const ox = area.x + (area.w - bw * s) / 2, oy = area.y;
  const X = (x: number) => ox + (x - d.box.minX) * s;
  const Y = (y: number) => oy + (d.box.maxY - y) * s; // y up in the record, down on the page
  for (const shape of d.shapes) drawShape(doc, shape, X, Y, s);
}

function drawShape(doc: Doc, shape: Shape, X: (x: number) => number, Y: (y: number) => number, s: number): void {
  const st = STYLES[shape.style];
  const paint = () => {
    doc.lineWidth(st.width);
    if (st.fill && st.stroke) doc.fillAndStroke(st.fill, st.stroke);
    else if (st.fill) doc.fill(st.fill);
    else if (st.stroke) doc.stroke(st.stroke);
  };
  switch (shape.kind) {
    case 'rect':
      doc.rect(X(shape.x), Y(shape.y + shape.h), shape.w * s, shape.h * s);
      return paint();
    case 'poly':
      doc.polygon(...shape.points.map((p): [number, number] => [X(p.x), Y(p.y)]));
      return paint();
    case 'line':
      doc.moveTo(X(shape.x1), Y(shape.y1)).lineTo(X(shape.x2), Y(shape.y2));
      doc.lineWidth(st.width).stroke(st.stroke ?? '#000000');
      return;
    case 'circle':
      doc.circle(X(shape.cx), Y(shape.cy), Math.max(shape.r * s, 0.8));
      return paint();
    case 'text': {
      const x = X(shape.x), y = Y(shape.y);
      const o = { size: shape.size * s, bold: shape.bold, color: st.fill ?? '#111111', align: shape.anchor === 'middle' ? 'center' as const : 'left' as const };
      if (shape.angle === 90) {
        doc.save();
        doc.rotate(-90, { origin: [x, y] });
        line(doc, shape.text, x, y, o);
        doc.restore();
      } else line(doc, shape.text, x, y, o);
    }
  }
}

function legend(doc: Doc, y: number): void {
  let x = M;
  const swatch = (style: keyof typeof STYLES, label: string) => {
    const st = STYLES[style];
    doc.rect(x, y - 5, 14, 10).lineWidth(0.5);
    if (st.fill) doc.fillAndStroke(st.fill, st.stroke ?? st.fill);
    else doc.stroke(st.stroke ?? '#000000');
    x += 18 + line(doc, label, x + 18, y, { size: 8, color: '#444444' }) + 16;
  };
  swatch('part', 'part (number, sizes along x and y)');
  swatch('offcut', 'offcut');
  swatch('sheet', 'waste');
  swatch('trim', 'trim');
  doc.moveTo(x, y).lineTo(x + 14, y).lineWidth(STYLES.cut.width).stroke(STYLES.cut.stroke!);
  x += 18 + line(doc, 'cut', x + 18, y, { size: 8, color: '#444444' }) + 16;
  doc.moveTo(x, y).lineTo(x + 14, y).lineWidth(STYLES.grain.width).stroke(STYLES.grain.stroke!);
  doc.polygon([x + 14, y], [x + 10, y - 2.5], [x + 10, y + 2.5]).fill(STYLES.grain.fill!);
  x += 18 + line(doc, 'grain', x + 18, y, { size: 8, color: '#444444' }) + 16;
  doc.circle(x + 5, y, 3).lineWidth(STYLES.drill.width).fillAndStroke(STYLES.drill.fill!, STYLES.drill.stroke!);
  line(doc, 'drilling', x + 14, y, { size: 8, color: '#444444' });
}

/** Rows over as many pages as they need, the header repeated, "page i of n" in the title. */
function paged(pdf: PagedDoc, title: string, columns: Column[], rows: string[][]): void {
  const { doc } = pdf;
  const pages = pagesFor(rows);
  for (let p = 0; p < pages; p++) {
    pdf.addPage('landscape');
    line(doc, `${title} (page ${p + 1} of ${pages})`, M, M, { size: 14, bold: true });
    let y = M + 26;
    tableRow(doc, columns, columns.map((c) => c.title), M, y, { size: 8.5, bold: true, color: '#444444' });
    doc.moveTo(M, y + 7).lineTo(A4.long - M, y + 7).lineWidth(0.5).stroke('#999999');
    for (const row of rows.slice(p * ROWS_PER_PAGE, (p + 1) * ROWS_PER_PAGE)) {
      y += ROW;
      tableRow(doc, columns, row, M, y, { size: 8.5 });
    }
    if (rows.length === 0) line(doc, 'none', M, y + ROW, { size: 8.5 });
  }
}

const CUT_COLUMNS: Column[] = [
  { title: 'Stock', width: 70 }, { title: 'Order', width: 45, align: 'right' }, { title: 'Phase', width: 45, align: 'right' },
  { title: 'Along', width: 45 }, { title: 'Position', width: 75, align: 'right' },
  { title: 'x1', width: 70, align: 'right' }, { title: 'y1', width: 70, align: 'right' }, { title: 'x2', width: 70, align: 'right' }, { title: 'y2', width: 70, align: 'right' },
  { title: 'Length', width: 75, align: 'right' }, { title: 'Kind', width: 60 }, { title: 'Sheets', width: 55, align: 'right' },
];

function cutListRows(sheets: Sheet[]): string[][] {
  return sheets.flatMap((s) => s.cuts.map((c) => [
    c.stock.id, String(c.order), String(c.phase), c.dimension, fmt(c.position),
    fmt(c.x1), fmt(c.y1), fmt(c.x2), fmt(c.y2), fmt(cutLength(c)), c.isTrim ? 'trim' : 'cut', String(s.stock.stack),
  ]));
}

const PART_COLUMNS: Column[] = [
  { title: 'No.', width: 35, align: 'right' }, { title: 'Part', width: 40 }, { title: 'Name', width: 130 },
  { title: 'L', width: 55, align: 'right' }, { title: 'W', width: 55, align: 'right' }, { title: 'T', width: 40, align: 'right' },
  { title: 'Material', width: 80 }, { title: 'Grain', width: 35 }, { title: 'Requested', width: 55, align: 'right' }, { title: 'Placed', width: 45, align: 'right' },
  { title: 'Banding', width: 100 }, { title: 'On stock', width: 100 },
];

function partsListRows(record: ExportRecord): string[][] {
  const where = new Map<string, Map<string, number>>();
  for (const p of record.parts) {
    if (!p.added || !p.stock) continue;
    const row = rowOf(p.id);
    const m = where.get(row) ?? new Map<string, number>();
    m.set(p.stock.id, (m.get(p.stock.id) ?? 0) + 1);
    where.set(row, m);
  }
  return partRows(record).map((r) => {
    const p = r.first;
    const band = bandingOf(p);
    const banding = SIDES.filter((s) => band[s] !== null).map((s) => (band[s] ? `${s} ${band[s]}` : s)).join(', ');
    const on = [...(where.get(r.row) ?? new Map<string, number>()).entries()].map(([id, n]) => `${id}×${n}`).join(' ');
    return [String(r.number), r.row, p.name, fmt(p.l), fmt(p.w), p.t === null ? '' : fmt(p.t), p.material, p.grain, String(r.requested), String(r.placed), banding, on];
  });
}
