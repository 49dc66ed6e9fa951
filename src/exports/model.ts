// What every export reads from the stored result record: the sheets (one per stock entry,
// with its distinct placements), the part rows and their numbers, placed outlines, drilling
// in stock coordinates, and number formatting. The record is the only source: the request
// is not stored, so nothing here may need it.
import type { ResultCut, ResultOffcut, ResultPart, ResultRecord, ResultStock } from '../schema/result.js';

export interface Pt { x: number; y: number }

/** A part as stored, with the fields nesting adds (rotation in degrees, the placed outline). */
export type RecordPart = ResultPart & { rotation?: number; placedOutline?: Pt[]; placedHoles?: Pt[][] };
export type ExportRecord = Omit<ResultRecord, 'parts'> & { parts: RecordPart[] };

export interface PartRow {
  /** "<part row>" of the ids "<part row>.<copy>". */
  row: string;
  /** 1-based, in record order: the one part number diagrams, saw steps, lists, labels, CSV and PTX PART_INDEX print. */
  number: number;
  first: RecordPart;
  requested: number;
  placed: number;
}

/** One distinct position on a sheet; on a stacked entry it holds `ids.length` instances. */
export interface Placement {
  part: RecordPart;
  row: PartRow;
  ids: string[];
  /** Bounding box in stock coordinates (x along the stock's length). */
  x: number;
  y: number;
  dx: number;
  dy: number;
  /** Closed outline in stock coordinates: the placed outline of a nested part, else the rectangle. */
  outline: Pt[];
  holes: Pt[][];
}

export interface Sheet {
  /** 1-based pattern number among the used stock entries. */
  number: number;
  stock: ResultStock;
  placements: Placement[];
  cuts: ResultCut[];
  offcuts: ResultOffcut[];
}

/**
 * One drilling operation. face: 0 front (the face looked at), 1 back, 2-5 into the edges l1,
 * l2, w1, w2 (decisions.md). `local` is as the request gave it: on a face, the centre in the
 * part's frame; on an edge, along that edge and across the thickness. `at` is in stock
 * coordinates: the centre on a face, the entry point on an edge, where `into` (a unit vector)
 * points into the part.
 */
export interface Drill {
  partId: string;
  face: number;
  type: string;
  diameter: number;
  /** null: a through hole. */
  depth: number | null;
  local: Pt;
  at: Pt;
  into?: Pt;
}

export function parseRecord(json: string): ExportRecord {
  // Not parsed with the zod schema: it would strip the fields nesting adds.
  return JSON.parse(json) as ExportRecord;
}

export const rowOf = (id: string) => id.slice(0, Math.max(0, id.lastIndexOf('.'))) || id;
/** Which copy of its part row an instance id "<row>.<copy>" is, from 1 (labels, CSV). */
export const copyOf = (id: string) => Number(id.slice(id.lastIndexOf('.') + 1)) + 1;
export const kerfOf = (record: ExportRecord) => Number(record.saw.bladeWidth) || 0;

/** The record carries no units; a saw setting `units` would tell, else millimetres (the norm for panels). */
export function unitsOf(record: ExportRecord): 'mm' | 'in' {
  const u = String((record.saw as Record<string, unknown>).units ?? '').toLowerCase();
  return u === 'in' || u === 'inch' || u === 'inches' ? 'in' : 'mm';
}

/** Numbers as given: at most 6 decimals (the record's own rounding), never an exponent. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const s = n.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

export function partRows(record: ExportRecord): PartRow[] {
  const rows = new Map<string, PartRow>();
  for (const p of record.parts) {
    const key = rowOf(p.id);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { row: key, number: rows.size + 1, first: p, requested: 0, placed: 0 }));
    row.requested++;
    if (p.added) row.placed++;
  }
  return [...rows.values()];
}

/** Extent of a placed part along x and y. */
export function placedSize(p: RecordPart): { dx: number; dy: number } {
  if (p.placedOutline?.length) {
    const box = bounds(p.placedOutline);
    return { dx: box.maxX - box.minX, dy: box.maxY - box.minY };
  }
  const turned = p.rot === 1 || (p.rotation !== undefined && Math.round(((p.rotation % 180) + 180) % 180) === 90);
  return turned ? { dx: p.w, dy: p.l } : { dx: p.l, dy: p.w };
}

export function bounds(points: Pt[]) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
    minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
  }
  return { minX, minY, maxX, maxY };
}

function angleOf(p: RecordPart): number {
  return p.rotation ?? (p.rot === 1 ? 90 : 0);
}

/**
 * A point given in the part's own frame (x along l, y along w, from its bottom-left) to stock
 * coordinates: mirrored (x -> -x) when the part was placed as its mirror image, turned
 * counter-clockwise by the part's rotation, then moved so that the l x w rectangle, so
 * mirrored and turned, has its bounding box start at the part's x, y.
 */
export function toStock(p: RecordPart, local: Pt): Pt {
  const a = (angleOf(p) * Math.PI) / 180;
  const cos = Math.abs(Math.cos(a)) < 1e-12 ? 0 : Math.cos(a);
  const sin = Math.abs(Math.sin(a)) < 1e-12 ? 0 : Math.sin(a);
  const m = p.mirrored ? -1 : 1;
  const turn = (q: Pt) => ({ x: m * q.x * cos - q.y * sin, y: m * q.x * sin + q.y * cos });
  const box = bounds([{ x: 0, y: 0 }, { x: p.l, y: 0 }, { x: p.l, y: p.w }, { x: 0, y: p.w }].map(turn));
  const t = turn(local);
  return { x: (p.x ?? 0) + t.x - box.minX, y: (p.y ?? 0) + t.y - box.minY };
}

export const FACE_NAMES = ['front', 'back', 'edge l1', 'edge l2', 'edge w1', 'edge w2'];
export const isEdgeFace = (face: number) => face >= 2 && face <= 5;

/** Drilling (machining.holes, and hingeHoles typed hinge unless they say otherwise), placed on the stock. */
export function drillsOf(p: RecordPart): Drill[] {
  const m = p.machining as { holes?: unknown; hingeHoles?: unknown } | undefined;
  const list = [
    ...(Array.isArray(m?.holes) ? m.holes : []).map((h) => [h, 'regular'] as const),
    ...(Array.isArray(m?.hingeHoles) ? m.hingeHoles : []).map((h) => [h, 'hinge'] as const),
  ];
  const out: Drill[] = [];
  for (const [h, defaultType] of list as [Record<string, unknown>, string][]) {
    const x = Number(h?.x), y = Number(h?.y), diameter = Number(h?.diameter);
    if (![x, y, diameter].every(Number.isFinite) || diameter <= 0) continue;
    const given = Number(h.face ?? 0);
    const face = Number.isInteger(given) && given >= 0 && given <= 5 ? given : 0;
    const depth = Number(h.depth);
    const type = typeof h.type === 'string' && h.type.trim() ? h.type.trim().toLowerCase() : defaultType;
    const drill: Drill = { partId: p.id, face, type, diameter, depth: Number.isFinite(depth) && depth > 0 ? depth : null, local: { x, y }, at: toStock(p, { x, y }) };
    if (isEdgeFace(face)) {
      // The entry point on the edge (x runs along it) and the way into the part, in its frame.
      const [entry, dir]: [Pt, Pt] = face === 2 ? [{ x, y: 0 }, { x: 0, y: 1 }] : face === 3 ? [{ x, y: p.w }, { x: 0, y: -1 }]
        : face === 4 ? [{ x: 0, y: x }, { x: 1, y: 0 }] : [{ x: p.l, y: x }, { x: -1, y: 0 }];
      drill.at = toStock(p, entry);
      const ahead = toStock(p, { x: entry.x + dir.x, y: entry.y + dir.y });
      drill.into = { x: ahead.x - drill.at.x, y: ahead.y - drill.at.y };
    }
    out.push(drill);
  }
  return out;
}

export type Side = 'l1' | 'l2' | 'w1' | 'w2';
export const SIDES: Side[] = ['l1', 'l2', 'w1', 'w2'];
/** Legacy side names, as for trims: y1 -> l1, y2 -> l2, x1 -> w1, x2 -> w2. */
const LEGACY_SIDE: Record<Side, string> = { l1: 'y1', l2: 'y2', w1: 'x1', w2: 'x2' };

export interface Band { type: string; thickness: number | null }

export const bandText = (b: Band) => [b.type, b.thickness !== null ? fmt(b.thickness) : ''].filter(Boolean).join(' ');

/**
 * Edge banding per side (l1/l2 the long sides, bottom and top in the part's frame; w1/w2 the
 * short ones, left and right), from the echoed extras.banding: `sides { l1.. }` or the sides
 * directly, legacy x/y names too; a side is true, a type name, or { type, thickness }. null: bare.
 */
export function bandingOf(p: RecordPart): Record<Side, Band | null> {
  const banding = (p.extras as { banding?: Record<string, unknown> } | undefined)?.banding;
  const sides = (banding && typeof banding.sides === 'object' && banding.sides !== null ? banding.sides : banding ?? {}) as Record<string, unknown>;
  const out = {} as Record<Side, Band | null>;
  for (const side of SIDES) {
    const v = sides[side] ?? sides[LEGACY_SIDE[side]];
    if (v === true) out[side] = { type: '', thickness: null };
    else if (typeof v === 'string' && v.trim() !== '') out[side] = { type: v.trim(), thickness: null };
    else if (typeof v === 'number' && v > 0) out[side] = { type: String(v), thickness: null };
    else if (v && typeof v === 'object') {
      const o = v as { type?: unknown; thickness?: unknown };
      const thickness = Number(o.thickness);
      out[side] = { type: typeof o.type === 'string' ? o.type.trim() : '', thickness: Number.isFinite(thickness) && thickness > 0 ? thickness : null };
    } else out[side] = null;
  }
  return out;
}

/** A side of the part's l x w frame in stock coordinates, and the unit normal pointing into the part. */
export function edgeOf(p: RecordPart, side: Side): { a: Pt; b: Pt; inward: Pt } {
  const [a, b, n]: [Pt, Pt, Pt] = side === 'l1' ? [{ x: 0, y: 0 }, { x: p.l, y: 0 }, { x: 0, y: 1 }]
    : side === 'l2' ? [{ x: 0, y: p.w }, { x: p.l, y: p.w }, { x: 0, y: -1 }]
      : side === 'w1' ? [{ x: 0, y: 0 }, { x: 0, y: p.w }, { x: 1, y: 0 }] : [{ x: p.l, y: 0 }, { x: p.l, y: p.w }, { x: -1, y: 0 }];
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const from = toStock(p, mid), to = toStock(p, { x: mid.x + n.x, y: mid.y + n.y });
  return { a: toStock(p, a), b: toStock(p, b), inward: { x: to.x - from.x, y: to.y - from.y } };
}

/**
 * Direction of a placed part's grain on the stock: the grain runs along its longer side ('l')
 * or its shorter side ('w'); null when the part has none.
 */
export function partGrainAxis(p: RecordPart): 'x' | 'y' | null {
  if (p.grain !== 'l' && p.grain !== 'w') return null;
  const { dx, dy } = p.placedOutline?.length ? { dx: p.l, dy: p.w } : placedSize(p);
  const longerAlongX = dx >= dy;
  return (p.grain === 'l') === longerAlongX ? 'x' : 'y';
}

/** The stock's grain: 'l' runs along its length (x). */
export function stockGrainAxis(s: ResultStock): 'x' | 'y' | null {
  return s.grain === 'l' ? 'x' : s.grain === 'w' ? 'y' : null;
}

/** The used stock entries in record order, each with its distinct placements, cuts in saw order and offcuts. */
export function sheetsOf(record: ExportRecord): Sheet[] {
  const rows = new Map(partRows(record).map((r) => [r.row, r]));
  const used = record.stock.filter((s) => s.used && s.stack > 0);
  const byStock = new Map(used.map((s, i) => [s.id, { number: i + 1, stock: s, placements: [] as Placement[], cuts: [] as ResultCut[], offcuts: [] as ResultOffcut[] }]));
  const seen = new Map<string, Placement>();
  for (const p of record.parts) {
    if (!p.added || !p.stock || p.x === null || p.y === null) continue;
    const sheet = byStock.get(p.stock.id);
    if (!sheet) continue;
    // A stacked entry lists each placement once per sheet: the copies share x, y and rotation.
    const key = `${p.stock.id}|${p.x}|${p.y}|${angleOf(p)}`;
    const existing = seen.get(key);
    if (existing) {
      existing.ids.push(p.id);
      continue;
    }
    const { dx, dy } = placedSize(p);
    const outline = p.placedOutline?.length
      ? p.placedOutline
      : [{ x: p.x, y: p.y }, { x: p.x + dx, y: p.y }, { x: p.x + dx, y: p.y + dy }, { x: p.x, y: p.y + dy }];
    const box = bounds(outline);
    const placement: Placement = {
      part: p, row: rows.get(rowOf(p.id))!, ids: [p.id],
      x: box.minX, y: box.minY, dx, dy, outline, holes: p.placedHoles ?? [],
    };
    seen.set(key, placement);
    sheet.placements.push(placement);
  }
  for (const c of record.cuts) byStock.get(c.stock.id)?.cuts.push(c);
  for (const o of record.offcuts) byStock.get(o.stock.id)?.offcuts.push(o);
  for (const sheet of byStock.values()) sheet.cuts.sort((a, b) => a.order - b.order);
  return [...byStock.values()];
}

/**
 * Trim widths on each side, in stock coordinates. A sheet trims l1/l2 at the bottom/top and
 * w1/w2 at the left/right; a bar trims l1 at its start and l2 at its end (along x).
 */
export function trimsOf(stock: ResultStock): { left: number; right: number; bottom: number; top: number } {
  const { l1, l2, w1, w2 } = stock.trim;
  return stock.type === 'linear' ? { left: l1, right: l2, bottom: 0, top: 0 } : { left: w1, right: w2, bottom: l1, top: l2 };
}

/** "3 sheets", "1 bar": what a stack is made of. */
export function pieces(stock: ResultStock, n = stock.stack): string {
  const word = stock.type === 'linear' ? 'bar' : stock.type === 'roll' ? 'length' : 'sheet';
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "2800 x 2070 x 18" (the thickness when known). */
export function sizeText(s: { l: number; w: number; t: number | null }, times = ' × '): string {
  return [s.l, s.w, ...(s.t !== null && s.t !== undefined ? [s.t] : [])].map(fmt).join(times);
}

export function cutLength(c: ResultCut): number {
  return Math.abs(c.x2 - c.x1) + Math.abs(c.y2 - c.y1);
}
