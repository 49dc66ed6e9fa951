// PTX, the Pattern Exchange file of Homag/Holzma panel saws (ASCII, one record per line,
// CRLF), v1.21 layout. Conventions this writer keeps, and a reader needs:
// - CUTS are the cut tree nested by phase: a row at phase k is followed by the rows of phase
//   k + 1 that cut up the piece it frees. FUNCTION is the phase (1 rip, 2 crosscut, 3.. recut),
//   or 90 + phase for waste and trims; head cuts (0) are not produced.
// - The first phase cuts along the board's length when PATTERNS.TYPE is 0 and across it
//   (the board turned) when TYPE is 1; phases alternate from there. Head cuts are phase 0,
//   across the width (TYPE 2) or along the length (TYPE 3), before the rips.
// - Origin top-left: cuts along the length free pieces from the top edge down, cuts across
//   from the left edge rightwards. Each row frees DIMENSION, then one kerf (MATERIALS.KERF_*)
//   follows; QTY_RPT repeats the row with everything under it. The last piece of a sequence
//   that needs no cut of its own (it ends on the piece's far edge) has QTY_RPT 0; waste after
//   the last cut, the far trims included, is left implicit.
// - Trims include the kerf (TRIM_TYPE 1, fixed trim first): the near trims are waste rows of
//   trim - kerf; trims across the first phase are repeated in every strip.
// - VECTORS give each actual cut as a line at the start of its kerf, in the record's frame
//   (ORIGIN 2: bottom-left, x to the right), a row per repetition.
// Units: 0 (metric) unless the saw settings say inches; sizes are printed as given.
// A pattern the cut tree cannot be rebuilt for (nested shapes, a trim narrower than the kerf)
// gets its PATTERNS record and a NOTES record saying why, and no CUTS.
import anyAscii from 'any-ascii';
import { cutTree, NotGuillotine, type Rect, type TreeNode } from './cut-tree.js';
import { bandingOf, fmt, kerfOf, partRows, rowOf, sheetsOf, trimsOf, unitsOf, type Band, type ExportRecord, type Sheet } from './model.js';

const EPS = 1e-4;
type Axis = 'l' | 'w';
const other = (a: Axis): Axis => (a === 'l' ? 'w' : 'l');

interface Row {
  phase: number;
  waste: boolean;
  dim: number;
  part: string;
  qty: number;
  children: Row[];
  /** The piece the row frees (first repetition) and the piece it is cut from, for VECTORS. */
  piece: Rect;
  parent: Rect;
  axis: Axis;
}

/**
 * TXT fields: ASCII, no line breaks; every script transliterated (półka -> polka, Шкаф -> Shkaf,
 * 书架 -> ShuJia), so a name stays readable on the saw. CODE fields also upper-case, no spaces,
 * at most 10 characters, and unique within their record type (see uniqueCode).
 */
const ascii = (s: string) => anyAscii(s.replace(/[\r\n\t]+/g, ' ')).replace(/[^\x20-\x7e]/g, '?');
const code = (s: string) => ascii(s).trim().toUpperCase().replace(/[^A-Z0-9_.\-]/g, '_').slice(0, 10);

/** `base`, or when taken base shortened with -2, -3 ... until it is not. */
function uniqueCode(base: string, taken: Set<string>): string {
  let c = base;
  for (let n = 2; taken.has(c); n++) c = `${base.slice(0, 10 - String(n).length - 1)}-${n}`;
  taken.add(c);
  return c;
}

function csvField(v: string | number): string {
  const s = typeof v === 'number' ? fmt(v) : ascii(v);
  return /[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderPtx(record: ExportRecord): string {
  const lines: string[] = [];
  const rec = (type: string, ...fields: (string | number)[]) => lines.push([type, ...fields.map(csvField)].join(','));
  const kerf = kerfOf(record);
  const saw = record.saw as { cutType?: string; stackHeight?: number; cutPreference?: string };
  const beam = saw.cutType === 'beam';
  const bookHeight = Number(saw.stackHeight) || 1;
  const sheets = sheetsOf(record);
  const rows = partRows(record);
  const m = record.metadata;

  // Materials: one per material name (case-insensitive, as the service matches them) and thickness.
  const materials = new Map<string, { index: number; code: string; name: string; t: number | null }>();
  const codes = new Set<string>();
  const material = (name: string, t: number | null) => {
    const key = `${name.toLowerCase()}|${t ?? ''}`;
    let entry = materials.get(key);
    if (!entry) {
      const c = uniqueCode(code(`${name || 'NONE'}${t !== null ? `_${fmt(t)}` : ''}`), codes);
      entry = { index: materials.size + 1, code: c, name, t };
      materials.set(key, entry);
    }
    return entry.index;
  };
  for (const s of record.stock) material(s.material, s.t);
  for (const r of rows) material(r.first.material, r.first.t);

  rec('HEADER', '1.21', `kerf job ${record.jobId}`, unitsOf(record) === 'in' ? 1 : 0, 2, 1);
  rec('JOBS', 1, code(`J${record.jobId}`), `kerf job ${record.jobId}`, '', '', '', 1, '', '', 0, m.totalUsedStock ? fmt(Math.round((1 - m.totalEfficiency) * 10000) / 100) : 0);

  // Part codes: the name (or P<number>), unique: two rows never share one.
  const partCodes = new Set<string>();
  for (const r of rows) {
    const p = r.first;
    const partCode = uniqueCode(code(p.name) || `P${r.number}`, partCodes);
    rec('PARTS_REQ', 1, r.number, partCode, material(p.material, p.t), p.l, p.w, r.requested, 0, 0, grainCode(p.grain, p.l, p.w), r.placed, 0, 0, 0);
  }
  for (const r of rows) {
    const p = r.first;
    const band = bandingOf(p);
    const edge = (b: Band | null) => (!b ? '' : code(b.type) || 'EDGE');
    rec('PARTS_INF', 1, r.number, ascii(p.name).trim() || `part ${r.number}`, r.placed, p.l, p.w, 0, edge(band.l1), edge(band.l2), edge(band.w1), edge(band.w2),
      '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', r.row);
  }

  // Boards: one per stock row of the request ("<row>.<pattern>" ids), used or not.
  const boards = new Map<string, { index: number; used: number }>();
  for (const s of record.stock) {
    const row = rowOf(s.id);
    const b = boards.get(row) ?? { index: boards.size + 1, used: 0 };
    b.used += s.used ? s.stack : 0;
    boards.set(row, b);
  }
  const boardCodes = new Set<string>();
  for (const [row, b] of boards) {
    const s = record.stock.find((x) => rowOf(x.id) === row)!;
    // TYPE 1: an offcut from the shop's rack (request offcut: true), 0 a stock board.
    rec('BOARDS', 1, b.index, uniqueCode(code(s.name) || `B${b.index}`, boardCodes), material(s.material, s.t), s.l, s.w, 99999, b.used, s.cost, 0, s.notes, '',
      s.grain === 'l' ? 1 : s.grain === 'w' ? 2 : 0, s.offcut ? 1 : 0, '', '', '', 1);
  }
  const headCuts = (record.saw.guillotineOptions as { headCuts?: boolean } | undefined)?.headCuts ? 1 : 0;
  for (const mat of materials.values()) {
    // The fixed trims of the first stock of the material (the patterns carry every trim as cuts anyway).
    const s = record.stock.find((x) => x.material.toLowerCase() === mat.name.toLowerCase() && x.t === mat.t);
    const t = s ? trimsOf(s) : { left: 0, right: 0, bottom: 0, top: 0 };
    rec('MATERIALS', 1, mat.index, mat.code, mat.name, mat.t ?? 0, beam ? bookHeight : 1, kerf, kerf,
      Math.max(t.bottom, t.top), 0, Math.max(t.left, t.right), 0, 0, 0, 0, 9, headCuts, 0, 0, '', s?.grain === 'l' ? 1 : s?.grain === 'w' ? 2 : 0);
  }
  const offcutIndex = new Map(record.offcuts.map((o, i) => [o.id, i + 1]));
  record.offcuts.forEach((o, i) => {
    rec('OFFCUTS', 1, i + 1, `X${i + 1}`, material(o.material, o.t), o.l, o.w, o.q, o.grain === 'l' ? 1 : o.grain === 'w' ? 2 : 0, 0, 2, o.id, 1);
  });

  const cuts: string[] = [];
  const vectors: string[] = [];
  const notes: string[] = [];
  for (const sheet of sheets) {
    const { stock } = sheet;
    let tree: { rows: Row[]; type: number } | undefined;
    try {
      tree = patternRows(sheet, kerf, saw.cutPreference === 'w' ? 'w' : 'l', offcutIndex);
    } catch (error) {
      if (!(error instanceof NotGuillotine)) throw error;
      notes.push(`pattern ${sheet.number} (stock ${stock.id}) has no saw program: ${error.message}`);
    }
    const books = beam ? Math.ceil(stock.stack / bookHeight) : stock.stack;
    rec('PATTERNS', 1, sheet.number, boards.get(rowOf(stock.id))!.index, tree?.type ?? 0, stock.stack, books, beam ? bookHeight : 1, '', 0, 0, '');
    if (!tree) continue;
    let index = 0, sequence = 1;
    // `at`: where each copy of the enclosing pieces lies, as shifts from the first copy.
    const emit = (row: Row, at: Shift[]): void => {
      index++;
      const own = index;
      const copies = Math.max(row.qty, 1) * at.length;
      const parts = row.part !== '0' && !row.part.startsWith('X') ? copies * stock.stack : 0;
      cuts.push(['CUTS', 1, sheet.number, own, sequence, row.waste ? 90 + row.phase : row.phase, fmt(row.dim), row.qty, row.part, parts, ''].map((v) => csvField(v)).join(','));
      sequence += row.qty;
      for (const shift of at) {
        for (const v of vectorLines(row, kerf, shift)) vectors.push(['VECTORS', 1, sheet.number, own, ...v.map(fmt)].join(','));
      }
      const mine = repeats(row, kerf);
      for (const child of row.children) emit(child, at.flatMap((a) => mine.map((m) => ({ dx: a.dx + m.dx, dy: a.dy + m.dy }))));
    };
    for (const row of tree.rows) emit(row, [{ dx: 0, dy: 0 }]);
  }
  lines.push(...cuts, ...vectors);
  notes.forEach((text, i) => rec('NOTES', 1, i + 1, text));
  return `${lines.join('\r\n')}\r\n`;
}

/** GRAIN: 1 when the part's LENGTH must follow the board's length (its grain runs along l), 2 along its width. */
function grainCode(grain: string, l: number, w: number): number {
  if (grain !== 'l' && grain !== 'w') return 0;
  const lengthIsLonger = l >= w;
  return (grain === 'l') === lengthIsLonger ? 1 : 2;
}

/**
 * The pattern's rows. The record trims the whole sheet first; a panel saw trims the board
 * along the first phase, then each strip's ends. So the strips of the usable area are widened
 * to the board, and the trims become the gaps before the first piece of each sequence.
 */
function patternRows(sheet: Sheet, kerf: number, preferred: Axis, offcuts: Map<string, number>): { rows: Row[]; type: number } {
  const usable = cutTree(sheet, kerf);
  const first: Axis = usable.axis && usable.children ? usable.axis : preferred;
  // Head cuts (stage 0 cuts that are not trims) are phase 0: TYPE 2 across the width, 3 along the length.
  const head = sheet.cuts.some((c) => !c.isTrim && c.phase === 0);
  const type = head ? (first === 'w' ? 2 : 3) : first === 'w' ? 1 : 0;
  const { l: L, w: W } = sheet.stock;
  const strips = usable.axis === first && usable.children ? usable.children : [usable];
  const across = other(first);
  const spansBoard = (s: TreeNode) => (first === 'l' ? s.x <= EPS && s.dx >= L - EPS : s.y <= EPS && s.dy >= W - EPS);
  const widen = (s: TreeNode): TreeNode => (spansBoard(s) ? s : {
    ...(first === 'l' ? { x: 0, y: s.y, dx: L, dy: s.dy } : { x: s.x, y: 0, dx: s.dx, dy: W }),
    axis: across,
    children: s.axis === across && s.children ? s.children : [s],
  });
  const board: TreeNode = { x: 0, y: 0, dx: L, dy: W, axis: first, children: strips.map(widen) };
  return { rows: split(board, first, head ? 0 : 1, kerf, offcuts), type };
}

/** The rows that cut `node` along `axis` at `phase`, in PTX order, identical neighbours folded into QTY_RPT. */
function split(node: TreeNode, axis: Axis, phase: number, kerf: number, offcuts: Map<string, number>): Row[] {
  // A piece cut the other way first passes whole through this phase.
  const pieces = node.axis === axis && node.children ? node.children : [node];
  const fromTop = axis === 'l';
  const ordered = [...pieces].sort((a, b) => (fromTop ? b.y + b.dy - (a.y + a.dy) : a.x - b.x));
  const start = fromTop ? node.y + node.dy : node.x;
  const total = fromTop ? node.dy : node.dx;
  /** The part of `node` from `from` to `to`, measured from the origin edge. */
  const band = (from: number, to: number): Rect => (fromTop
    ? { x: node.x, y: start - to, dx: node.dx, dy: to - from }
    : { x: start + from, y: node.y, dx: to - from, dy: node.dy });
  const rows: Row[] = [];
  let pos = 0; // distance from the origin edge to where the next piece may start
  for (const piece of ordered) {
    const near = fromTop ? start - (piece.y + piece.dy) : piece.x - start;
    const size = fromTop ? piece.dy : piece.dx;
    const gap = near - pos;
    if (gap < -EPS) throw new NotGuillotine(`pieces overlap in the pattern at ${fmt(node.x)},${fmt(node.y)}`);
    if (gap > EPS) {
      // Material before the piece (a trim, or waste no cut of the tree freed): a waste row, then its kerf.
      if (gap < kerf - EPS) throw new NotGuillotine(`a trim or gap of ${fmt(gap)} is narrower than the kerf ${fmt(kerf)}`);
      rows.push(row(phase, axis, true, gap - kerf, '0', 1, [], node, band(pos, near - kerf)));
    }
    const last = near + size >= total - EPS;
    const content = piece.content;
    const isWaste = wasteOnly(piece);
    const part = content?.kind === 'part' ? String(content.placement.row.number) : content?.kind === 'offcut' ? `X${offcuts.get(content.offcut.id)}` : '0';
    const children = piece.children && !isWaste ? split(piece, other(axis), phase + 1, kerf, offcuts) : [];
    // The last piece reaching the far edge needs no cut of its own; trailing waste stays implicit.
    if (!(last && isWaste)) rows.push(row(phase, axis, isWaste, size, part, last ? 0 : 1, children, node, band(near, near + size)));
    pos = near + size + kerf;
  }
  return fold(rows);
}

/** A piece holding neither part nor offcut falls as one piece of waste, however it was cut. */
function wasteOnly(n: TreeNode): boolean {
  return n.children ? n.children.every(wasteOnly) : !n.content || n.content.kind === 'waste';
}

function row(phase: number, axis: Axis, waste: boolean, dim: number, part: string, qty: number, children: Row[], parent: Rect, piece: Rect): Row {
  return { phase, axis, waste, dim, part, qty, children, parent: { x: parent.x, y: parent.y, dx: parent.dx, dy: parent.dy }, piece: { x: piece.x, y: piece.y, dx: piece.dx, dy: piece.dy } };
}

const shape = (r: Row): string => `${r.phase}|${r.waste}|${fmt(r.dim)}|${r.part}|${r.qty}[${r.children.map(shape).join(';')}]`;

/** Neighbouring rows that free the same piece with the same cuts under it become one row with QTY_RPT. */
function fold(rows: Row[]): Row[] {
  const out: Row[] = [];
  for (const r of rows) {
    const prev = out[out.length - 1];
    if (prev && prev.qty > 0 && r.qty > 0 && shape({ ...prev, qty: 1 }) === shape({ ...r, qty: 1 })) prev.qty += r.qty;
    else out.push({ ...r });
  }
  return out;
}

interface Shift { dx: number; dy: number }

/** Where a row's repetitions lie relative to its first piece: further down ('l') or right ('w'). */
function repeats(r: Row, kerf: number): Shift[] {
  return Array.from({ length: Math.max(r.qty, 1) }, (_, i) => (r.axis === 'l' ? { dx: 0, dy: -i * (r.dim + kerf) } : { dx: i * (r.dim + kerf), dy: 0 }));
}

/** The cuts a row makes (one per repetition), as [x1, y1, x2, y2] where the kerf starts. */
function vectorLines(r: Row, kerf: number, at: Shift): number[][] {
  if (r.qty === 0) return [];
  return repeats(r, kerf).map(({ dx, dy }) => {
    const x0 = at.dx + dx, y0 = at.dy + dy;
    if (r.axis === 'l') {
      const y = r.piece.y - kerf + y0; // the kerf under the freed piece
      return [r.parent.x + at.dx, y, r.parent.x + at.dx + r.parent.dx, y];
    }
    const x = r.piece.x + r.dim + x0;
    return [x, r.parent.y + at.dy, x, r.parent.y + at.dy + r.parent.dy];
  });
}
