/**
 * Independent validator for linear (1D) cutting plans returned by kerf.
 *
 * It imports nothing from src/: the rules are re-derived from the request as the client
 * sent it (canonical numeric fields: l, w, t, q, cost, material, trim {l1, l2}, stockLock,
 * saw.bladeWidth). The result is untrusted JSON; lengths always come from the request.
 *
 * Rules: every requested piece is listed once; a placed piece lies on a linear stock entry
 * of a compatible bar (material, profile width, thickness when both give one, stock lock),
 * at y 0, rot 0, within the usable length [l1, l - l2]; pieces on a bar are at least one
 * kerf apart and sum(l) + (k - 1) * kerf <= usable length; every piece not ending at the
 * usable end is followed by a cut at its end; cuts run across the bar (dimension w,
 * x1 == x2 == position, y from 0 to w), trims first; stacked entries repeat their pattern
 * `stack` times; stock quantities hold; unplaced pieces are explained in unusableParts;
 * metadata.optimal implies the plan meets metadata.lowerBound.
 *
 * validateLinear() returns human-readable violations; an empty list means valid.
 */

const TOL = 1e-6;

type Rec = Record<string, any>;

interface StockRow { l: number; w: number; t?: number; q?: number; cost: number; material: string; l1: number; l2: number; id: string; offcut: boolean }
interface PartRow { l: number; w: number; t?: number; q: number; material: string; stockLock?: string[] }

const text = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');

function readRequest(request: Rec): { kerf: number; stock: StockRow[]; parts: PartRow[] } {
  const stock = (request.stock as Rec[]).map((s, i): StockRow => ({
    l: Number(s.l), w: Number(s.w), t: s.t === undefined ? undefined : Number(s.t),
    q: s.unlimitedQuantity || s.q === undefined ? undefined : Number(s.q), cost: Number(s.cost ?? 0),
    material: text(s.material), l1: Number(s.trim?.l1 ?? 0), l2: Number(s.trim?.l2 ?? 0),
    id: s.id === undefined || s.id === '' ? String(i) : String(s.id),
    // Offcuts first (the default): the objective and its bound count new bars only.
    offcut: s.offcut === true && request.saw?.options?.offcutPriority !== false,
  }));
  const parts = (request.parts as Rec[]).map((p): PartRow => ({
    l: Number(p.l), w: Number(p.w), t: p.t === undefined ? undefined : Number(p.t), q: Number(p.q ?? 1),
    material: text(p.material), stockLock: p.stockLock?.map(String),
  }));
  return { kerf: Number(request.saw?.bladeWidth ?? 0), stock, parts };
}

function compatible(p: PartRow, s: StockRow): boolean {
  if (p.material !== s.material) return false;
  if (p.stockLock?.length && !p.stockLock.includes(s.id)) return false;
  if (p.t !== undefined && s.t !== undefined && Math.abs(p.t - s.t) > TOL) return false;
  return Math.abs(p.w - s.w) <= TOL;
}

export function validateLinear(request: unknown, result: unknown): string[] {
  const errors: string[] = [];
  const req = readRequest(request as Rec);
  const res = result as Rec;
  const kerf = req.kerf;

  const entries = new Map<string, Rec>();
  for (const s of res.stock as Rec[]) {
    if (s.type !== 'linear') errors.push(`stock ${s.id}: type ${s.type}, expected linear`);
    entries.set(String(s.id), s);
  }
  const rowOf = (id: string) => Number(id.split('.')[0]);

  // Stock quantities.
  const usedPerRow = new Map<number, number>();
  for (const s of entries.values()) if (s.used) usedPerRow.set(rowOf(s.id), (usedPerRow.get(rowOf(s.id)) ?? 0) + Number(s.stack));
  for (const [row, n] of usedPerRow) {
    const q = req.stock[row]?.q;
    if (q !== undefined && n > q) errors.push(`stock row ${row}: ${n} bars used, only ${q} available`);
  }

  // Every piece listed once; placed pieces grouped per entry and position.
  const expected = req.parts.reduce((n, p) => n + p.q, 0);
  if ((res.parts as Rec[]).length !== expected) errors.push(`${(res.parts as Rec[]).length} pieces listed, ${expected} requested`);
  const placedPerRow = req.parts.map(() => 0);
  const byEntry = new Map<string, Map<string, { row: number; x: number; count: number }>>();
  for (const p of res.parts as Rec[]) {
    const row = rowOf(String(p.id));
    const part = req.parts[row];
    if (!part) {
      errors.push(`piece ${p.id}: no such part row`);
      continue;
    }
    if (!p.added) continue;
    placedPerRow[row]++;
    const entry = entries.get(String(p.stock?.id));
    if (!entry) {
      errors.push(`piece ${p.id}: on unknown stock ${p.stock?.id}`);
      continue;
    }
    const s = req.stock[rowOf(entry.id)];
    if (!compatible(part, s)) errors.push(`piece ${p.id}: part row ${row} cannot be cut from stock row ${rowOf(entry.id)} (material, width, thickness or lock)`);
    if (p.y !== 0 || p.rot !== 0) errors.push(`piece ${p.id}: y ${p.y}, rot ${p.rot}; expected 0, 0`);
    const x = Number(p.x);
    if (x < s.l1 - TOL || x + part.l > s.l - s.l2 + TOL) errors.push(`piece ${p.id}: [${x}, ${x + part.l}] outside the usable length [${s.l1}, ${s.l - s.l2}]`);
    const positions = byEntry.get(entry.id) ?? new Map();
    byEntry.set(entry.id, positions);
    const key = `${row}@${x}`;
    const at = positions.get(key) ?? { row, x, count: 0 };
    at.count++;
    positions.set(key, at);
  }

  const cutsBy = new Map<string, Rec[]>();
  for (const c of res.cuts as Rec[]) {
    const id = String(c.stock?.id);
    if (!cutsBy.has(id)) cutsBy.set(id, []);
    cutsBy.get(id)!.push(c);
  }

  for (const entry of entries.values()) {
    const s = req.stock[rowOf(entry.id)];
    if (!s) {
      errors.push(`stock ${entry.id}: no such stock row`);
      continue;
    }
    const stack = Number(entry.stack);
    const pieces = [...(byEntry.get(entry.id)?.values() ?? [])].sort((a, b) => a.x - b.x);
    if (!entry.used) {
      if (pieces.length) errors.push(`stock ${entry.id}: unused but holds pieces`);
      continue;
    }
    for (const p of pieces) if (p.count !== stack) errors.push(`stock ${entry.id}: piece of row ${p.row} at ${p.x} appears ${p.count} times, stack is ${stack}`);
    const usable = s.l - s.l1 - s.l2;
    const sum = pieces.reduce((n, p) => n + req.parts[p.row].l, 0);
    if (pieces.length && sum + (pieces.length - 1) * kerf > usable + TOL) errors.push(`stock ${entry.id}: lengths ${sum} plus ${pieces.length - 1} kerfs exceed the usable length ${usable}`);
    for (let k = 1; k < pieces.length; k++) {
      const prev = pieces[k - 1];
      if (pieces[k].x < prev.x + req.parts[prev.row].l + kerf - TOL) errors.push(`stock ${entry.id}: pieces at ${prev.x} and ${pieces[k].x} closer than one kerf`);
    }
    // Cuts: across the bar, trims first, one after every piece not ending at the usable end.
    const cuts = (cutsBy.get(entry.id) ?? []).slice().sort((a, b) => a.order - b.order);
    cuts.forEach((c, i) => {
      if (c.order !== i + 1) errors.push(`stock ${entry.id}: cut orders are not 1..n`);
      if (c.dimension !== 'w' || Math.abs(c.x1 - c.position) > TOL || Math.abs(c.x2 - c.position) > TOL || c.y1 !== 0 || Math.abs(c.y2 - s.w) > TOL) {
        errors.push(`stock ${entry.id}: cut ${c.order} does not run across the bar at its position`);
      }
    });
    const firstCut = cuts.findIndex((c) => !c.isTrim);
    if (firstCut >= 0 && cuts.slice(firstCut).some((c) => c.isTrim)) errors.push(`stock ${entry.id}: a trim cut comes after a part cut`);
    const cutAt = cuts.filter((c) => !c.isTrim).map((c) => Number(c.position));
    for (const p of pieces) {
      const end = p.x + req.parts[p.row].l;
      if (end < s.l - s.l2 - TOL && !cutAt.some((c) => Math.abs(c - end) <= TOL)) errors.push(`stock ${entry.id}: no cut at the end of the piece at ${p.x} (${end})`);
    }
    if (s.l1 > TOL && !cuts.some((c) => c.isTrim && Math.abs(c.position - s.l1) <= TOL)) errors.push(`stock ${entry.id}: start trim cut missing`);
    if (s.l2 > TOL && !cuts.some((c) => c.isTrim && Math.abs(c.position - (s.l - s.l2)) <= TOL)) errors.push(`stock ${entry.id}: end trim cut missing`);
  }

  // Offcuts: after the last piece and its kerf, within the usable length.
  for (const o of res.offcuts as Rec[]) {
    const entry = entries.get(String(o.stock?.id));
    if (!entry) {
      errors.push(`offcut ${o.id}: unknown stock`);
      continue;
    }
    const s = req.stock[rowOf(entry.id)];
    const pieces = [...(byEntry.get(entry.id)?.values() ?? [])];
    const lastEnd = Math.max(s.l1, ...pieces.map((p) => p.x + req.parts[p.row].l + kerf));
    if (o.x < lastEnd - TOL || o.x + o.l > s.l - s.l2 + TOL) errors.push(`offcut ${o.id}: [${o.x}, ${o.x + o.l}] overlaps a piece or leaves the usable length`);
    if (o.q !== entry.stack) errors.push(`offcut ${o.id}: q ${o.q}, stack ${entry.stack}`);
  }

  // Unplaced pieces are explained.
  req.parts.forEach((p, row) => {
    const missing = p.q - placedPerRow[row];
    const u = (res.unusableParts as Rec[]).find((x) => String(x.id) === String(row));
    if (missing > 0 && (!u || u.q !== missing || !u.issues?.[0]?.message)) errors.push(`part row ${row}: ${missing} not placed and not explained`);
    if (missing === 0 && u) errors.push(`part row ${row}: all placed but listed as unusable`);
  });

  // Totals and the optimality claim.
  const m = res.metadata as Rec;
  const bars = [...entries.values()].reduce((n, e) => n + (e.used ? Number(e.stack) : 0), 0);
  if (m.totalUsedStock !== bars) errors.push(`metadata.totalUsedStock ${m.totalUsedStock}, bars ${bars}`);
  const byCost = req.stock.some((s) => s.cost > 0);
  const counted = [...entries.values()].filter((e) => e.used && !req.stock[rowOf(e.id)].offcut);
  const cost = counted.reduce((n, e) => n + Number(e.stack) * req.stock[rowOf(e.id)].cost, 0);
  const objective = byCost ? cost : counted.reduce((n, e) => n + Number(e.stack), 0);
  if (m.lowerBound > objective + TOL && (res.unusableParts as Rec[]).length === 0) errors.push(`lower bound ${m.lowerBound} above the plan's ${objective}`);
  if (m.optimal === true) {
    if ((res.unusableParts as Rec[]).length) errors.push('optimal claimed with unplaced pieces');
    if (Math.abs(objective - m.lowerBound) > TOL * Math.max(1, objective) && !(byCost && objective - m.lowerBound < 1)) {
      errors.push(`optimal claimed but the plan's ${objective} differs from the lower bound ${m.lowerBound}`);
    }
  }
  return errors;
}
