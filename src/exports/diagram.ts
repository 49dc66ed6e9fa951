// The cutting diagram of one sheet as drawing primitives in stock coordinates (y up, origin
// bottom-left), shared by the PDF and SVG renderers so both show the same picture. Text sizes
// are in stock units too: the caller says how small a text may get and still be read at its
// scale, and labels that would be smaller are left out rather than overprinted.
// Each part carries its number (and name when it fits) at its widest point, clear of holes
// and drilling (label-spot.ts); neighbouring parts get different fills; banded edges are
// drawn on the part's edge; front drilling as circles, back drilling dashed, edge bores as
// slots from the edge; every cut carries its number, the one the saw steps list.
import { clearance, fitScale, pole, type Circle, type Region } from './label-spot.js';
import { bandingOf, drillsOf, edgeOf, fmt, isEdgeFace, partGrainAxis, SIDES, stockGrainAxis, trimsOf, type Drill, type Placement, type Pt, type Sheet } from './model.js';

export type Style = 'sheet' | 'trim' | 'part' | 'offcut' | 'cut' | 'grain' | 'drill' | 'drillBack' | 'drillEdge' | 'banding' | 'inner'
  | 'text' | 'partNumber' | 'offcutText' | 'dimText' | 'cutNumber' | 'cutNumberBox';

export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; style: Style; ref?: string; fill?: string }
  | { kind: 'poly'; points: Pt[]; style: Style; ref?: string; fill?: string }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; style: Style; ref?: string }
  | { kind: 'circle'; cx: number; cy: number; r: number; style: Style; ref?: string }
  /** x, y is the centre of the text line (anchor middle) or its left end (start); angle 90 reads upwards. `of`: the part it labels; `cut`: the cut it numbers. */
  | { kind: 'text'; x: number; y: number; text: string; size: number; anchor: 'middle' | 'start'; angle: 0 | 90; style: Style; bold?: boolean; of?: string; cut?: string };

/** Colours and line weights (stroke in points on the page, whatever the scale); dash lengths in points. */
export const STYLES: Record<Style, { fill: string | null; stroke: string | null; width: number; dash?: number[] }> = {
  sheet: { fill: '#d9d9d9', stroke: '#222222', width: 1 },
  trim: { fill: '#a6a6a6', stroke: null, width: 0 },
  part: { fill: '#f6e7c8', stroke: '#333333', width: 0.6 },
  offcut: { fill: '#cde8c6', stroke: '#4d8a40', width: 0.5 },
  cut: { fill: null, stroke: '#c62828', width: 0.5 },
  grain: { fill: '#7a5a2b', stroke: '#7a5a2b', width: 0.7 },
  drill: { fill: '#ffffff', stroke: '#1f4e9e', width: 0.6 },
  drillBack: { fill: null, stroke: '#1f4e9e', width: 0.6, dash: [1.5, 1.2] },
  drillEdge: { fill: '#bcd0f0', stroke: '#1f4e9e', width: 0.5 },
  banding: { fill: null, stroke: '#8e24aa', width: 2.2 },
  inner: { fill: '#d9d9d9', stroke: '#333333', width: 0.5 },
  text: { fill: '#111111', stroke: null, width: 0 },
  partNumber: { fill: '#111111', stroke: null, width: 0 },
  offcutText: { fill: '#2f5f26', stroke: null, width: 0 },
  dimText: { fill: '#444444', stroke: null, width: 0 },
  cutNumber: { fill: '#c62828', stroke: null, width: 0 },
  cutNumberBox: { fill: '#ffffff', stroke: '#c62828', width: 0.4 },
};

/** Part fills, light enough to print on; neighbours never share one while there are enough. */
export const PART_FILLS = ['#f6e7c8', '#d6e6f7', '#f5d9e3', '#dff0d0', '#e6dff5'];

export interface Diagram {
  sheet: Sheet;
  shapes: Shape[];
  /** Everything drawn, annotations outside the sheet included. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Width of a text in ems: East Asian wide characters take a full em, the rest about 0.6. */
export function emWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const wide = (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0x20000 && c <= 0x3fffd);
    w += wide ? 1 : 0.6;
  }
  return w;
}
const textWidth = (text: string, size: number) => emWidth(text) * size;

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
  const linear = stock.type === 'linear';

  shapes.push({ kind: 'rect', x: 0, y: 0, w: L, h: W, style: 'sheet', ref: stock.id });
  const trim = trimsOf(stock);
  if (trim.bottom > 0) shapes.push({ kind: 'rect', x: 0, y: 0, w: L, h: trim.bottom, style: 'trim' });
  if (trim.top > 0) shapes.push({ kind: 'rect', x: 0, y: W - trim.top, w: L, h: trim.top, style: 'trim' });
  if (trim.left > 0) shapes.push({ kind: 'rect', x: 0, y: 0, w: trim.left, h: W, style: 'trim' });
  if (trim.right > 0) shapes.push({ kind: 'rect', x: L - trim.right, y: 0, w: trim.right, h: W, style: 'trim' });

  for (const o of sheet.offcuts) {
    shapes.push({ kind: 'rect', x: o.x, y: o.y, w: o.l, h: o.w, style: 'offcut', ref: o.id });
    const text = `${fmt(o.l)} × ${fmt(o.w)}`;
    const size = Math.min(maxText, o.w * 0.3, (o.l * 0.9) / emWidth(text));
    if (size >= minText) shapes.push({ kind: 'text', x: o.x + o.l / 2, y: o.y + o.w / 2, text, size, anchor: 'middle', angle: 0, style: 'offcutText' });
  }

  const fills = partFills(sheet.placements);
  sheet.placements.forEach((p, i) => shapes.push(...partShapes(p, fills[i], minText, maxText, !linear)));
  // A bar is too thin to write on: number and length go over each piece instead.
  let over = W;
  if (linear) {
    for (const p of sheet.placements) {
      const text = `${p.row.number}: ${fmt(p.dx)}`;
      const size = Math.min(maxText, (p.dx * 0.9) / emWidth(text));
      if (size < minText) continue;
      shapes.push({ kind: 'text', x: p.x + p.dx / 2, y: W + size * 0.9, text, size, anchor: 'middle', angle: 0, style: 'partNumber', bold: true, of: p.part.id });
      over = Math.max(over, W + size * 1.6);
    }
  }

  for (const c of sheet.cuts) shapes.push({ kind: 'line', x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2, style: 'cut', ref: `${c.stock.id}#${c.order}` });
  // Cut numbers: in a box on the middle of each cut; on a bar, under it at the cut.
  let under = 0;
  for (const c of sheet.cuts) {
    const text = String(c.order);
    const length = Math.hypot(c.x2 - c.x1, c.y2 - c.y1);
    const size = linear ? Math.min(maxText * 0.8, Math.max(minText, W)) : Math.min(maxText * 0.8, length * 0.3);
    if (size < minText) continue;
    const x = linear ? c.position : (c.x1 + c.x2) / 2;
    const y = linear ? -size * 0.9 : (c.y1 + c.y2) / 2;
    const w = textWidth(text, size) + size * 0.5, h = size * 1.3;
    shapes.push({ kind: 'rect', x: x - w / 2, y: y - h / 2, w, h, style: 'cutNumberBox' });
    shapes.push({ kind: 'text', x, y, text, size, anchor: 'middle', angle: 0, style: 'cutNumber', cut: `${c.stock.id}#${c.order}` });
    if (linear) under = Math.max(under, size * 1.6);
  }

  // Overall sizes outside the sheet: the length under it, the width up its left side.
  const dim = Math.max(minText, Math.min(maxText, Math.max(L, W) / 45));
  shapes.push({ kind: 'text', x: L / 2, y: -under - dim * 1.2, text: fmt(L), size: dim, anchor: 'middle', angle: 0, style: 'dimText' });
  if (!linear) shapes.push({ kind: 'text', x: -dim * 1.2, y: W / 2, text: fmt(W), size: dim, anchor: 'middle', angle: 90, style: 'dimText' });
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
  return { sheet, shapes, box: { minX: linear ? 0 : -dim * 2.4, minY: -under - dim * 2.4, maxX: L, maxY: top } };
}

/** Fills by greedy colouring: each part takes the first fill none of its touching neighbours has. */
function partFills(placements: Placement[]): string[] {
  const gap = (a: Placement, b: Placement) => Math.max(a.x - (b.x + b.dx), b.x - (a.x + a.dx), a.y - (b.y + b.dy), b.y - (a.y + a.dy));
  const reach = (a: Placement) => Math.max(a.dx, a.dy) * 0.05;
  const colour: number[] = [];
  placements.forEach((p, i) => {
    const taken = new Set<number>();
    for (let j = 0; j < i; j++) if (gap(p, placements[j]) <= Math.max(reach(p), reach(placements[j]))) taken.add(colour[j]);
    const free = PART_FILLS.findIndex((_, k) => !taken.has(k));
    colour.push(free >= 0 ? free : i % PART_FILLS.length);
  });
  return colour.map((k) => PART_FILLS[k]);
}

function partShapes(pl: Placement, fill: string, minText: number, maxText: number, labelInside: boolean): Shape[] {
  const out: Shape[] = [];
  const { x, y, dx, dy } = pl;
  const rectangular = !pl.part.placedOutline?.length;
  if (rectangular) out.push({ kind: 'rect', x, y, w: dx, h: dy, style: 'part', ref: pl.part.id, fill });
  else out.push({ kind: 'poly', points: pl.outline, style: 'part', ref: pl.part.id, fill });
  for (const hole of pl.holes) out.push({ kind: 'poly', points: hole, style: 'inner' });

  // Banding: a thick line just inside each banded edge of the part's l x w frame.
  const inset = minText * 0.15;
  if (rectangular) {
    const band = bandingOf(pl.part);
    for (const side of SIDES) {
      if (!band[side]) continue;
      const { a, b, inward } = edgeOf(pl.part, side);
      out.push({ kind: 'line', x1: a.x + inward.x * inset, y1: a.y + inward.y * inset, x2: b.x + inward.x * inset, y2: b.y + inward.y * inset, style: 'banding', ref: `${pl.part.id}:${side}` });
    }
  }
  const drills = drillsOf(pl.part);
  for (const d of drills) out.push(drillShape(d, pl));

  // Edge sizes of a rectangle: the extent along x over its bottom edge, along y by its left edge.
  let region: Region = { outline: pl.outline, holes: pl.holes, circles: drills.map((d) => keepOut(d, pl)) };
  if (rectangular) {
    const xText = fmt(dx), yText = fmt(dy);
    const xSize = Math.min(maxText, dy * 0.16, (dx * 0.8) / emWidth(xText));
    const ySize = Math.min(maxText, dx * 0.16, (dy * 0.8) / emWidth(yText));
    const edge = Math.min(xSize, ySize);
    if (edge >= minText && labelInside) {
      out.push({ kind: 'text', x: x + dx / 2, y: y + edge * 0.95, text: xText, size: edge, anchor: 'middle', angle: 0, style: 'dimText' });
      out.push({ kind: 'text', x: x + edge * 0.95, y: y + dy / 2, text: yText, size: edge, anchor: 'middle', angle: 90, style: 'dimText' });
      // The label stays off the bands those sizes use.
      const band = edge * 1.7;
      region = { ...region, outline: [{ x: x + band, y: y + band }, { x: x + dx, y: y + band }, { x: x + dx, y: y + dy }, { x: x + band, y: y + dy }] };
    }
  }
  if (labelInside) out.push(...label(pl, region, minText, maxText));

  const grain = partGrainAxis(pl.part);
  if (grain && rectangular) {
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

/** Default depth drawn for an edge bore that gives none: four diameters, at most a third of the part. */
function edgeDepth(d: Drill, pl: Placement): number {
  return d.depth ?? Math.min(d.diameter * 4, Math.min(pl.dx, pl.dy) / 3);
}

export function drillShape(d: Drill, pl: Placement): Shape {
  if (!isEdgeFace(d.face) || !d.into) return { kind: 'circle', cx: d.at.x, cy: d.at.y, r: d.diameter / 2, style: d.face === 1 ? 'drillBack' : 'drill', ref: d.partId };
  // An edge bore: a slot of the bore's diameter from the entry point on the edge into the part.
  const depth = edgeDepth(d, pl), r = d.diameter / 2;
  const u = d.into, n = { x: -u.y, y: u.x };
  const p = (along: number, across: number) => ({ x: d.at.x + u.x * along + n.x * across, y: d.at.y + u.y * along + n.y * across });
  return { kind: 'poly', points: [p(0, -r), p(depth, -r), p(depth, r), p(0, r)], style: 'drillEdge', ref: d.partId };
}

/** The circle a label keeps out of around a drilling mark. */
function keepOut(d: Drill, pl: Placement): Circle {
  if (!isEdgeFace(d.face) || !d.into) return { x: d.at.x, y: d.at.y, r: d.diameter / 2 };
  const depth = edgeDepth(d, pl);
  return { x: d.at.x + (d.into.x * depth) / 2, y: d.at.y + (d.into.y * depth) / 2, r: Math.hypot(depth / 2, d.diameter / 2) };
}

/**
 * The part's number, with its name under it when both fit, as large as fits at the region's
 * widest point; upright, or turned to read upwards when that fits a larger number.
 */
function label(pl: Placement, region: Region, minText: number, maxText: number): Shape[] {
  const box = { w: Math.max(...region.outline.map((p) => p.x)) - Math.min(...region.outline.map((p) => p.x)), h: Math.max(...region.outline.map((p) => p.y)) - Math.min(...region.outline.map((p) => p.y)) };
  if (!(box.w > 0 && box.h > 0)) return [];
  const spot = pole(region, Math.min(box.w, box.h) / 100);
  if (clearance(spot, region) <= 0) return [];
  const number = String(pl.row.number);
  const name = pl.part.name.replace(/\s+/g, ' ').trim();
  const numW = emWidth(number);
  // Two lines: the number (1 em) over the name (0.55 em), 0.15 em apart.
  const twoW = Math.max(numW, emWidth(name) * 0.55), twoH = 1.7;
  const fit = (w: number, h: number, turned: boolean) => (turned ? fitScale(region, spot, h, w, maxText * 1.6) : fitScale(region, spot, w, h, maxText * 1.6));
  const choices = [
    ...(name ? [{ lines: 2, turned: false, size: fit(twoW, twoH, false) }, { lines: 2, turned: true, size: fit(twoW, twoH, true) }] : []),
    { lines: 1, turned: false, size: fit(numW, 1, false) },
    { lines: 1, turned: true, size: fit(numW, 1, true) },
  ].map((c) => ({ ...c, size: c.size * 0.92 }));
  // The name only when it is legible; upright unless turning gains a third.
  const legible = choices.filter((c) => (c.lines === 2 ? c.size * 0.55 : c.size) >= minText);
  const upright = legible.find((c) => !c.turned);
  const turned = legible.find((c) => c.turned && c.lines === (upright?.lines ?? c.lines));
  const pick = upright && (!turned || turned.size < upright.size * 1.33) ? upright : turned ?? upright;
  if (!pick) return [];
  const s = pick.size;
  const angle = pick.turned ? 90 : 0;
  // Lines in the text's own frame (v up across the lines), placed on the spot.
  const at = (v: number) => (pick.turned ? { x: spot.x - v, y: spot.y } : { x: spot.x, y: spot.y + v });
  if (pick.lines === 1) return [{ kind: 'text', ...at(0), text: number, size: s, anchor: 'middle', angle, style: 'partNumber', bold: true, of: pl.part.id }];
  return [
    { kind: 'text', ...at(s * 0.35), text: number, size: s, anchor: 'middle', angle, style: 'partNumber', bold: true, of: pl.part.id },
    { kind: 'text', ...at(-s * 0.575), text: name, size: s * 0.55, anchor: 'middle', angle, style: 'text', of: pl.part.id },
  ];
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
