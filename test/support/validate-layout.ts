// Long (over 400 lines) because it is self-contained on purpose: it shares no code with the service it checks.
/**
 * Independent validator for the sheet and roll layouts returned by kerf: guillotine layouts
 * (every cut replayed in order), and free layouts of cutType efficiency (CNC routers: parts
 * anywhere at least one kerf apart, no cut list, offcuts clear of the parts).
 *
 * It deliberately imports nothing from src/: every rule is re-derived from the
 * request exactly as a client sent it, so a bug in the service cannot hide by
 * being shared with the code that checks it. The result is treated as untrusted
 * JSON; geometry (part and sheet sizes, trims) is always taken from the request.
 *
 * validateLayout() returns human-readable violations; an empty list means valid.
 */

const TOL = 1e-6;

type Dir = 'l' | 'w';
type Rec = Record<string, unknown>;

interface Rect { x0: number; y0: number; x1: number; y1: number }
interface Trim { l1: number; l2: number; w1: number; w2: number }

interface StockRow { l: number; w: number; t?: number; q?: number; material: string; grain: string; trim: Trim }
interface PartRow { l: number; w: number; t?: number; q: number; material: string; grain: string; lock: string }

interface Req {
  /** Roll stock: fixed width, the entry's l is the length taken from the roll. */
  roll: boolean;
  /** cutType efficiency: free placement, no guillotine cuts. */
  free: boolean;
  /** Gap between parts: the blade; for free layouts the larger of blade and minSpacing. */
  blade: number;
  firstDir: Dir;
  maxPhase: number;
  headCuts: boolean;
  stock: StockRow[];
  parts: PartRow[];
}

/** One distinct position on a sheet; on a stacked entry it stands for `stack` part instances. */
interface Placement { rect: Rect; ids: string[] }

interface Sheet {
  id: string;
  rowIndex: number;
  row: StockRow;
  used: boolean;
  stack: number;
  placements: Map<string, Placement>;
  cuts: unknown[];
  offcuts: Rec[];
}

interface Cut { order: number; dir: Dir; pos: number; lo: number; hi: number; isTrim: boolean }
interface Piece extends Rect { stage: number; dir: Dir | null }

// ---------------------------------------------------------------- small helpers

const obj = (v: unknown): Rec => (v !== null && typeof v === 'object' ? (v as Rec) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
/** Clients may send numbers as numeric strings; absent/empty means "not given". */
const optNum = (v: unknown): number | undefined => (v === undefined || v === null || v === '' ? undefined : Number(v));
const near = (a: number, b: number): boolean => Math.abs(a - b) <= TOL;
const closeRel = (a: number, b: number): boolean => Math.abs(a - b) <= TOL * Math.max(1, Math.abs(b));
const sameRect = (a: Rect, b: Rect): boolean => near(a.x0, b.x0) && near(a.y0, b.y0) && near(a.x1, b.x1) && near(a.y1, b.y1);
/** Positive-area intersection (touching edges do not count). */
const overlaps = (a: Rect, b: Rect): boolean =>
  Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > TOL && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > TOL;
const fmt = (n: number): string => String(Math.round(n * 1e6) / 1e6);
const showRect = (r: Rect): string => `[${fmt(r.x0)},${fmt(r.x1)}]x[${fmt(r.y0)},${fmt(r.y1)}]`;
/** Ids look like "<row>.<k>"; the row is the index into the request array. */
const rowOf = (id: string): number => (/^\d+(\.|$)/.test(id) ? Number.parseInt(id, 10) : Number.NaN);
const rectKey = (r: Rect): string => [r.x0, r.y0, r.x1, r.y1].map((n) => Math.round(n / TOL)).join('|');

// ---------------------------------------------------------------- request

function readRequest(request: unknown): Req {
  const req = obj(request);
  const saw = obj(req.saw);
  const g = obj(saw.guillotineOptions);
  const stock = arr(req.stock).map((raw): StockRow => {
    const s = obj(raw);
    const t = obj(s.trim);
    return {
      l: Number(s.l),
      w: Number(s.w),
      t: optNum(s.t),
      q: optNum(s.q), // absent = unlimited
      material: str(s.material).trim().toLowerCase(),
      grain: str(s.grain),
      trim: { l1: optNum(t.l1) ?? 0, l2: optNum(t.l2) ?? 0, w1: optNum(t.w1) ?? 0, w2: optNum(t.w2) ?? 0 },
    };
  });
  const deduct = obj(saw.options).deductBanding === true && saw.cutType !== 'nesting';
  const parts = arr(req.parts).map((raw): PartRow => {
    const p = obj(raw);
    // saw.options.deductBanding: the part is cut smaller by the thickness of each band.
    const cut = deduct ? bandThickness(p) : { l: 0, w: 0 };
    return {
      l: Number(p.l) - cut.l,
      w: Number(p.w) - cut.w,
      t: optNum(p.t),
      q: optNum(p.q) ?? 1,
      material: str(p.material).trim().toLowerCase(),
      grain: str(p.grain),
      lock: str(p.orientationLock),
    };
  });
  return {
    roll: saw.stockType === 'roll',
    free: saw.cutType === 'efficiency',
    blade: saw.cutType === 'efficiency'
      ? Math.max(optNum(saw.bladeWidth) ?? 0, optNum(obj(saw.options).minSpacing) ?? 0)
      : optNum(saw.bladeWidth) ?? 0,
    // A roll is always cut across first.
    firstDir: saw.cutPreference === 'w' || saw.stockType === 'roll' ? 'w' : 'l',
    maxPhase: optNum(g.maxPhase) ?? 0,
    headCuts: g.headCuts === true || g.headCuts === 'true' || g.headCuts === 1,
    stock,
    parts,
  };
}

/**
 * Band thickness off the part's l (bands on w1, w2) and w (l1, l2), from extras.banding.sides,
 * the sides directly under extras.banding, or the part's legacy banding; x/y names as for trims.
 */
function bandThickness(p: Rec): { l: number; w: number } {
  const banding = obj(obj(p.extras).banding);
  const places = [obj(p.banding), banding, obj(banding.sides)];
  const legacy: Record<string, string> = { l1: 'y1', l2: 'y2', w1: 'x1', w2: 'x2' };
  const t = (side: string) => {
    let v: unknown;
    for (const place of places) v = place[side] ?? place[legacy[side]!] ?? v;
    const thickness = Number(obj(v).thickness);
    return Number.isFinite(thickness) && thickness > 0 ? thickness : 0;
  };
  return { l: t('w1') + t('w2'), w: t('l1') + t('l2') };
}

/** Trims cut inward: l1 bottom, l2 top (y), w1 left, w2 right (x). */
const usableRect = (s: StockRow): Rect => ({ x0: s.trim.w1, x1: s.l - s.trim.w2, y0: s.trim.l1, y1: s.w - s.trim.l2 });

// ---------------------------------------------------------------- stock entries

function readSheets(req: Req, res: Rec, v: string[]): Map<string, Sheet> {
  const sheets = new Map<string, Sheet>();
  for (const raw of arr(res.stock)) {
    const e = obj(raw);
    const id = str(e.id);
    const rowIndex = rowOf(id);
    let row = req.stock[rowIndex];
    if (sheets.has(id)) { v.push(`stock ${id}: duplicate stock id`); continue; }
    if (!row) { v.push(`stock ${id}: id does not name a request stock row`); continue; }
    const used = e.used === true;
    let stack = e.stack === undefined ? 1 : Number(e.stack);
    if (used && !(Number.isInteger(stack) && stack >= 1)) {
      v.push(`stock ${id}: stack ${str(e.stack)} is not a positive integer`);
      stack = 1;
    }
    if (req.roll && used) {
      // A roll piece: the request's width, a length no longer than the roll, reported as rollLength.
      const len = Number(e.l);
      if (!(len > row.trim.w1 + row.trim.w2 && len <= row.l + TOL)) v.push(`stock ${id}: roll length ${str(e.l)} outside (trims, ${fmt(row.l)}]`);
      if (!near(Number(obj(e.analysis).rollLength), len)) v.push(`stock ${id}: analysis.rollLength ${str(obj(e.analysis).rollLength)} differs from l ${str(e.l)}`);
      row = { ...row, l: len };
    }
    // Stock never rotates, so the entry must repeat the request row's size and trim.
    if (!near(Number(e.l), row.l) || !near(Number(e.w), row.w)) {
      v.push(`stock ${id}: size ${str(e.l)}x${str(e.w)} differs from request stock row ${rowIndex} (${fmt(row.l)}x${fmt(row.w)})`);
    }
    if (e.trim !== undefined) {
      const t = obj(e.trim);
      for (const k of ['l1', 'l2', 'w1', 'w2'] as const) {
        if (!near(optNum(t[k]) ?? 0, row.trim[k])) v.push(`stock ${id}: trim.${k} ${str(t[k])} differs from request (${fmt(row.trim[k])})`);
      }
    }
    sheets.set(id, { id, rowIndex, row, used, stack, placements: new Map(), cuts: [], offcuts: [] });
  }
  return sheets;
}

// ---------------------------------------------------------------- parts

/** Why a placement breaks orientationLock or grain, or null when it is allowed. */
function orientationProblem(part: PartRow, stock: StockRow, rot: number): string | null {
  const longer = Math.max(part.l, part.w);
  if (near(longer, Math.min(part.l, part.w))) return null; // square: any orientation satisfies lock and grain
  const longAlongX = near(rot === 1 ? part.w : part.l, longer);
  if (part.lock === 'l' || part.lock === 'w') {
    const want = part.lock === 'l'; // 'l' = longer side along the stock length (x)
    return longAlongX === want ? null : `rotation breaks orientationLock "${part.lock}" (longer side runs along ${longAlongX ? 'x' : 'y'})`;
  }
  if ((part.grain === 'l' || part.grain === 'w') && (stock.grain === 'l' || stock.grain === 'w')) {
    // Part grain 'l' follows its longer side, 'w' its shorter; stock grain 'l' is along x.
    const partGrainX = part.grain === 'l' ? longAlongX : !longAlongX;
    const stockGrainX = stock.grain === 'l';
    if (partGrainX !== stockGrainX) {
      return `rotation breaks grain: part grain "${part.grain}" runs along ${partGrainX ? 'x' : 'y'}, stock grain "${stock.grain}" along ${stockGrainX ? 'x' : 'y'}`;
    }
  }
  return null;
}

/** Checks parts[] and files each placed instance under its sheet. Returns not-added counts per part row. */
function readParts(req: Req, res: Rec, sheets: Map<string, Sheet>, v: string[], placed: { count: number; area: number }): Map<number, number> {
  const seen = new Set<string>();
  const perRow = new Map<number, number>();
  const notAdded = new Map<number, number>();
  for (const raw of arr(res.parts)) {
    const p = obj(raw);
    const id = str(p.id);
    const m = /^(\d+)\.(\d+)$/.exec(id);
    const row = m ? req.parts[Number(m[1])] : undefined;
    if (seen.has(id)) { v.push(`part ${id}: duplicate part id in parts[]`); continue; }
    seen.add(id);
    if (!m || !row) { v.push(`part ${id}: id is not "<partRow>.<copy>" of a request part row`); continue; }
    const rowIndex = Number(m[1]);
    perRow.set(rowIndex, (perRow.get(rowIndex) ?? 0) + 1);
    if (Number(m[2]) >= row.q) v.push(`part ${id}: copy index is beyond the requested quantity ${row.q}`);
    const sizeOk = (near(Number(p.l), row.l) && near(Number(p.w), row.w)) || (near(Number(p.l), row.w) && near(Number(p.w), row.l));
    if (!sizeOk) v.push(`part ${id}: size ${str(p.l)}x${str(p.w)} differs from request part row ${rowIndex} (${fmt(row.l)}x${fmt(row.w)})`);

    const ref = p.stock === null || p.stock === undefined ? null : str(obj(p.stock).id);
    if (p.added !== true) {
      if (ref !== null) v.push(`part ${id}: added is false but it references stock ${ref}`);
      notAdded.set(rowIndex, (notAdded.get(rowIndex) ?? 0) + 1);
      continue;
    }
    const sheet = ref === null ? undefined : sheets.get(ref);
    if (!sheet) { v.push(`part ${id}: added but references ${ref === null ? 'no stock' : `unknown stock ${ref}`}`); continue; }
    if (!sheet.used) v.push(`part ${id}: placed on stock ${ref}, which is marked used: false`);
    const rot = Number(p.rot);
    const x = Number(p.x);
    const y = Number(p.y);
    if ((rot !== 0 && rot !== 1) || !Number.isFinite(x) || !Number.isFinite(y)) {
      v.push(`part ${id}: needs finite x, y and rot 0|1 (got x=${str(p.x)}, y=${str(p.y)}, rot=${str(p.rot)})`);
      continue;
    }
    placed.count++;
    placed.area += row.l * row.w;

    const turn = orientationProblem(row, sheet.row, rot);
    if (turn) v.push(`part ${id} on stock ${ref}: ${turn}`);
    if (row.material !== sheet.row.material) {
      v.push(`part ${id}: material "${row.material}" placed on stock ${ref} of material "${sheet.row.material}"`);
    }
    if (row.t !== undefined && sheet.row.t !== undefined && !near(row.t, sheet.row.t)) {
      v.push(`part ${id}: thickness ${fmt(row.t)} placed on stock ${ref} of thickness ${fmt(sheet.row.t)}`);
    }

    const rect = rot === 1 ? { x0: x, y0: y, x1: x + row.w, y1: y + row.l } : { x0: x, y0: y, x1: x + row.l, y1: y + row.w };
    const key = rectKey(rect);
    const group = sheet.placements.get(key) ?? { rect, ids: [] };
    group.ids.push(id);
    sheet.placements.set(key, group);
  }
  req.parts.forEach((row, i) => {
    const n = perRow.get(i) ?? 0;
    if (n !== row.q) v.push(`part row ${i}: parts[] holds ${n} instance(s), expected ${row.q} (a part is missing or extra)`);
  });
  return notAdded;
}

// ---------------------------------------------------------------- placement geometry

function checkPlacements(req: Req, sheet: Sheet, v: string[]): void {
  const usable = usableRect(sheet.row);
  const list = [...sheet.placements.values()];
  for (const p of list) {
    // A stacked entry is n identical sheets, so each position must be filled exactly n times.
    if (p.ids.length !== sheet.stack) {
      v.push(`stock ${sheet.id}: position ${showRect(p.rect)} holds ${p.ids.length} part instance(s) (${p.ids.join(', ')}), expected stack ${sheet.stack}`);
    }
    const r = p.rect;
    if (r.x0 < usable.x0 - TOL || r.y0 < usable.y0 - TOL || r.x1 > usable.x1 + TOL || r.y1 > usable.y1 + TOL) {
      v.push(`part ${p.ids[0]} at ${showRect(r)} lies outside the usable area ${showRect(usable)} of stock ${sheet.id}`);
    }
  }
  // Guillotine: any two parts must be separated by at least a blade along x or along y.
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i].rect;
      const b = list[j].rect;
      const gapX = Math.max(b.x0 - a.x1, a.x0 - b.x1);
      const gapY = Math.max(b.y0 - a.y1, a.y0 - b.y1);
      const names = `parts ${list[i].ids[0]} and ${list[j].ids[0]} on stock ${sheet.id}`;
      if (gapX < -TOL && gapY < -TOL) v.push(`${names} overlap`);
      else if (gapX < req.blade - TOL && gapY < req.blade - TOL) {
        v.push(`${names} are closer than the kerf (blade ${fmt(req.blade)}): gap ${fmt(Math.max(gapX, gapY))}`);
      }
    }
  }
}

// ---------------------------------------------------------------- cut simulation

function readCut(raw: unknown): Cut | string {
  const c = obj(raw);
  const [x1, y1, x2, y2, pos, order] = [c.x1, c.y1, c.x2, c.y2, c.position, c.order].map(Number);
  if (!Number.isInteger(order)) return `cut has no integer order (${str(c.order)})`;
  if (c.dimension === 'l') {
    // Runs along the length (parallel to x) at y = position.
    if (!near(y1, pos) || !near(y2, pos)) return `cut #${order}: dimension l but y1/y2 (${str(c.y1)}, ${str(c.y2)}) differ from position ${str(c.position)}`;
    return { order, dir: 'l', pos, lo: Math.min(x1, x2), hi: Math.max(x1, x2), isTrim: c.isTrim === true };
  }
  if (c.dimension === 'w') {
    if (!near(x1, pos) || !near(x2, pos)) return `cut #${order}: dimension w but x1/x2 (${str(c.x1)}, ${str(c.x2)}) differ from position ${str(c.position)}`;
    return { order, dir: 'w', pos, lo: Math.min(y1, y2), hi: Math.max(y1, y2), isTrim: c.isTrim === true };
  }
  return `cut #${order}: dimension must be "l" or "w" (got ${str(c.dimension)})`;
}

/** Index of the one piece the cut crosses edge to edge with its line strictly inside, or -1. */
function findPiece(pieces: Rect[], c: Cut): number {
  return pieces.findIndex((p) =>
    c.dir === 'l'
      ? p.y0 + TOL < c.pos && c.pos < p.y1 - TOL && near(c.lo, p.x0) && near(c.hi, p.x1)
      : p.x0 + TOL < c.pos && c.pos < p.x1 - TOL && near(c.lo, p.y0) && near(c.hi, p.y1),
  );
}

/** Which trim a trim cut makes, judged by its position against the request trims. */
function trimSide(row: StockRow, c: Cut): 'low' | 'high' | null {
  const [low, high, lowAt, highAt] =
    c.dir === 'l' ? [row.trim.l1, row.trim.l2, row.trim.l1, row.w - row.trim.l2] : [row.trim.w1, row.trim.w2, row.trim.w1, row.l - row.trim.w2];
  if (low > TOL && near(c.pos, lowAt)) return 'low';
  if (high > TOL && near(c.pos, highAt)) return 'high';
  return null;
}

/**
 * Pieces a cut leaves behind. A trim keeps only the inner side (the blade is part
 * of the trim); a normal cut keeps [start, pos] and [pos + blade, end], the
 * latter dropped when less than a blade remains.
 */
function children(p: Rect, c: Cut, row: StockRow, blade: number): Rect[] {
  const along = c.dir === 'l' ? (['y0', 'y1'] as const) : (['x0', 'x1'] as const);
  const [lo, hi] = along;
  if (c.isTrim) return trimSide(row, c) === 'low' ? [{ ...p, [lo]: c.pos }] : [{ ...p, [hi]: c.pos }];
  const out: Rect[] = [{ ...p, [hi]: c.pos }];
  if (c.pos + blade < p[hi] - TOL) out.push({ ...p, [lo]: c.pos + blade });
  return out;
}

const plain = (r: Rect): Rect => ({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1 });

/** Would `c` fit once some of the later cuts have been made? (diagnoses cut order) */
function fitsLater(pieces: Rect[], later: Cut[], c: Cut, row: StockRow, blade: number): boolean {
  const sim = pieces.map(plain);
  for (const n of later) {
    const i = findPiece(sim, n);
    if (i < 0 || (n.isTrim && !trimSide(row, n))) continue;
    sim.splice(i, 1, ...children(sim[i], n, row, blade));
    if (findPiece(sim, c) >= 0) return true;
  }
  return false;
}

function simulateCuts(req: Req, sheet: Sheet, v: string[]): void {
  const { row, id } = sheet;
  const usable = usableRect(row);
  const cuts: Cut[] = [];
  for (const raw of sheet.cuts) {
    const c = readCut(raw);
    if (typeof c === 'string') v.push(`stock ${id}: ${c}`);
    else cuts.push(c);
  }
  const orders = cuts.map((c) => c.order).sort((a, b) => a - b);
  if (orders.some((o, i) => o !== i + 1)) v.push(`stock ${id}: cut orders are ${orders.join(',')}, expected 1..${orders.length} each once`);
  cuts.sort((a, b) => a.order - b.order);

  const pieces: Piece[] = [{ x0: 0, y0: 0, x1: row.l, y1: row.w, stage: 0, dir: null }];
  let trimmed = false; // all trim cuts done, first non-trim cut seen
  let headCutUsed = false;
  let diagnosed = false; // order diagnosis is costly; do it for the first misfit only
  const staged: { order: number; stage: number; sides: Rect[] }[] = [];
  const checkTrimmed = (): void => {
    if (pieces.length !== 1 || !sameRect(pieces[0], usable)) {
      v.push(`stock ${id}: after the trim cuts the sheet is ${pieces.map(showRect).join(' + ')}, expected the usable region ${showRect(usable)}`);
    }
  };

  for (const [i, c] of cuts.entries()) {
    const label = `stock ${id} cut #${c.order}`;
    if (c.isTrim && trimmed) v.push(`${label}: trim cut comes after a non-trim cut (trims must come first)`);
    if (c.isTrim && !trimSide(row, c)) { v.push(`${label}: trim cut at ${c.dir === 'l' ? 'y' : 'x'}=${fmt(c.pos)} matches no trim of stock row ${sheet.rowIndex}`); continue; }
    if (!c.isTrim && !trimmed) { trimmed = true; checkTrimmed(); }

    const at = findPiece(pieces, c);
    if (at < 0) {
      const late = !diagnosed && fitsLater(pieces, cuts.slice(i + 1), c, row, req.blade);
      diagnosed = true;
      v.push(late
        ? `${label}: out of order, it splits a piece that only exists after a later cut (cut order wrong)`
        : `${label}: ${c.dir} cut at ${fmt(c.pos)} from ${fmt(c.lo)} to ${fmt(c.hi)} does not run edge to edge across any single existing piece`);
      continue;
    }
    const piece = pieces[at];
    let stage = 0;
    let dir: Dir | null = null; // direction recorded on the new pieces
    if (c.isTrim) {
      dir = piece.dir; // trims do not count as stages
      stage = piece.stage;
    } else if (piece.dir === null) {
      // Piece is a (trimmed, or head-cut) whole sheet: its cut starts stage 1.
      if (c.dir !== req.firstDir && req.headCuts && !headCutUsed && staged.length === 0) {
        headCutUsed = true; // a single head cut in the other direction; its pieces restart at stage 0
      } else {
        // A first cut across the preferred direction means stage 1 left the sheet whole (one band
        // needs no cut): it is a stage-2 cut, and the stage limit below still counts it.
        stage = c.dir === req.firstDir ? 1 : 2;
        dir = c.dir;
      }
    } else {
      stage = piece.stage + (c.dir === piece.dir ? 0 : 1);
      dir = c.dir;
    }
    const made = children(piece, c, row, req.blade);
    pieces.splice(at, 1, ...made.map((r) => ({ ...r, stage, dir })));
    if (!c.isTrim) staged.push({ order: c.order, stage, sides: made });
  }
  if (!trimmed) checkTrimmed();

  const placements = [...sheet.placements.values()];
  const partsIn = (r: Rect): Placement[] => placements.filter((p) => overlaps(p.rect, r));

  // Stage limit: cuts separating parts must be within maxPhase; one extra stage is
  // allowed for cuts that only free a single part from waste.
  if (req.maxPhase > 0) {
    for (const s of staged) {
      if (s.stage <= req.maxPhase) continue;
      const counts = s.sides.map((r) => partsIn(r).length);
      const separates = counts.filter((n) => n > 0).length > 1;
      if (s.stage === req.maxPhase + 1 && !separates && Math.max(...counts) <= 1) continue;
      v.push(`stock ${id} cut #${s.order}: stage ${s.stage} exceeds maxPhase ${req.maxPhase}${separates ? ' (it separates parts)' : ''}`);
    }
  }

  // Every part must be a final piece of its own; offcuts must be empty final pieces.
  for (const p of placements) {
    if (!pieces.some((q) => sameRect(q, p.rect))) {
      v.push(`part ${p.ids[0]} at ${showRect(p.rect)} on stock ${id} does not coincide with a final piece of the cut sequence`);
    }
  }
  for (const q of pieces) {
    const inside = partsIn(q);
    if (inside.length > 1) v.push(`stock ${id}: final piece ${showRect(q)} holds ${inside.length} parts (${inside.map((p) => p.ids[0]).join(', ')})`);
  }
  for (const o of sheet.offcuts) {
    const [x, y, l, w] = [o.x, o.y, o.l, o.w].map(Number);
    // Accept l along x (stock orientation) or l reported as the other side.
    const shapes = [{ x0: x, y0: y, x1: x + l, y1: y + w }, { x0: x, y0: y, x1: x + w, y1: y + l }];
    const piece = pieces.find((q) => shapes.some((r) => sameRect(q, r)));
    const name = `offcut ${str(o.id)} at (${fmt(x)},${fmt(y)}) ${fmt(l)}x${fmt(w)} on stock ${id}`;
    if (!piece) v.push(`${name} is not a final piece of the cut sequence`);
    else if (partsIn(piece).length > 0) v.push(`${name} covers a part`);
  }
}

// ---------------------------------------------------------------- free layouts

/** A free layout has no saw cuts; its offcuts lie in the usable area, a kerf clear of every part and of each other. */
function checkFreeSheet(req: Req, sheet: Sheet, v: string[]): void {
  if (sheet.cuts.length > 0) v.push(`stock ${sheet.id}: a free (efficiency) layout lists ${sheet.cuts.length} cut(s), expected none`);
  const usable = usableRect(sheet.row);
  const parts = [...sheet.placements.values()];
  const seen: Rect[] = [];
  for (const o of sheet.offcuts) {
    const [x, y, l, w] = [o.x, o.y, o.l, o.w].map(Number);
    const r = { x0: x, y0: y, x1: x + l, y1: y + w };
    const name = `offcut ${str(o.id)} at ${showRect(r)} on stock ${sheet.id}`;
    if (!(l > 0 && w > 0)) v.push(`${name}: empty`);
    if (r.x0 < usable.x0 - TOL || r.y0 < usable.y0 - TOL || r.x1 > usable.x1 + TOL || r.y1 > usable.y1 + TOL) v.push(`${name} lies outside the usable area ${showRect(usable)}`);
    for (const p of parts) {
      const gap = Math.max(p.rect.x0 - r.x1, r.x0 - p.rect.x1, p.rect.y0 - r.y1, r.y0 - p.rect.y1);
      if (gap < req.blade - TOL) v.push(`${name} is within the kerf of part ${p.ids[0]} (gap ${fmt(gap)})`);
    }
    for (const q of seen) if (overlaps(q, r)) v.push(`${name} overlaps offcut ${showRect(q)}`);
    seen.push(r);
  }
}

// ---------------------------------------------------------------- unplaced parts

/** Row index of an unusableParts / unplacedParts entry: partIndex, or the id prefix. */
function unplacedRow(e: Rec): number {
  if (e.partIndex !== undefined && e.partIndex !== null) return Number(e.partIndex);
  return rowOf(str(e.id));
}

function checkUnplaced(list: unknown[], qtyField: string, where: string, notAdded: Map<number, number>, v: string[]): void {
  const listed = new Map<number, number>();
  for (const raw of list) {
    const e = obj(raw);
    const row = unplacedRow(e);
    if (!Number.isInteger(row)) { v.push(`${where}: entry ${JSON.stringify(e.id ?? null)} names no part row`); continue; }
    listed.set(row, (listed.get(row) ?? 0) + (optNum(e[qtyField]) ?? 1));
  }
  for (const row of new Set([...listed.keys(), ...notAdded.keys()])) {
    const want = notAdded.get(row) ?? 0;
    const got = listed.get(row) ?? 0;
    if (want !== got) v.push(`part row ${row}: ${want} instance(s) not added but ${where} accounts for ${got}`);
  }
}

// ---------------------------------------------------------------- entry point

export function validateLayout(request: unknown, result: unknown): string[] {
  const v: string[] = [];
  const req = readRequest(request);
  const res = obj(result);
  const sheets = readSheets(req, res, v);
  const placed = { count: 0, area: 0 };
  const notAdded = readParts(req, res, sheets, v, placed);

  for (const raw of arr(res.cuts)) {
    const ref = str(obj(obj(raw).stock).id);
    const sheet = sheets.get(ref);
    if (!sheet) v.push(`cut #${str(obj(raw).order)}: references unknown stock ${ref}`);
    else sheet.cuts.push(raw);
  }
  for (const raw of arr(res.offcuts)) {
    const o = obj(raw);
    const sheet = sheets.get(str(obj(o.stock).id));
    if (!sheet || !sheet.used) v.push(`offcut ${str(o.id)}: references missing or unused stock ${str(obj(o.stock).id)}`);
    else sheet.offcuts.push(o);
  }

  const usedPerRow = new Map<number, number>();
  let usedStock = 0;
  let stockArea = 0;
  let totalCuts = 0;
  for (const sheet of sheets.values()) {
    if (!sheet.used) {
      if (sheet.cuts.length > 0) v.push(`stock ${sheet.id}: marked used: false but has ${sheet.cuts.length} cut(s)`);
      continue;
    }
    if (sheet.placements.size === 0) v.push(`stock ${sheet.id}: marked used but holds no parts`);
    usedPerRow.set(sheet.rowIndex, (usedPerRow.get(sheet.rowIndex) ?? 0) + sheet.stack);
    usedStock += sheet.stack;
    stockArea += sheet.row.l * sheet.row.w * sheet.stack;
    totalCuts += sheet.cuts.length * sheet.stack;
    checkPlacements(req, sheet, v);
    if (req.free) checkFreeSheet(req, sheet, v);
    else simulateCuts(req, sheet, v);
  }

  for (const [row, n] of usedPerRow) {
    const q = req.stock[row].q;
    if (q !== undefined && n > q) v.push(`stock row ${row}: ${n} sheet(s) used but the request has quantity ${q}`);
  }

  checkUnplaced(arr(res.unusableParts), 'q', 'unusableParts', notAdded, v);
  const meta = obj(res.metadata);
  checkUnplaced(arr(meta.unplacedParts), 'count', 'metadata.unplacedParts', notAdded, v);

  let rollLength = 0;
  for (const sheet of sheets.values()) if (req.roll && sheet.used) rollLength += sheet.row.l * sheet.stack;
  const expected: Record<string, number> = {
    ...(req.roll ? { totalRollLength: rollLength } : {}),
    totalPartsProduced: placed.count,
    totalUsedStock: usedStock,
    totalPartArea: placed.area,
    totalStockUsedArea: stockArea,
    totalEfficiency: stockArea > 0 ? placed.area / stockArea : 0,
    totalCuts,
  };
  for (const [key, want] of Object.entries(expected)) {
    const got = Number(meta[key]);
    if (!closeRel(got, want)) v.push(`metadata.${key} is ${str(meta[key])}, the layout gives ${fmt(want)}`);
  }
  return v;
}
