// Independent checker for nested (true-shape) layouts: shares no code with src/. Given each
// placed part as rings in stock coordinates (outline first, then holes) and each sheet's
// usable region, it checks, up to a small tolerance:
//   - every outline vertex lies inside its region, at least `edge` from the region's border;
//   - no two parts on a sheet overlap: no proper edge crossing, no point of one in the
//     other's material (outline less holes, so a part inside another's hole is fine);
//   - with clearance, every edge of one part stays at least `gap` from every edge of the other.
// It also rebuilds the placed outline from the requested one (turn, mirror, x, y) so a
// record cannot claim a shape it did not place. A stock entry with stack n must list each of
// its placements exactly n times (the same place on each sheet of the stack).

export interface Pt { x: number; y: number }
export interface Region { x0: number; y0: number; x1: number; y1: number }
export interface PlacedShape { id: string; sheet: string; rings: Pt[][] }

function segPointDist(p: Pt, a: Pt, b: Pt): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

/** Signed distance of c from the line through a, b (left positive). */
function side(a: Pt, b: Pt, c: Pt): number {
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  return ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / len;
}

/** The segments cross each other's interior by more than tol (touching is not crossing). */
function properlyCross(a: Pt, b: Pt, c: Pt, d: Pt, tol: number): boolean {
  const d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d);
  return ((d1 > tol && d2 < -tol) || (d1 < -tol && d2 > tol)) && ((d3 > tol && d4 < -tol) || (d3 < -tol && d4 > tol));
}

function segDist(a: Pt, b: Pt, c: Pt, d: Pt): number {
  if (properlyCross(a, b, c, d, 0)) return 0;
  return Math.min(segPointDist(a, c, d), segPointDist(b, c, d), segPointDist(c, a, b), segPointDist(d, a, b));
}

function edges(rings: Pt[][]): [Pt, Pt][] {
  const out: [Pt, Pt][] = [];
  for (const ring of rings) for (let i = 0; i < ring.length; i++) out.push([ring[i], ring[(i + 1) % ring.length]]);
  return out;
}

/** Even-odd rule over all rings: inside the outline and outside every hole. */
export function inMaterial(p: Pt, rings: Pt[][]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i], b = ring[j];
      if ((a.y > p.y) !== (b.y > p.y) && p.x < b.x + ((p.y - b.y) * (a.x - b.x)) / (a.y - b.y)) inside = !inside;
    }
  }
  return inside;
}

function boundaryDist(p: Pt, rings: Pt[][]): number {
  let m = Infinity;
  for (const [a, b] of edges(rings)) m = Math.min(m, segPointDist(p, a, b));
  return m;
}

/** Points of a part's material: vertices, edge midpoints, and points just inside each edge. */
function probes(rings: Pt[][], tol: number): Pt[] {
  const out: Pt[] = [];
  for (const [a, b] of edges(rings)) {
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len === 0) continue;
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    out.push(a, mid);
    const step = Math.max(tol * 50, len * 1e-3);
    for (const s of [1, -1]) {
      const q = { x: mid.x - (s * (b.y - a.y) / len) * step, y: mid.y + (s * (b.x - a.x) / len) * step };
      if (inMaterial(q, rings)) out.push(q);
    }
  }
  return out;
}

function box(rings: Pt[][]) {
  const pts = rings[0];
  return {
    minX: Math.min(...pts.map((p) => p.x)), maxX: Math.max(...pts.map((p) => p.x)),
    minY: Math.min(...pts.map((p) => p.y)), maxY: Math.max(...pts.map((p) => p.y)),
  };
}

/** Problems found between two parts (empty: they are clear of each other by `gap`). */
export function pairProblems(a: PlacedShape, b: PlacedShape, gap: number, tol: number): string[] {
  const ba = box(a.rings), bb = box(b.rings);
  if (ba.minX >= bb.maxX + gap || bb.minX >= ba.maxX + gap || ba.minY >= bb.maxY + gap || bb.minY >= ba.maxY + gap) return [];
  const ea = edges(a.rings), eb = edges(b.rings);
  for (const [p, q] of ea) {
    for (const [r, s] of eb) {
      if (properlyCross(p, q, r, s, tol)) return [`${a.id} and ${b.id} overlap: edges cross`];
      if (gap > 0 && segDist(p, q, r, s) < gap - tol) return [`${a.id} and ${b.id} are ${segDist(p, q, r, s)} apart, less than the clearance ${gap}`];
    }
  }
  for (const [one, other] of [[a, b], [b, a]] as const) {
    for (const p of probes(one.rings, tol)) {
      if (inMaterial(p, other.rings) && boundaryDist(p, other.rings) > tol) return [`${a.id} and ${b.id} overlap: ${one.id} reaches into ${other.id}`];
    }
  }
  return [];
}

/** Every problem of a layout: region containment with edge clearance, and pairwise overlap/clearance. */
export function checkPlacements(parts: PlacedShape[], regions: Map<string, Region>, gap: number, edge: number, tol = 1e-6): string[] {
  const problems: string[] = [];
  for (const part of parts) {
    const r = regions.get(part.sheet);
    if (!r) {
      problems.push(`${part.id}: unknown sheet ${part.sheet}`);
      continue;
    }
    for (const p of part.rings[0]) {
      if (![p.x, p.y].every(Number.isFinite) || p.x < r.x0 + edge - tol || p.x > r.x1 - edge + tol || p.y < r.y0 + edge - tol || p.y > r.y1 - edge + tol) {
        problems.push(`${part.id}: vertex (${p.x}, ${p.y}) outside the usable region of ${part.sheet} less the edge clearance ${edge}`);
        break;
      }
    }
  }
  const bySheet = new Map<string, PlacedShape[]>();
  for (const p of parts) bySheet.set(p.sheet, [...(bySheet.get(p.sheet) ?? []), p]);
  for (const list of bySheet.values()) {
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) problems.push(...pairProblems(list[i], list[j], gap, tol));
  }
  return problems;
}

/**
 * The part's own rings (outline then holes, in its l x w frame) mirrored (x -> -x) when asked,
 * turned counter-clockwise by `rotation` degrees, and moved so that the turned frame rectangle
 * [0, l] x [0, w] (mirrored likewise) has its bounding box start at (x, y).
 */
export function placeRings(rings: Pt[][], l: number, w: number, rotation: number, mirrored: boolean, x: number, y: number): Pt[][] {
  const a = (rotation * Math.PI) / 180;
  const snap = (v: number) => (Math.abs(v) < 1e-12 ? 0 : Math.abs(Math.abs(v) - 1) < 1e-12 ? Math.sign(v) : v);
  const c = snap(Math.cos(a)), s = snap(Math.sin(a));
  const turn = (p: Pt) => {
    const px = mirrored ? -p.x : p.x;
    return { x: c * px - s * p.y, y: s * px + c * p.y };
  };
  const frame = [{ x: 0, y: 0 }, { x: l, y: 0 }, { x: l, y: w }, { x: 0, y: w }].map(turn);
  const minX = Math.min(...frame.map((p) => p.x)), minY = Math.min(...frame.map((p) => p.y));
  return rings.map((ring) => ring.map(turn).map((p) => ({ x: p.x - minX + x, y: p.y - minY + y })));
}

/** Largest distance between corresponding points of two ring lists (Infinity when shapes differ). */
export function ringsDistance(a: Pt[][], b: Pt[][]): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let r = 0; r < a.length; r++) {
    if (a[r].length !== b[r].length) return Infinity;
    for (let i = 0; i < a[r].length; i++) m = Math.max(m, Math.hypot(a[r][i].x - b[r][i].x, a[r][i].y - b[r][i].y));
  }
  return m;
}

/** Area of the material: |outline| less |holes|. */
export function materialArea(rings: Pt[][]): number {
  const ringArea = (ring: Pt[]) => Math.abs(ring.reduce((s, p, i) => {
    const q = ring[(i + 1) % ring.length];
    return s + p.x * q.y - q.x * p.y;
  }, 0)) / 2;
  return ringArea(rings[0]) - rings.slice(1).reduce((s, r) => s + ringArea(r), 0);
}

/** The part's own rings as requested: outline (closing point dropped) and holes, or its l x w rectangle. */
export function requestedRings(part: { l: number; w: number; outline?: Pt[]; holes?: Pt[][] }): Pt[][] {
  const clean = (ring: Pt[]) => {
    const out = ring.filter((p, i) => i === 0 || p.x !== ring[i - 1].x || p.y !== ring[i - 1].y);
    if (out.length > 1 && out[0].x === out[out.length - 1].x && out[0].y === out[out.length - 1].y) out.pop();
    return out;
  };
  if (!part.outline) return [[{ x: 0, y: 0 }, { x: part.l, y: 0 }, { x: part.l, y: part.w }, { x: 0, y: part.w }]];
  return [clean(part.outline), ...(part.holes ?? []).map(clean)];
}

/**
 * Every problem of a nesting result record against the request it answers: each placed
 * part's outline and holes are the requested ones turned, mirrored and moved as the record
 * says; parts stay in the usable region of their stock (trims removed, a roll up to the
 * length recorded) at least minSpacing from its edge and bladeWidth + minSpacing from each
 * other; every part is placed once or listed as unusable.
 */
export function validateNestingRecord(request: any, record: any, tol = 1e-6): string[] {
  const problems: string[] = [];
  const gap = (request.saw?.bladeWidth ?? 0) + (request.saw?.options?.minSpacing ?? 0);
  const edge = request.saw?.options?.minSpacing ?? 0;
  const regions = new Map<string, Region>();
  const stackOf = new Map<string, number>();
  let scale = 1;
  let sheets = 0;
  for (const s of record.stock) {
    if (!s.used) continue;
    const t = s.trim;
    regions.set(s.id, { x0: t.w1, y0: t.l1, x1: s.l - t.w2, y1: s.w - t.l2 });
    stackOf.set(s.id, s.stack);
    scale = Math.max(scale, s.l, s.w);
    if (!(Number.isInteger(s.stack) && s.stack >= 1)) problems.push(`${s.id}: used with stack ${s.stack}`);
    sheets += s.stack;
  }
  if (record.metadata && record.metadata.totalUsedStock !== sheets) problems.push(`metadata.totalUsedStock ${record.metadata.totalUsedStock}, the stacks add up to ${sheets}`);
  const placed: PlacedShape[] = [];
  const expected = request.parts.reduce((n: number, p: any) => n + (p.q ?? 1), 0);
  if (record.parts.length !== expected) problems.push(`record lists ${record.parts.length} parts, the request ${expected}`);
  for (const p of record.parts) {
    const row = Number(p.id.split('.')[0]);
    const part = request.parts[row];
    if (!p.added) {
      if (!record.unusableParts.some((u: any) => u.id === String(row))) problems.push(`${p.id} is neither placed nor listed as unusable`);
      continue;
    }
    const want = placeRings(requestedRings(part), part.l, part.w, p.rotation ?? 0, p.mirrored ?? false, p.x, p.y);
    const got = [p.placedOutline ?? [], ...(p.placedHoles ?? [])];
    const off = ringsDistance(want, got);
    if (!(off <= scale * 1e-6)) problems.push(`${p.id}: placed outline differs from the requested one turned by ${p.rotation} at (${p.x}, ${p.y}) (by ${off})`);
    placed.push({ id: p.id, sheet: p.stock.id, rings: got });
  }
  // A stack of n sheets lists each of its placements n times, the copies in the same place:
  // every distinct placement must come exactly n times; one copy of each is checked.
  const copies = new Map<string, { shape: PlacedShape; count: number }>();
  for (const shape of placed) {
    const key = `${shape.sheet}|${JSON.stringify(shape.rings)}`;
    const seen = copies.get(key);
    if (seen) seen.count++;
    else copies.set(key, { shape, count: 1 });
  }
  for (const { shape, count } of copies.values()) {
    const n = stackOf.get(shape.sheet) ?? 1;
    if (count !== n) problems.push(`${shape.id}: placed ${count} times on ${shape.sheet}, a stack of ${n}`);
  }
  const shapes = [...copies.values()].map((c) => c.shape);
  problems.push(...checkPlacements(shapes, regions, gap, edge, Math.max(tol, scale * 1e-7)));
  // Offcuts: inside their sheet's usable region, one per sheet of the stack, clear of every part
  // by the part clearance (checked as a rectangular part of its own), counted in the metadata.
  const minOffcut = request.saw?.options?.minOffcut ?? 0;
  for (const o of record.offcuts ?? []) {
    if (!regions.has(o.stock?.id)) {
      problems.push(`offcut ${o.id}: unknown sheet ${o.stock?.id}`);
      continue;
    }
    if (o.q !== stackOf.get(o.stock.id)) problems.push(`offcut ${o.id}: q ${o.q}, the sheet is a stack of ${stackOf.get(o.stock.id)}`);
    if (o.l < minOffcut || o.w < minOffcut) problems.push(`offcut ${o.id}: ${o.l} x ${o.w} is under minOffcut ${minOffcut}`);
    const rect = { id: `offcut ${o.id}`, sheet: o.stock.id, rings: [[{ x: o.x, y: o.y }, { x: o.x + o.l, y: o.y }, { x: o.x + o.l, y: o.y + o.w }, { x: o.x, y: o.y + o.w }]] };
    const t = Math.max(tol, scale * 1e-7);
    problems.push(...checkPlacements([rect], regions, gap, 0, t));
    for (const p of shapes) if (p.sheet === o.stock.id) problems.push(...pairProblems(p, rect, gap, t));
  }
  if (record.metadata && record.offcuts) {
    const count = record.offcuts.reduce((n: number, o: any) => n + o.q, 0);
    const area = record.offcuts.reduce((a: number, o: any) => a + o.l * o.w * o.q, 0);
    if (record.metadata.totalOffcuts !== count) problems.push(`metadata.totalOffcuts ${record.metadata.totalOffcuts}, the offcuts add up to ${count}`);
    if (Math.abs(record.metadata.totalOffcutsArea - area) > Math.max(1e-6, area * 1e-9)) problems.push(`metadata.totalOffcutsArea ${record.metadata.totalOffcutsArea}, the offcuts add up to ${area}`);
  }
  return problems;
}
