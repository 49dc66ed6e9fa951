// PDF report: a cover with the totals; per pattern its diagram to scale with the cut numbers
// on it and, beside it, the saw steps (fence settings in saw order, what each cut takes off);
// bars of linear stock several to a page, each with its cuts; then the parts list. `labels`
// gives the label sheets instead. Machine coordinates of every cut are in the CSV (`cuts`).
import { diagram, PART_FILLS, STYLES, type Diagram, type Shape } from './diagram.js';
import { renderLabels } from './labels.js';
import { bandingOf, bandText, fmt, kerfOf, partRows, pieces, rowOf, sheetsOf, SIDES, sizeText, type ExportRecord, type Sheet } from './model.js';
import { A4, line, newDoc, tableRow, type Column, type Doc, type PagedDoc } from './pdf-doc.js';
import { cutNumbers, sawPlan, stepText, type SawStep } from './saw-steps.js';

const M = 36; // page margin, points
const ROW = 13;
const ROWS_PER_PAGE = 34;
/** The saw steps column beside a pattern's diagram, and its rows. */
const STEPS_W = 230;
const STEP_ROW = 10.5;
const STEP_ROWS = Math.floor((A4.short - M - 70 - 60) / STEP_ROW);
/** Linear bars: the height of one bar's block, and how many fit a page. */
const BAR_BLOCK = 92;
const BARS_PER_PAGE = Math.floor((A4.short - M - 40 - 40) / BAR_BLOCK);

type Page = (pdf: PagedDoc) => void;

export async function renderPdf(record: ExportRecord, option: string): Promise<Buffer> {
  if (option === 'labels') return renderLabels(record);
  const sheets = sheetsOf(record);
  const kerf = kerfOf(record);
  const pages: Page[] = [(pdf) => cover(pdf, record, sheets)];
  const bars = sheets.filter((s) => s.stock.type === 'linear');
  for (const sheet of sheets.filter((s) => s.stock.type !== 'linear')) {
    const plan = sawPlan(sheet, kerf);
    const rows = stepRows(plan.steps);
    pages.push((pdf) => patternPage(pdf, sheet, sheets.length, rows.slice(0, STEP_ROWS), plan.none));
    for (let at = STEP_ROWS; at < rows.length; at += STEP_ROWS * 3) {
      const chunk = rows.slice(at, at + STEP_ROWS * 3);
      pages.push((pdf) => stepsPage(pdf, sheet, chunk));
    }
  }
  for (let at = 0; at < bars.length; at += BARS_PER_PAGE) {
    const chunk = bars.slice(at, at + BARS_PER_PAGE);
    pages.push((pdf) => barsPage(pdf, chunk, sheets.length, kerf));
  }
  const partListRows = partsListRows(record);
  for (let p = 0, n = pagesFor(partListRows); p < n; p++) pages.push((pdf) => tablePage(pdf, 'Parts list', PART_COLUMNS, partListRows, p, n));
  const pdf = newDoc(`kerf job ${record.jobId}: cutting plan`, pages.length, (page, total) => `kerf · job ${record.jobId} · page ${page} of ${total}`);
  for (const page of pages) page(pdf);
  pdf.doc.end();
  return pdf.done;
}

const pagesFor = (rows: unknown[]) => Math.max(1, Math.ceil(rows.length / ROWS_PER_PAGE));
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
/** A total as a person reads it: one decimal at most (a nested sheet's cut length sums slanted edges). */
const total = (v: number) => fmt(Math.round(v * 10) / 10);

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
    ['Cut length', `${total(m.totalCutLength)} (stacked ${total(m.totalStackedCutLength)})`],
    ['Stock cost', fmt(m.totalStockCost)],
    ['Offcuts', `${m.totalOffcuts} (area ${total(m.totalOffcutsArea)})`],
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

/** A row of the saw steps table: the cut numbers, the setting, what comes off (a rest row: only the last). */
interface StepRow { cuts: string; step: string; off: string }

function stepRows(steps: SawStep[]): StepRow[] {
  return steps.flatMap((s) => [
    { cuts: cutNumbers(s.cuts), step: stepText(s), off: s.cuts.length > 1 && s.off !== 'trim' ? `${s.off} each` : s.off },
    ...(s.rest ? [{ cuts: '', step: '', off: `rest: ${s.rest}` }] : []),
  ]);
}

function patternHeader(pdf: PagedDoc, sheet: Sheet, count: number): void {
  const { doc } = pdf;
  const { stock } = sheet;
  const a = stock.analysis;
  line(doc, `Pattern ${sheet.number} of ${count} · stock ${stock.id}`, M, M, { size: 14, bold: true });
  line(doc, `× ${pieces(stock)}`, A4.long - M, M, { size: 14, bold: true, align: 'right' });
  const desc = [sizeText(stock), stock.material, stock.name, stock.grain ? `grain ${stock.grain === 'l' ? 'along the length' : 'across'}` : ''].filter(Boolean).join(' · ');
  line(doc, desc, M, M + 18, { size: 10, color: '#333333' });
  line(doc, `Efficiency ${pct(a.areaEfficiency)} · ${a.totalParts} parts · ${a.numberOfCuts} cuts · cut length ${total(a.cutLength)}`, M, M + 32, { size: 9, color: '#555555' });
}

/** `none`: why the pattern has no saw steps (nested, routed). */
function patternPage(pdf: PagedDoc, sheet: Sheet, count: number, rows: StepRow[], none?: string): void {
  const { doc } = pdf;
  pdf.addPage('landscape');
  patternHeader(pdf, sheet, count);
  const { stock } = sheet;
  // The diagram on the left, the saw steps beside it.
  const area = { x: M, y: M + 48, w: A4.long - 2 * M - STEPS_W - 14, h: A4.short - M - 48 - 60 };
  const rough = Math.min(area.w / (stock.l * 1.06), area.h / (stock.w * 1.1));
  const d = diagram(sheet, { minText: 5 / rough, maxText: 10 / rough });
  drawDiagram(doc, d, area);
  if (none) line(doc, `No saw steps: ${none}.`, A4.long - M - STEPS_W, M + 62, { size: 8, color: '#444444', maxWidth: STEPS_W });
  else stepsTable(doc, rows, A4.long - M - STEPS_W, M + 62, 'Saw steps');
  legend(doc, A4.short - 52);
}

function stepsPage(pdf: PagedDoc, sheet: Sheet, rows: StepRow[]): void {
  const { doc } = pdf;
  pdf.addPage('landscape');
  line(doc, `Pattern ${sheet.number} · stock ${sheet.stock.id}: saw steps, continued`, M, M, { size: 14, bold: true });
  for (let c = 0; c < 3; c++) stepsTable(doc, rows.slice(c * STEP_ROWS, (c + 1) * STEP_ROWS), M + c * (STEPS_W + 20), M + 30, c === 0 ? 'Saw steps' : '');
}

const STEP_COLUMNS: Column[] = [{ title: 'Cuts', width: 42 }, { title: 'Setting', width: 78 }, { title: 'Takes off', width: STEPS_W - 120 }];

function stepsTable(doc: Doc, rows: StepRow[], x: number, y: number, title: string): void {
  if (!rows.length) return;
  if (title) line(doc, title, x, y - 14, { size: 10, bold: true });
  tableRow(doc, STEP_COLUMNS, STEP_COLUMNS.map((c) => c.title), x, y, { size: 7.5, bold: true, color: '#444444' });
  doc.moveTo(x, y + 5.5).lineTo(x + STEPS_W, y + 5.5).lineWidth(0.4).stroke('#999999');
  for (const r of rows) {
    y += STEP_ROW;
    tableRow(doc, STEP_COLUMNS, [r.cuts, r.step, r.off], x, y, { size: 7.5, color: r.cuts || r.step ? '#111111' : '#555555' });
  }
}

/** Bars of linear stock, several to a page: each its title, its drawing and its cuts in a line. */
function barsPage(pdf: PagedDoc, bars: Sheet[], count: number, kerf: number): void {
  const { doc } = pdf;
  pdf.addPage('landscape');
  line(doc, 'Bars', M, M, { size: 14, bold: true });
  let y = M + 22;
  for (const sheet of bars) {
    const { stock } = sheet;
    const a = stock.analysis;
    line(doc, `Pattern ${sheet.number} of ${count} · stock ${stock.id} · ${[sizeText(stock), stock.material].filter(Boolean).join(' ')} · × ${pieces(stock)}`, M, y, { size: 9.5, bold: true });
    line(doc, `${pct(a.areaEfficiency)} · ${a.totalParts} parts · ${a.numberOfCuts} cuts`, A4.long - M, y, { size: 8.5, color: '#555555', align: 'right' });
    const area = { x: M, y: y + 8, w: A4.long - 2 * M, h: 44 };
    const rough = area.w / stock.l;
    drawDiagram(doc, diagram(sheet, { minText: 5 / rough, maxText: 8 / rough }), area);
    const plan = sawPlan(sheet, kerf);
    const steps = plan.none ? [plan.none] : plan.steps.map((s) => `${cutNumbers(s.cuts)}: ${stepText(s)} → ${s.off}${s.rest ? `; rest: ${s.rest}` : ''}`);
    flow(doc, steps, M, y + 62, A4.long - 2 * M, 2);
    y += BAR_BLOCK;
  }
}

/** Items separated by " · ", wrapped over at most `lines` lines (the last cut with an ellipsis). */
function flow(doc: Doc, items: string[], x: number, y: number, width: number, lines: number): void {
  doc.fontSize(7.5);
  const out: string[] = [''];
  for (const item of items) {
    const next = out[out.length - 1] ? `${out[out.length - 1]} · ${item}` : item;
    if (doc.widthOfString(next) <= width || !out[out.length - 1]) out[out.length - 1] = next;
    else out.push(item);
  }
  out.slice(0, lines).forEach((text, i) => line(doc, text, x, y + i * 10, { size: 7.5, color: '#222222', maxWidth: width }));
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
  const paint = (fill = st.fill) => {
    doc.lineWidth(st.width);
    if (st.dash) doc.dash(st.dash[0], { space: st.dash[1] });
    if (fill && st.stroke) doc.fillAndStroke(fill, st.stroke);
    else if (fill) doc.fill(fill);
    else if (st.stroke) doc.stroke(st.stroke);
    if (st.dash) doc.undash();
  };
  switch (shape.kind) {
    case 'rect':
      doc.rect(X(shape.x), Y(shape.y + shape.h), shape.w * s, shape.h * s);
      return paint(shape.fill ?? st.fill);
    case 'poly':
      doc.polygon(...shape.points.map((p): [number, number] => [X(p.x), Y(p.y)]));
      return paint(shape.fill ?? st.fill);
    case 'line':
      doc.moveTo(X(shape.x1), Y(shape.y1)).lineTo(X(shape.x2), Y(shape.y2));
      return paint(null);
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
  const label = (text: string) => (x += 16 + line(doc, text, x + 16, y, { size: 7.5, color: '#444444' }) + 12);
  const swatch = (fill: string, stroke: string, text: string) => {
    doc.rect(x, y - 4.5, 12, 9).lineWidth(0.5).fillAndStroke(fill, stroke);
    label(text);
  };
  swatch(PART_FILLS[0], STYLES.part.stroke!, 'part: number, name, sizes');
  swatch(STYLES.offcut.fill!, STYLES.offcut.stroke!, 'offcut');
  swatch(STYLES.sheet.fill!, STYLES.sheet.stroke!, 'waste');
  swatch(STYLES.trim.fill!, STYLES.trim.fill!, 'trim');
  doc.moveTo(x, y).lineTo(x + 12, y).lineWidth(STYLES.cut.width).stroke(STYLES.cut.stroke!);
  doc.rect(x + 2, y - 4, 8, 8).lineWidth(0.4).fillAndStroke('#ffffff', STYLES.cut.stroke!);
  line(doc, '5', x + 6, y, { size: 6, color: STYLES.cut.stroke!, align: 'center' });
  label('cut and its number');
  doc.moveTo(x, y + 3).lineTo(x + 12, y + 3).lineWidth(STYLES.banding.width).stroke(STYLES.banding.stroke!);
  label('edge banding');
  doc.circle(x + 6, y, 3.5).lineWidth(STYLES.drill.width).fillAndStroke(STYLES.drill.fill!, STYLES.drill.stroke!);
  label('drilling, front');
  doc.circle(x + 6, y, 3.5).lineWidth(STYLES.drillBack.width).dash(1.5, { space: 1.2 }).stroke(STYLES.drillBack.stroke!);
  doc.undash();
  label('back face (dashed)');
  doc.rect(x, y - 1.5, 12, 3).lineWidth(STYLES.drillEdge.width).fillAndStroke(STYLES.drillEdge.fill!, STYLES.drillEdge.stroke!);
  label('edge bore');
  doc.moveTo(x, y).lineTo(x + 12, y).lineWidth(STYLES.grain.width).stroke(STYLES.grain.stroke!);
  doc.polygon([x + 12, y], [x + 8, y - 2.5], [x + 8, y + 2.5]).fill(STYLES.grain.fill!);
  label('grain');
}

/** Page `p` of `n` of a table, the header repeated, "page i of n" in the title. */
function tablePage(pdf: PagedDoc, title: string, columns: Column[], rows: string[][], p: number, n: number): void {
  const { doc } = pdf;
  pdf.addPage('landscape');
  line(doc, `${title} (page ${p + 1} of ${n})`, M, M, { size: 14, bold: true });
  let y = M + 26;
  tableRow(doc, columns, columns.map((c) => c.title), M, y, { size: 8.5, bold: true, color: '#444444' });
  doc.moveTo(M, y + 7).lineTo(A4.long - M, y + 7).lineWidth(0.5).stroke('#999999');
  for (const row of rows.slice(p * ROWS_PER_PAGE, (p + 1) * ROWS_PER_PAGE)) {
    y += ROW;
    tableRow(doc, columns, row, M, y, { size: 8.5 });
  }
  if (rows.length === 0) line(doc, 'none', M, y + ROW, { size: 8.5 });
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
    const banding = SIDES.filter((s) => band[s]).map((s) => [s, bandText(band[s]!)].filter(Boolean).join(' ')).join(', ');
    const on = [...(where.get(r.row) ?? new Map<string, number>()).entries()].map(([id, n]) => `${id}×${n}`).join(' ');
    return [String(r.number), r.row, p.name, fmt(p.l), fmt(p.w), p.t === null ? '' : fmt(p.t), p.material, p.grain, String(r.requested), String(r.placed), banding, on];
  });
}
