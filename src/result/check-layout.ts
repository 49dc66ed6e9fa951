// The service's own check of a result before it is stored: written apart from the engines and
// the record builders (it reads only the canonical request and the finished record), so a bug
// in either cannot pass unseen. It checks what a client relies on:
// - every requested part instance is either placed on a used stock entry or counted in
//   unusableParts (never both, never neither);
// - every placed part lies inside its stock less the trims (a bar: between its end trims);
// - no two parts on one entry overlap or come closer than the kerf (the larger of blade and
//   minSpacing on a CNC router; nesting: its parts' bounding boxes stay inside the stock);
// - no saw cut runs through a part, and every cut lies on its stock;
// - no stock row is used more often than its quantity.
// A layout that fails is never delivered: the job fails as an internal error.
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';

/** At most this many violations are listed: one is enough to refuse the layout. */
const MAX_VIOLATIONS = 20;

interface Box { x0: number; y0: number; x1: number; y1: number; id: string }

export function checkLayout(request: CalcRequest, record: ResultRecord): string[] {
  const problems: string[] = [];
  const report = (message: string) => {
    if (problems.length < MAX_VIOLATIONS) problems.push(message);
  };
  const { stockType, cutType } = request.saw;
  const linear = stockType === 'linear';
  const nesting = !linear && cutType === 'nesting';
  const free = !linear && (cutType === 'efficiency' || nesting);
  const gap = !linear && cutType === 'efficiency' ? Math.max(request.saw.bladeWidth, request.saw.options.minSpacing) : request.saw.bladeWidth;
  const tol = tolerance(request, nesting);

  // Instances: placed + unusable = requested, per part row.
  const placedPerRow = new Map<number, number>();
  for (const p of record.parts) {
    if (!p.added) continue;
    const row = Number(p.id.split('.')[0]);
    placedPerRow.set(row, (placedPerRow.get(row) ?? 0) + 1);
  }
  const unusablePerRow = new Map<number, number>();
  for (const u of record.unusableParts) unusablePerRow.set(Number(u.id), (unusablePerRow.get(Number(u.id)) ?? 0) + u.q);
  for (const part of request.parts) {
    const placed = placedPerRow.get(part.index) ?? 0;
    const unusable = unusablePerRow.get(part.index) ?? 0;
    if (placed + unusable !== part.q) report(`part row ${part.index}: ${placed} placed + ${unusable} unusable, ${part.q} requested`);
  }

  // Stock entries and quantities.
  const entries = new Map(record.stock.map((s) => [s.id, s]));
  const usedPerRow = new Map<number, number>();
  for (const s of record.stock) {
    if (!s.used) continue;
    const row = Number(s.id.split('.')[0]);
    usedPerRow.set(row, (usedPerRow.get(row) ?? 0) + s.stack);
  }
  if (stockType !== 'roll') {
    for (const s of request.stock) {
      const used = usedPerRow.get(s.index) ?? 0;
      if (s.q !== undefined && used > s.q) report(`stock row ${s.index}: ${used} used, ${s.q} available`);
    }
  }

  // Placed parts: on a used entry, inside it less the trims. An entry stands for `stack`
  // identical sheets (bars), so one position holds up to `stack` instances.
  const boxesPerEntry = new Map<string, Box[]>();
  const copiesAt = new Map<string, number>();
  const requestPart = (id: string) => request.parts[Number(id.split('.')[0])];
  for (const p of record.parts) {
    if (!p.added) continue;
    const entry = p.stock ? entries.get(p.stock.id) : undefined;
    const source = requestPart(p.id);
    if (!entry || !entry.used || !source || p.x === null || p.y === null) {
      report(`part ${p.id}: placed without a used stock entry or position`);
      continue;
    }
    const box = nesting ? outlineBox(p) : rectangle(p.x, p.y, p.rot === 1 ? source.w : source.l, p.rot === 1 ? source.l : source.w, linear);
    if (!box) {
      report(`part ${p.id}: placed without an outline`);
      continue;
    }
    box.id = p.id;
    // True shapes share a position only when their outlines coincide: two triangles may
    // interlock within one bounding box.
    const at = nesting ? `${entry.id}|${p.placedOutline!.map((q) => `${q.x},${q.y}`).join(';')}` : `${entry.id}|${box.x0}|${box.y0}|${box.x1}|${box.y1}`;
    const copies = (copiesAt.get(at) ?? 0) + 1;
    copiesAt.set(at, copies);
    if (copies > entry.stack) report(`part ${p.id}: ${copies} parts at one position of stock ${entry.id}, which stands for ${entry.stack} sheets`);
    if (copies > 1) continue;
    const t = entry.trim;
    const [x0, x1, y0, y1] = linear ? [t.l1, entry.l - t.l2, -tol, tol] : [t.w1, entry.l - t.w2, t.l1, entry.w - t.l2];
    if (box.x0 < x0 - tol || box.x1 > x1 + tol || box.y0 < y0 - tol || box.y1 > y1 + tol) {
      report(`part ${p.id}: [${box.x0}, ${box.x1}] x [${box.y0}, ${box.y1}] leaves the usable area [${x0}, ${x1}] x [${y0}, ${y1}] of stock ${entry.id}`);
    }
    const list = boxesPerEntry.get(entry.id) ?? [];
    list.push(box);
    boxesPerEntry.set(entry.id, list);
  }

  // Rectangles (sheets, rolls, bars) keep one kerf apart; true shapes are checked by the nesting engine's own geometry.
  if (!nesting) for (const [id, boxes] of boxesPerEntry) checkSpacing(id, boxes, gap, tol, report);

  // Saw cuts: on their stock, through no part.
  if (!free && !linear) {
    const cutsPerEntry = new Map<string, ResultRecord['cuts']>();
    for (const c of record.cuts) {
      const list = cutsPerEntry.get(c.stock.id) ?? [];
      list.push(c);
      cutsPerEntry.set(c.stock.id, list);
    }
    for (const [id, cuts] of cutsPerEntry) {
      const entry = entries.get(id);
      if (!entry) {
        report(`cut on unknown stock ${id}`);
        continue;
      }
      checkCuts(entry, cuts, boxesPerEntry.get(id) ?? [], request.saw.bladeWidth, tol, report);
    }
  }
  return problems;
}

/** Absolute slack for the record's rounding (to the request's grid) and float noise; nesting computes in float32. */
function tolerance(request: CalcRequest, nesting: boolean): number {
  let scale = 1;
  for (const s of request.stock) scale = Math.max(scale, s.l, s.w);
  for (const p of request.parts) scale = Math.max(scale, p.l, p.w);
  return nesting ? 1e-3 + 1e-6 * scale : 1e-5 + 1e-9 * scale;
}

function rectangle(x: number, y: number, l: number, w: number, linear: boolean): Box {
  return { x0: x, y0: y, x1: x + l, y1: linear ? y : y + w, id: '' };
}

function outlineBox(p: ResultRecord['parts'][number]): Box | undefined {
  const ring = p.placedOutline;
  if (!ring?.length) return undefined;
  const xs = ring.map((q) => q.x);
  const ys = ring.map((q) => q.y);
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), id: '' };
}

/** Every pair of parts apart by the gap along x or along y: a sweep over x. */
function checkSpacing(entry: string, boxes: Box[], gap: number, tol: number, report: (m: string) => void): void {
  const sorted = [...boxes].sort((a, b) => a.x0 - b.x0);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j]!;
      if (b.x0 >= a.x1 + gap - tol) break;
      const apartY = b.y0 >= a.y1 + gap - tol || a.y0 >= b.y1 + gap - tol;
      // Zero-height boxes are bar pieces: apart along x is all that counts.
      if (!apartY || (a.y0 === a.y1 && b.y0 === b.y1)) report(`parts ${a.id} and ${b.id} on stock ${entry} overlap or are closer than the kerf ${gap}`);
    }
  }
}

/** A cut's kerf (position to position + blade, between its ends) crosses no part, and the cut lies on the stock. */
function checkCuts(entry: ResultRecord['stock'][number], cuts: ResultRecord['cuts'], boxes: Box[], blade: number, tol: number, report: (m: string) => void): void {
  const byX = [...boxes].sort((a, b) => a.x0 - b.x0);
  const byY = [...boxes].sort((a, b) => a.y0 - b.y0);
  const tallest = boxes.reduce((m, b) => Math.max(m, b.y1 - b.y0), 0);
  const widest = boxes.reduce((m, b) => Math.max(m, b.x1 - b.x0), 0);
  for (const c of cuts) {
    const lo = Math.min(c.x1, c.x2);
    const hi = Math.max(c.x1, c.x2);
    const ylo = Math.min(c.y1, c.y2);
    const yhi = Math.max(c.y1, c.y2);
    if (lo < -tol || ylo < -tol || hi > entry.l + tol || yhi > entry.w + tol) {
      report(`cut ${c.order} on stock ${entry.id} runs off the stock`);
      continue;
    }
    if (c.isTrim) continue;
    // An l cut runs along x at y = position; a w cut along y at x = position.
    const along = c.dimension === 'l';
    const sorted = along ? byY : byX;
    const start = (b: Box) => (along ? b.y0 : b.x0);
    const [k0, k1] = [c.position, c.position + blade];
    // Parts that can reach the kerf start at most their longest extent across it before it.
    let i = lowerBound(sorted, k0 - (along ? tallest : widest) - tol, start);
    for (; i < sorted.length && start(sorted[i]!) < k1 - tol; i++) {
      const b = sorted[i]!;
      const [p0, p1] = along ? [b.y0, b.y1] : [b.x0, b.x1];
      const [s0, s1] = along ? [b.x0, b.x1] : [b.y0, b.y1];
      const crossesKerf = p0 < Math.max(k1, k0 + tol) - tol && p1 > k0 + tol;
      const withinCut = s0 < (along ? hi : yhi) - tol && s1 > (along ? lo : ylo) + tol;
      if (crossesKerf && withinCut) report(`cut ${c.order} on stock ${entry.id} at ${c.position} runs through part ${b.id}`);
    }
  }
}

function lowerBound(sorted: Box[], value: number, key: (b: Box) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
