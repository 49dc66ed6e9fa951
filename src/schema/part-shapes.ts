// Part shapes for nesting: the outline and holes of a part in its own frame (x along l, y
// along w, origin bottom-left), checked before a job is accepted. An outline must be a simple
// polygon of non-zero area inside the part's l x w frame; each hole a simple polygon inside
// the outline, clear of the other holes. Winding does not matter (the engine uses the
// even-odd rule). A part without outline is its l x w rectangle.
import type { RequestIssue } from './request-rules.js';

export interface Pt { x: number; y: number }

/** Most points one ring may have: the simplicity check is quadratic. */
export const MAX_RING_POINTS = 2000;

/** The ring without a repeated closing point and without consecutive duplicates. */
export function cleanRing(points: Pt[]): Pt[] {
  const out: Pt[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || last.x !== p.x || last.y !== p.y) out.push({ x: p.x, y: p.y });
  }
  while (out.length > 1 && out[0].x === out[out.length - 1].x && out[0].y === out[out.length - 1].y) out.pop();
  return out;
}

export function signedArea(ring: Pt[]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) s += ring[j].x * ring[i].y - ring[i].x * ring[j].y;
  return s / 2;
}

function orient(a: Pt, b: Pt, c: Pt): number {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

function onSegment(a: Pt, b: Pt, p: Pt): boolean {
  return Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y);
}

/** Closed segments share a point. */
function segmentsMeet(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && onSegment(c, d, a)) || (d2 === 0 && onSegment(c, d, b)) || (d3 === 0 && onSegment(a, b, c)) || (d4 === 0 && onSegment(a, b, d));
}

/** A ring whose non-adjacent edges never meet and whose adjacent edges only share their corner. */
export function isSimple(ring: Pt[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[i], b = ring[(i + 1) % n];
    for (let j = i + 1; j < n; j++) {
      const c = ring[j], d = ring[(j + 1) % n];
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      if (adjacent) {
        // Adjacent edges folding back onto each other overlap along a stretch.
        const shared = j === i + 1 ? b : a;
        const other1 = j === i + 1 ? a : b;
        const other2 = j === i + 1 ? d : c;
        if (orient(shared, other1, other2) === 0 && (other1.x - shared.x) * (other2.x - shared.x) + (other1.y - shared.y) * (other2.y - shared.y) > 0) return false;
        continue;
      }
      if (segmentsMeet(a, b, c, d)) return false;
    }
  }
  return true;
}

export function pointInRing(p: Pt, ring: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i], b = ring[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < b.x + ((p.y - b.y) * (a.x - b.x)) / (a.y - b.y)) inside = !inside;
  }
  return inside;
}

function ringsMeet(r: Pt[], s: Pt[]): boolean {
  for (let i = 0; i < r.length; i++) {
    for (let j = 0; j < s.length; j++) if (segmentsMeet(r[i], r[(i + 1) % r.length], s[j], s[(j + 1) % s.length])) return true;
  }
  return false;
}

/** Every point within tol of the line through the first point and the point furthest from it. */
function collinear(ring: Pt[], tol: number): boolean {
  const a = ring[0];
  let b = a;
  for (const p of ring) if (Math.hypot(p.x - a.x, p.y - a.y) > Math.hypot(b.x - a.x, b.y - a.y)) b = p;
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  if (len <= tol) return true;
  return ring.every((p) => Math.abs(orient(a, b, p)) / len <= tol);
}

/** The part's rings (outline first, then holes), cleaned; its l x w rectangle when it has no outline. */
export function partRings(part: { l: number; w: number; outline?: Pt[]; holes?: Pt[][] }): Pt[][] {
  if (!part.outline) return [[{ x: 0, y: 0 }, { x: part.l, y: 0 }, { x: part.l, y: part.w }, { x: 0, y: part.w }]];
  return [cleanRing(part.outline), ...(part.holes ?? []).map(cleanRing)];
}

/** Problems with the outline and holes of each part; paths name the field. */
export function shapeIssues(parts: { l: number; w: number; outline?: Pt[]; holes?: Pt[][] }[]): RequestIssue[] {
  const issues: RequestIssue[] = [];
  parts.forEach((part, index) => {
    if (!part.outline) {
      if (part.holes?.length) issues.push({ path: ['parts', index, 'holes'], message: 'holes need an outline' });
      return;
    }
    const outline = cleanRing(part.outline);
    const at = (field: string, ...rest: (string | number)[]) => ['parts', index, field, ...rest];
    if (outline.length < 3) return issues.push({ path: at('outline'), message: 'an outline needs at least 3 distinct points' });
    if (outline.length > MAX_RING_POINTS) return issues.push({ path: at('outline'), message: `an outline may have at most ${MAX_RING_POINTS} points` });
    const size = Math.max(part.l, part.w);
    const tol = size * 1e-6;
    const outside = outline.findIndex((p) => p.x < -tol || p.y < -tol || p.x > part.l + tol || p.y > part.w + tol);
    if (outside >= 0) {
      const p = outline[outside];
      return issues.push({ path: at('outline', outside), message: `point (${p.x}, ${p.y}) lies outside the part's frame [0, l] x [0, w] = [0, ${part.l}] x [0, ${part.w}]` });
    }
    // All points on one line: no area at all. Otherwise a crossing is named as such (a bow tie's halves cancel out to no area too).
    if (collinear(outline, tol)) return issues.push({ path: at('outline'), message: 'the outline is degenerate (no area)' });
    if (!isSimple(outline)) return issues.push({ path: at('outline'), message: 'the outline intersects itself; it must be a simple polygon' });
    if (Math.abs(signedArea(outline)) <= part.l * part.w * 1e-9) return issues.push({ path: at('outline'), message: 'the outline is degenerate (no area)' });
    const holes = (part.holes ?? []).map(cleanRing);
    holes.forEach((hole, h) => {
      if (hole.length < 3) return issues.push({ path: at('holes', h), message: 'a hole needs at least 3 distinct points' });
      if (hole.length > MAX_RING_POINTS) return issues.push({ path: at('holes', h), message: `a hole may have at most ${MAX_RING_POINTS} points` });
      if (Math.abs(signedArea(hole)) <= part.l * part.w * 1e-12) return issues.push({ path: at('holes', h), message: 'the hole is degenerate (no area)' });
      if (!isSimple(hole)) return issues.push({ path: at('holes', h), message: 'the hole intersects itself; it must be a simple polygon' });
      if (ringsMeet(hole, outline) || !hole.every((p) => pointInRing(p, outline))) {
        return issues.push({ path: at('holes', h), message: 'the hole is not inside the outline' });
      }
      for (let k = 0; k < h; k++) {
        const other = holes[k];
        if (other.length < 3) continue;
        if (ringsMeet(hole, other) || pointInRing(hole[0], other) || pointInRing(other[0], hole)) {
          return issues.push({ path: at('holes', h), message: `the hole overlaps hole ${k}` });
        }
      }
      return undefined;
    });
    return undefined;
  });
  return issues;
}
