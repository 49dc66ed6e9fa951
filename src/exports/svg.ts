// SVG: the PDF's cutting diagrams in one standalone drawing, sheets one under the other. Each
// stock entry is a <g id="stock-<id>"> whose inner group flips y, so the coordinates inside are
// the record's own (origin bottom-left, y up); texts are flipped back to read upright. Parts,
// offcuts, cuts and the sheet carry data-part / data-offcut / data-cut / data-sheet, a part's
// number and name data-label-for="<part id>", a cut's number data-cut-number. The result viewer inlines one <svg> per pattern
// (sheetSvg).
import { diagram, STYLES, type Diagram, type Shape } from './diagram.js';
import { fmt, pieces, sheetsOf, sizeText, type ExportRecord, type Sheet } from './model.js';

/** Width the drawing is meant to be seen at; strokes and the smallest text are sized for it. */
const VIEW_PX = 1200;
/** Latin first, then faces with Greek, Cyrillic and CJK, as viewers have them. */
export const FONT_FAMILY = "Helvetica, Arial, 'Noto Sans', 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'Microsoft YaHei', sans-serif";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number) => fmt(Math.round(v * 1000) / 1000);

export const patternTitle = (sheet: Sheet, count: number) =>
  `Pattern ${sheet.number} of ${count} · stock ${sheet.stock.id} · ${sizeText(sheet.stock)}${sheet.stock.material ? ` ${sheet.stock.material}` : ''} · cut ${pieces(sheet.stock)} like this`;

/** Stock units per pixel when the widest sheet is drawn VIEW_PX wide. */
const unitOf = (sheets: Sheet[]) => ((sheets.length ? Math.max(...sheets.map((s) => s.stock.l)) : 1000) * 1.08) / VIEW_PX;
const diagramAt = (sheet: Sheet, unit: number) => diagram(sheet, { minText: 8 * unit, maxText: 16 * unit });

export function renderSvg(record: ExportRecord): string {
  const sheets = sheetsOf(record);
  const widest = sheets.length ? Math.max(...sheets.map((s) => s.stock.l)) : 1000;
  const unit = unitOf(sheets);
  const diagrams = sheets.map((sheet) => diagramAt(sheet, unit));
  const title = 14 * unit;
  const pad = 20 * unit;

  const body: string[] = [];
  let top = pad;
  let width = 0;
  for (const d of diagrams) {
    const { stock } = d.sheet;
    const ox = pad - d.box.minX;
    const oy = top + title * 1.6 + d.box.maxY;
    body.push(`<g id="stock-${esc(stock.id)}" data-stock="${esc(stock.id)}" data-stack="${stock.stack}">`);
    body.push(`<text x="${n(pad)}" y="${n(top + title)}" font-family="${FONT_FAMILY}" font-size="${n(title)}" font-weight="bold" fill="#111111">${esc(patternTitle(d.sheet, sheets.length))}</text>`);
    body.push(`<g transform="translate(${n(ox)} ${n(oy)}) scale(1 -1)">`);
    for (const shape of d.shapes) body.push(shapeSvg(shape, unit));
    body.push('</g></g>');
    top = oy - d.box.minY + pad * 1.5;
    width = Math.max(width, pad * 2 + d.box.maxX - d.box.minX);
  }
  if (diagrams.length === 0) {
    body.push(`<text x="${n(pad)}" y="${n(pad + title)}" font-family="${FONT_FAMILY}" font-size="${n(title)}">Job ${record.jobId}: no part was placed, there is no sheet to draw</text>`);
    top += title * 3;
    width = widest;
  }
  const height = top;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 ${n(width)} ${n(height)}" width="${VIEW_PX}" height="${Math.ceil((VIEW_PX * height) / width)}">`,
    `<title>kerf job ${record.jobId}: cutting diagrams</title>`,
    `<rect x="0" y="0" width="${n(width)}" height="${n(height)}" fill="#ffffff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** Each pattern's diagram as an <svg> element of its own, scaled to its width (for inlining in HTML). */
export function sheetSvgs(record: ExportRecord): { sheet: Sheet; svg: string }[] {
  const sheets = sheetsOf(record);
  const unit = unitOf(sheets);
  return sheets.map((sheet) => {
    const d: Diagram = diagramAt(sheet, unit);
    const pad = 10 * unit;
    const w = d.box.maxX - d.box.minX + 2 * pad, h = d.box.maxY - d.box.minY + 2 * pad;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(w)} ${n(h)}" data-stock="${esc(sheet.stock.id)}" role="img" aria-label="${esc(patternTitle(sheet, sheets.length))}">`
      + `<g transform="translate(${n(pad - d.box.minX)} ${n(pad + d.box.maxY)}) scale(1 -1)">${d.shapes.map((s) => shapeSvg(s, unit)).join('')}</g></svg>`;
    return { sheet, svg };
  });
}

function paint(style: Shape['style'], unit: number, fill?: string): string {
  const s = STYLES[style];
  const fillAttr = `fill="${fill ?? s.fill ?? 'none'}"`;
  if (!s.stroke) return fillAttr;
  const dash = s.dash ? ` stroke-dasharray="${s.dash.map((v) => n(v * unit)).join(' ')}"` : '';
  return `${fillAttr} stroke="${s.stroke}" stroke-width="${n(s.width * unit)}"${dash}`;
}

function shapeSvg(shape: Shape, unit: number): string {
  const ref = 'ref' in shape && shape.ref !== undefined ? refAttr(shape) : '';
  switch (shape.kind) {
    case 'rect':
      return `<rect x="${n(shape.x)}" y="${n(shape.y)}" width="${n(shape.w)}" height="${n(shape.h)}" ${paint(shape.style, unit, shape.fill)}${ref}/>`;
    case 'poly':
      return `<polygon points="${shape.points.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}" ${paint(shape.style, unit, shape.fill)}${ref}/>`;
    case 'line':
      return `<line x1="${n(shape.x1)}" y1="${n(shape.y1)}" x2="${n(shape.x2)}" y2="${n(shape.y2)}" ${paint(shape.style, unit)}${ref}/>`;
    case 'circle':
      return `<circle cx="${n(shape.cx)}" cy="${n(shape.cy)}" r="${n(shape.r)}" ${paint(shape.style, unit)}${ref}/>`;
    case 'text': {
      // Flip back upright, turn, then put the baseline so the line's middle sits on y.
      const turn = shape.angle === 90 ? ' rotate(-90)' : '';
      const anchor = shape.anchor === 'middle' ? ' text-anchor="middle"' : '';
      const weight = shape.bold ? ' font-weight="bold"' : '';
      const of = shape.of !== undefined ? ` data-label-for="${esc(shape.of)}"` : shape.cut !== undefined ? ` data-cut-number="${esc(shape.cut)}"` : '';
      return `<text x="0" y="${n(shape.size * 0.35)}" transform="translate(${n(shape.x)} ${n(shape.y)}) scale(1 -1)${turn}" font-family="${FONT_FAMILY}" font-size="${n(shape.size)}"${anchor}${weight}${of} fill="${STYLES[shape.style].fill}">${esc(shape.text)}</text>`;
    }
  }
}

function refAttr(shape: Extract<Shape, { ref?: string }>): string {
  const kind = shape.style === 'part' ? 'part' : shape.style === 'offcut' ? 'offcut' : shape.style === 'cut' ? 'cut' : shape.style === 'sheet' ? 'sheet'
    : shape.style === 'banding' ? 'banding' : shape.style.startsWith('drill') ? 'drill' : 'ref';
  const face = shape.style === 'drill' ? ' data-face="front"' : shape.style === 'drillBack' ? ' data-face="back"' : shape.style === 'drillEdge' ? ' data-face="edge"' : '';
  return ` data-${kind}="${esc(shape.ref!)}"${face}`;
}
