// Where a part's label goes: the point of its shape farthest from every edge, hole and drill
// (the pole of inaccessibility), found by refining square cells best-first; then the largest
// text box of the label's proportions, centred there, that stays clear of all of them. For an
// L shape or a frame that is in the widest arm, never in the notch or the hole.
import type { Pt } from './model.js';

export interface Circle { x: number; y: number; r: number }

export interface Region {
  outline: Pt[];
  holes: Pt[][];
  /** Drilled holes and other marks the label must not cover. */
  circles: Circle[];
}

function segmentDistance(p: Pt, a: Pt, b: Pt): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const len = dx * dx + dy * dy;
  const t = len > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

function inRing(p: Pt, ring: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i], b = ring[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Distance to the nearest edge, hole or circle; negative outside the material. */
export function clearance(p: Pt, region: Region): number {
  let d = Infinity;
  for (const ring of [region.outline, ...region.holes]) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) d = Math.min(d, segmentDistance(p, ring[j], ring[i]));
  }
  for (const c of region.circles) d = Math.min(d, Math.hypot(p.x - c.x, p.y - c.y) - c.r);
  const inside = inRing(p, region.outline) && !region.holes.some((h) => inRing(p, h)) && !region.circles.some((c) => Math.hypot(p.x - c.x, p.y - c.y) < c.r);
  return inside ? d : -Math.abs(d);
}

interface Cell { x: number; y: number; h: number; d: number; max: number }

/** The pole of inaccessibility and its clearance, to `precision`; work bounded by a cell budget. */
export function pole(region: Region, precision: number, budget = 4000): Circle {
  const xs = region.outline.map((p) => p.x), ys = region.outline.map((p) => p.y);
  const minX = Math.min(...xs), minY = Math.min(...ys), maxX = Math.max(...xs), maxY = Math.max(...ys);
  const size = Math.min(maxX - minX, maxY - minY);
  const centre = { x: (minX + maxX) / 2, y: (minY + maxY) / 2, r: 0 };
  if (!(size > 0)) return centre;
  const cell = (x: number, y: number, h: number): Cell => {
    const d = clearance({ x, y }, region);
    return { x, y, h, d, max: d + h * Math.SQRT2 };
  };
  const queue: Cell[] = [];
  const push = (c: Cell) => {
    // A binary heap on `max`, largest first.
    queue.push(c);
    for (let i = queue.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (queue[parent].max >= queue[i].max) break;
      [queue[parent], queue[i]] = [queue[i], queue[parent]];
      i = parent;
    }
  };
  const pop = (): Cell => {
    const top = queue[0], last = queue.pop()!;
    if (queue.length) {
      queue[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < queue.length && queue[l].max > queue[m].max) m = l;
        if (r < queue.length && queue[r].max > queue[m].max) m = r;
        if (m === i) break;
        [queue[m], queue[i]] = [queue[i], queue[m]];
        i = m;
      }
    }
    return top;
  };
  const h = size / 2;
  for (let x = minX; x < maxX; x += size) for (let y = minY; y < maxY; y += size) push(cell(x + h, y + h, h));
  // The box centre first: a symmetric shape keeps its label in the middle.
  let best = cell(centre.x, centre.y, 0);
  let spent = 0;
  while (queue.length && spent < budget) {
    const c = pop();
    spent++;
    if (c.d > best.d + 1e-9) best = c;
    if (c.max - best.d <= precision) continue;
    const q = c.h / 2;
    push(cell(c.x - q, c.y - q, q)); push(cell(c.x + q, c.y - q, q));
    push(cell(c.x - q, c.y + q, q)); push(cell(c.x + q, c.y + q, q));
  }
  return { x: best.x, y: best.y, r: Math.max(0, best.d) };
}

function segmentsCross(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const cross = (o: Pt, p: Pt, q: Pt) => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
  const d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  return ((d1 > 0) !== (d2 > 0)) && ((d3 > 0) !== (d4 > 0));
}

/** Whether the box (centre, half sizes) lies in the material, clear of holes and circles. */
export function boxClear(region: Region, x: number, y: number, hw: number, hh: number): boolean {
  const corners = [{ x: x - hw, y: y - hh }, { x: x + hw, y: y - hh }, { x: x + hw, y: y + hh }, { x: x - hw, y: y + hh }];
  if (!corners.every((p) => inRing(p, region.outline))) return false;
  for (const ring of [region.outline, ...region.holes]) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j], b = ring[i];
      if (a.x > x - hw && a.x < x + hw && a.y > y - hh && a.y < y + hh) return false;
      for (let k = 0; k < 4; k++) if (segmentsCross(a, b, corners[k], corners[(k + 1) % 4])) return false;
    }
  }
  if (region.holes.some((hole) => inRing({ x, y }, hole))) return false;
  for (const c of region.circles) {
    const nx = Math.max(x - hw, Math.min(c.x, x + hw)), ny = Math.max(y - hh, Math.min(c.y, y + hh));
    if (Math.hypot(c.x - nx, c.y - ny) < c.r) return false;
  }
  return true;
}

/**
 * The largest scale s at which a box of s * width by s * height, centred on `at`, is clear,
 * found by halving between the circle's inscribed box and the region's extent.
 */
export function fitScale(region: Region, at: Circle, width: number, height: number, limit: number): number {
  const inscribed = at.r / Math.hypot(width / 2, height / 2);
  let lo = Math.min(inscribed, limit), hi = limit;
  if (hi <= lo || boxClear(region, at.x, at.y, (hi * width) / 2, (hi * height) / 2)) return hi;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    if (boxClear(region, at.x, at.y, (mid * width) / 2, (mid * height) / 2)) lo = mid;
    else hi = mid;
  }
  return lo;
}
