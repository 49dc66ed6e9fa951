// SVG: the PDF's cutting diagrams in one standalone drawing, sheets one under the other. Each
// stock entry is a <g id="stock-<id>"> whose inner group flips y, so the coordinates inside are
// the record's own (origin bottom-left, y up); texts are flipped back to read upright.
import { diagram, STYLES, type Shape } from './diagram.js';
import { fmt, pieces, sheetsOf, sizeText, type ExportRecord } from './model.js';

/** Width the drawing is meant to be seen at; strokes and the smallest text are sized for it. */
const VIEW_PX = 1200;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number) => fmt(Math.round(v * 1000) / 1000);

export function renderSvg(record: ExportRecord): string {
  const sheets = sheetsOf(record);
  const widest = sheets.length ? Math.max(...sheets.map((s) => s.stock.l)) : 1000;
  const unit = (widest * 1.08) / VIEW_PX; // stock units per pixel
  const diagrams = sheets.map((sheet) => diagram(sheet, { minText: 8 * unit, maxText: 16 * unit }));
  const title = 14 * unit;
  const pad = 20 * unit;

  const body: string[] = [];
  let top = pad;
  let width = 0;
  for (const d of diagrams) {
    const { stock } = d.sheet;
    const head = `Pattern ${d.sheet.number} of ${sheets.length} · stock ${stock.id} · ${sizeText(stock)}${stock.material ? ` ${stock.material}` : ''} · cut ${pieces(stock)} like this`;
    const ox = pad - d.box.minX;
    const oy = top + title * 1.6 + d.box.maxY;
    body.push(`<g id="stock-${esc(stock.id)}" data-stock="${esc(stock.id)}" data-stack="${stock.stack}">`);
    body.push(`<text x="${n(pad)}" y="${n(top + title)}" font-family="Helvetica, Arial, sans-serif" font-size="${n(title)}" font-weight="bold" fill="#111111">${esc(head)}</text>`);
    body.push(`<g transform="translate(${n(ox)} ${n(oy)}) scale(1 -1)">`);
    for (const shape of d.shapes) body.push(shapeSvg(shape, unit));
    body.push('</g></g>');
    top = oy - d.box.minY + pad * 1.5;
    width = Math.max(width, pad * 2 + d.box.maxX - d.box.minX);
  }
  if (diagrams.length === 0) {
    body.push(`<text x="${n(pad)}" y="${n(pad + title)}" font-family="Helvetica, Arial, sans-serif" font-size="${n(title)}">Job ${record.jobId}: no part was placed, there is no sheet to draw</text>`);
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

function paint(style: Shape['style'], unit: number): string {
  const s = STYLES[style];
  const fill = `fill="${s.fill ?? 'none'}"`;
  return s.stroke ? `${fill} stroke="${s.stroke}" stroke-width="${n(s.width * unit)}"` : fill;
}

function shapeSvg(shape: Shape, unit: number): string {
  const ref = 'ref' in shape && shape.ref !== undefined ? refAttr(shape) : '';
  switch (shape.kind) {
    case 'rect':
      return `<rect x="${n(shape.x)}" y="${n(shape.y)}" width="${n(shape.w)}" height="${n(shape.h)}" ${paint(shape.style, unit)}${ref}/>`;
    case 'poly':
      return `<polygon points="${shape.points.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}" ${paint(shape.style, unit)}${ref}/>`;
    case 'line':
      return `<line x1="${n(shape.x1)}" y1="${n(shape.y1)}" x2="${n(shape.x2)}" y2="${n(shape.y2)}" ${paint(shape.style, unit)}${ref}/>`;
    case 'circle':
      return `<circle cx="${n(shape.cx)}" cy="${n(shape.cy)}" r="${n(shape.r)}" ${paint(shape.style, unit)}${ref}/>`;
    case 'text': {
      // Flip back upright, turn, then put the baseline so the line's middle sits on y.
      const turn = shape.angle === 90 ? ' rotate(-90)' : '';
      const anchor = shape.anchor === 'middle' ? ' text-anchor="middle"' : '';
      const weight = shape.bold ? ' font-weight="bold"' : '';
      return `<text x="0" y="${n(shape.size * 0.35)}" transform="translate(${n(shape.x)} ${n(shape.y)}) scale(1 -1)${turn}" font-family="Helvetica, Arial, sans-serif" font-size="${n(shape.size)}"${anchor}${weight} fill="${STYLES[shape.style].fill}">${esc(shape.text)}</text>`;
    }
  }
}

function refAttr(shape: Extract<Shape, { ref?: string }>): string {
  const kind = shape.style === 'part' ? 'part' : shape.style === 'offcut' ? 'offcut' : shape.style === 'cut' ? 'cut' : shape.style === 'sheet' ? 'sheet' : 'ref';
  return ` data-${kind}="${esc(shape.ref!)}"`;
}
