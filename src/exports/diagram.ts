// The cutting diagram of one sheet as drawing primitives in stock coordinates (y up, origin
// bottom-left), shared by the PDF and SVG renderers so both show the same picture. Text sizes
// are in stock units too: the caller says how small a text may get and still be read at its
// scale, and labels that would be smaller are left out rather than overprinted.
import { drillsOf, fmt, partGrainAxis, stockGrainAxis, trimsOf, type Placement, type Pt, type Sheet } from './model.js';

export type Style = 'sheet' | 'trim' | 'part' | 'offcut' | 'cut' | 'grain' | 'drill' | 'inner' | 'text' | 'partNumber' | 'offcutText' | 'dimText';

export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; style: Style; ref?: string }
  | { kind: 'poly'; points: Pt[]; style: Style; ref?: string }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; style: Style; ref?: string }
  | { kind: 'circle'; cx: number; cy: number; r: number; style: Style; ref?: string }
  /** x, y is the centre of the text line (anchor middle) or its left end (start); angle 90 reads upwards. */
  | { kind: 'text'; x: number; y: number; text: string; size: number; anchor: 'middle' | 'start'; angle: 0 | 90; style: Style; bold?: boolean };

/** Colours and line weights (stroke in points on the page, whatever the scale). */
export const STYLES: Record<Style, { fill: string | null; stroke: string | null; width: number }> = {
  sheet: { fill: '#d9d9d9', stroke: '#222222', width: 1 },
  trim: { fill: '#a6a6a6', stroke: null, width: 0 },
  part: { fill: '#f6e7c8', stroke: '#333333', width: 0.6 },
  offcut: { fill: '#cde8c6', stroke: '#4d8a40', width: 0.5 },
  cut: { fill: null, stroke: '#c62828', width: 0.5 },
  grain: { fill: '#7a5a2b', stroke: '#7a5a2b', width: 0.7 },
  drill: { fill: '#ffffff', stroke: '#1f4e9e', width: 0.5 },
  inner: { fill: '#d9d9d9', stroke: '#333333', width: 0.5 },
  text: { fill: '#111111', stroke: null, width: 0 },
  partNumber: { fill: '#111111', stroke: null, width: 0 },
  offcutText: { fill: '#2f5f26', stroke: null, width: 0 },
  dimText: { fill: '#444444', stroke: null, width: 0 },
};

export interface Diagram {
  sheet: Sheet;
  shapes: Shape[];
  /** Everything drawn, annotations outside the sheet included. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Average advance of a character of Helvetica, in ems: enough to decide whether a label fits. */
const CHAR = 0.56;
const textWidth = (text: string, size: number) => text.length * size * CHAR;

export interface DiagramOptions {
  /** Smallest legible text, in stock units at the output scale. */
  minText: number;
  /** Largest text worth printing, in stock units. */
  maxText: number;
}

export function diagram(sheet: Sheet, options: DiagramOptions): Diagram {
  const { stock } = sheet;
  const { minText, maxText } = options;
  const shapes: Shape[] = [];
  const L = stock.l, W = stock.w;

  shapes.push({ kind: 'rect', x: 0, y: 0, w: L, h: W, style: 'sheet', ref: stock.id });
  const trim = trimsOf(stock);
  if (trim.bottom > 0) shapes.push({ kind: 'rect', x: 0, y: 0, w: L, h: trim.bottom, style: 'trim' });
  if (trim.top > 0) shapes.push({ kind: 'rect', x: 0, y: W - trim.top, w: L, h: trim.top, style: 'trim' });
  if (trim.left > 0) shapes.push({ kind: 'rect', x: 0, y: 0, w: trim.left, h: W, style: 'trim' });
  if (trim.right > 0) shapes.push({ kind: 'rect', x: L - trim.right, y: 0, w: trim.right, h: W, style: 'trim' });

  for (const o of sheet.offcuts) {
    shapes.push({ kind: 'rect', x: o.x, y: o.y, w: o.l, h: o.w, style: 'offcut', ref: o.id });
    const text = `${fmt(o.l)} × ${fmt(o.w)}`;
    const size = Math.min(maxText, o.w * 0.3, (o.l * 0.9) / (text.length * CHAR));
    if (size >= minText) shapes.push({ kind: 'text', x: o.x + o.l / 2, y: o.y + o.w / 2, text, size, anchor: 'middle', angle: 0, style: 'offcutText' });
  }

  for (const p of sheet.placements) shapes.push(...partShapes(p, minText, maxText));
  // A bar is too thin to write on: number and length go over each piece instead.
  let over = W;
  if (stock.type === 'linear') {
    for (const p of sheet.placements) {
      const text = `${p.row.number}: ${fmt(p.dx)}`;
      const size = Math.min(maxText, (p.dx * 0.9) / (text.length * CHAR));
      if (size < minText) continue;
      shapes.push({ kind: 'text', x: p.x + p.dx / 2, y: W + size * 0.9, text, size, anchor: 'middle', angle: 0, style: 'partNumber', bold: true });
      over = Math.max(over, W + size * 1.6);
    }
  }

  for (const c of sheet.cuts) shapes.push({ kind: 'line', x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2, style: 'cut', ref: `${c.stock.id}#${c.order}` });

  // Overall sizes outside the sheet: the length under it, the width up its left side.
  const dim = Math.max(minText, Math.min(maxText, Math.max(L, W) / 45));
  shapes.push({ kind: 'text', x: L / 2, y: -dim * 1.2, text: fmt(L), size: dim, anchor: 'middle', angle: 0, style: 'dimText' });
  shapes.push({ kind: 'text', x: -dim * 1.2, y: W / 2, text: fmt(W), size: dim, anchor: 'middle', angle: 90, style: 'dimText' });
  let top = over;
  const grain = stockGrainAxis(stock);
  if (grain) {
    // The sheet's grain: an arrow over its top-right corner, pointing along the grain.
    const len = Math.min(L, W) * 0.18;
    const y = over + dim * 1.4;
    const x = L - len - textWidth('grain', dim * 0.9) - dim;
    if (grain === 'x') shapes.push(...arrow({ x, y }, { x: x + len, y }, dim * 0.45));
    else shapes.push(...arrow({ x: x + len / 2, y: y - dim * 0.6 }, { x: x + len / 2, y: y + dim * 0.6 }, dim * 0.45));
    shapes.push({ kind: 'text', x: L - textWidth('grain', dim * 0.9), y, text: 'grain', size: dim * 0.9, anchor: 'start', angle: 0, style: 'dimText' });
    top = y + dim;
  }
  return { sheet, shapes, box: { minX: -dim * 2.4, minY: -dim * 2.4, maxX: L, maxY: top } };
}

function partShapes(pl: Placement, minText: number, maxText: number): Shape[] {
  const out: Shape[] = [];
  const { x, y, dx, dy } = pl;
  const rectangular = !pl.part.placedOutline?.length;
  if (rectangular) out.push({ kind: 'rect', x, y, w: dx, h: dy, style: 'part', ref: pl.part.id });
  else out.push({ kind: 'poly', points: pl.outline, style: 'part', ref: pl.part.id });
  for (const hole of pl.holes) out.push({ kind: 'poly', points: hole, style: 'inner' });
  for (const d of drillsOf(pl.part)) out.push({ kind: 'circle', cx: d.x, cy: d.y, r: d.diameter / 2, style: 'drill' });

  // Edge sizes: the extent along x under the bottom edge, along y up the left edge.
  const xText = fmt(dx), yText = fmt(dy);
  const xSize = Math.min(maxText, dy * 0.16, (dx * 0.8) / (xText.length * CHAR));
  const ySize = Math.min(maxText, dx * 0.16, (dy * 0.8) / (yText.length * CHAR));
  const edge = Math.min(xSize, ySize);
  if (edge >= minText) {
    out.push({ kind: 'text', x: x + dx / 2, y: y + edge * 0.85, text: xText, size: edge, anchor: 'middle', angle: 0, style: 'dimText' });
    out.push({ kind: 'text', x: x + edge * 0.85, y: y + dy / 2, text: yText, size: edge, anchor: 'middle', angle: 90, style: 'dimText' });
  }
  // The part number in the middle, the name under it when there is room.
  const inset = edge >= minText ? edge * 1.7 : 0;
  const freeW = dx - 2 * inset, freeH = dy - 2 * inset;
  const number = String(pl.row.number);
  const numSize = Math.min(maxText * 1.6, freeH * 0.45, (freeW * 0.9) / (number.length * CHAR));
  const name = pl.part.name;
  const nameSize = name ? Math.min(maxText * 0.9, numSize * 0.6, (freeW * 0.9) / (name.length * CHAR)) : 0;
  const showName = nameSize >= minText && numSize + nameSize * 1.3 <= freeH * 0.9;
  const cx = x + dx / 2 + inset * 0.25, cy = y + dy / 2 + inset * 0.25;
  if (numSize >= minText) {
    const numY = showName ? cy + nameSize * 0.6 : cy;
    out.push({ kind: 'text', x: cx, y: numY, text: number, size: numSize, anchor: 'middle', angle: 0, style: 'partNumber', bold: true });
    if (showName) out.push({ kind: 'text', x: cx, y: numY - numSize * 0.55 - nameSize * 0.75, text: name, size: nameSize, anchor: 'middle', angle: 0, style: 'text' });
  }
  const grain = partGrainAxis(pl.part);
  if (grain) {
    // A double-headed arrow near the top-right: the part's grain as it lies on the sheet.
    const head = Math.max(Math.min(dx, dy) * 0.05, minText * 0.4);
    if (grain === 'x') {
      const gy = y + dy - Math.max(dy * 0.12, head * 1.5);
      out.push(...arrow({ x: x + dx * 0.62, y: gy }, { x: x + dx * 0.9, y: gy }, head, true));
    } else {
      const gx = x + dx - Math.max(dx * 0.12, head * 1.5);
      out.push(...arrow({ x: gx, y: y + dy * 0.62 }, { x: gx, y: y + dy * 0.9 }, head, true));
    }
  }
  return out;
}

function arrow(from: Pt, to: Pt, head: number, both = false): Shape[] {
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const ux = (to.x - from.x) / len, uy = (to.y - from.y) / len;
  const tip = (at: Pt, dir: number): Shape => ({
    kind: 'poly', style: 'grain',
    points: [
      at,
      { x: at.x - dir * ux * head - uy * head * 0.5, y: at.y - dir * uy * head + ux * head * 0.5 },
      { x: at.x - dir * ux * head + uy * head * 0.5, y: at.y - dir * uy * head - ux * head * 0.5 },
    ],
  });
  const shapes: Shape[] = [{ kind: 'line', x1: from.x, y1: from.y, x2: to.x, y2: to.y, style: 'grain' }, tip(to, 1)];
  if (both) shapes.push(tip(from, -1));
  return shapes;
}

