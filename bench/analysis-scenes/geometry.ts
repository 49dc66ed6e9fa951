// Closed, outward-oriented triangle meshes for the scene generator: drilled panels on a grid
// without T-junctions (so a soup of them welds into closed solids), cylinders, boxes and
// extruded profiles. Every function works in the part's own frame (mm); the scene places it.

export type V3 = [number, number, number];
/** 9 numbers per triangle, in the solid's local frame. */
export type Tris = number[];

/** Appends a triangle with the winding that makes its normal point along `out`. */
export function tri(into: Tris, a: V3, b: V3, c: V3, out: V3): void {
  const ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2], vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  if (nx * out[0] + ny * out[1] + nz * out[2] >= 0) into.push(...a, ...b, ...c);
  else into.push(...a, ...c, ...b);
}

export function quad(into: Tris, a: V3, b: V3, c: V3, d: V3, out: V3): void {
  tri(into, a, b, c, out);
  tri(into, a, c, d, out);
}

export const SEGMENTS = 32;

export function circle(cx: number, cy: number, r: number, n = SEGMENTS): [number, number][] {
  return Array.from({ length: n }, (_, k) => [cx + r * Math.cos((2 * Math.PI * k) / n), cy + r * Math.sin((2 * Math.PI * k) / n)] as [number, number]);
}

/**
 * Triangles between a convex outer ring and a circle inside it: each circle edge goes to the
 * outer point nearest to it in angle, each outer edge to the circle point where its two ends'
 * shares meet, so every triangle is seen from both of its sides (no folds).
 */
export function annulus(outer: [number, number][], ring: [number, number][], cx: number, cy: number): [number, number][][] {
  const angle = (p: [number, number]) => {
    const a = Math.atan2(p[1] - cy, p[0] - cx);
    return a < 0 ? a + 2 * Math.PI : a;
  };
  const o = [...outer].sort((p, q) => angle(p) - angle(q)), c = [...ring].sort((p, q) => angle(p) - angle(q));
  const ao = o.map(angle);
  const gap = (a: number, b: number) => { const d = Math.abs(a - b) % (2 * Math.PI); return Math.min(d, 2 * Math.PI - d); };
  const owner = (a: number) => { let best = 0; for (let i = 1; i < o.length; i++) if (gap(a, ao[i]) < gap(a, ao[best])) best = i; return best; };
  const n = c.length;
  const edgeOwner = c.map((p, k) => {
    const q = c[(k + 1) % n];
    let mid = (angle(p) + angle(q)) / 2;
    if (k === n - 1) mid = (angle(p) + angle(q) + 2 * Math.PI) / 2;
    return owner(mid);
  });
  const out: [number, number][][] = [];
  for (let k = 0; k < n; k++) out.push([o[edgeOwner[k]], c[k], c[(k + 1) % n]]);
  for (let k = 0; k < n; k++) {
    // Outer edges from the owner of the edge before circle point k to the owner of the edge after it.
    for (let i = edgeOwner[(k + n - 1) % n]; i !== edgeOwner[k]; i = (i + 1) % o.length) out.push([o[i], o[(i + 1) % o.length], c[k]]);
  }
  return out;
}

export interface FaceHole { x: number; y: number; d: number; side: 'top' | 'bottom'; /** null: through */ depth: number | null }
/** edge 0: y = 0, 1: y = w, 2: x = 0, 3: x = l; `at` along the edge, `z` across the thickness. */
export interface EdgeBore { edge: 0 | 1 | 2 | 3; at: number; z: number; d: number; depth: number }
export interface Rect { x0: number; y0: number; x1: number; y1: number }

export interface PanelDesign {
  l: number; w: number; t: number;
  holes: FaceHole[];
  edgeBores: EdgeBore[];
  cutouts: Rect[];
  /** A rectangle taken off the (l, w) corner: an L-shaped part. */
  notch?: Rect;
}

export const CELL_MARGIN = 2;

const uniq = (v: number[]) => [...new Set(v.map((x) => Math.round(x * 1e6) / 1e6))].sort((a, b) => a - b);

/** A closed solid of the panel, x along l, y along w, z through t, with every hole and bore. */
export function panelMesh(p: PanelDesign): Tris {
  const out: Tris = [];
  const cell = (h: { d: number }) => h.d / 2 + CELL_MARGIN;
  const xs = uniq([0, p.l, ...p.holes.flatMap((h) => [h.x - cell(h), h.x + cell(h)]),
    ...p.cutouts.flatMap((c) => [c.x0, c.x1]), ...(p.notch ? [p.notch.x0, p.notch.x1] : []),
    ...p.edgeBores.filter((b) => b.edge < 2).flatMap((b) => [b.at - cell(b), b.at + cell(b)])]);
  const ys = uniq([0, p.w, ...p.holes.flatMap((h) => [h.y - cell(h), h.y + cell(h)]),
    ...p.cutouts.flatMap((c) => [c.y0, c.y1]), ...(p.notch ? [p.notch.y0, p.notch.y1] : []),
    ...p.edgeBores.filter((b) => b.edge >= 2).flatMap((b) => [b.at - cell(b), b.at + cell(b)])]);
  const zs = uniq([0, p.t, ...p.edgeBores.flatMap((b) => [b.z - cell(b), b.z + cell(b)])]);
  const inside = (x: number, y: number, r: Rect) => x > r.x0 && x < r.x1 && y > r.y0 && y < r.y1;
  const solid = (i: number, j: number) => {
    if (i < 0 || j < 0 || i >= xs.length - 1 || j >= ys.length - 1) return false;
    const x = (xs[i] + xs[i + 1]) / 2, y = (ys[j] + ys[j + 1]) / 2;
    return !p.cutouts.some((c) => inside(x, y, c)) && !(p.notch && inside(x, y, p.notch));
  };
  const holeAt = (i: number, j: number, side: 'top' | 'bottom') => {
    const x = (xs[i] + xs[i + 1]) / 2, y = (ys[j] + ys[j + 1]) / 2;
    return p.holes.find((h) => (h.depth === null || h.side === side) && Math.abs(x - h.x) < cell(h) && Math.abs(y - h.y) < cell(h));
  };
  // Top and bottom faces: plain cells, then one annulus per hole block.
  for (const [z, side, n] of [[p.t, 'top', 1], [0, 'bottom', -1]] as const) {
    for (let i = 0; i < xs.length - 1; i++) for (let j = 0; j < ys.length - 1; j++) {
      if (!solid(i, j) || holeAt(i, j, side)) continue;
      quad(out, [xs[i], ys[j], z], [xs[i + 1], ys[j], z], [xs[i + 1], ys[j + 1], z], [xs[i], ys[j + 1], z], [0, 0, n]);
    }
    for (const h of p.holes) {
      if (h.depth !== null && h.side !== side) continue;
      const c = cell(h);
      const ring = blockRing(xs, ys, h.x - c, h.y - c, h.x + c, h.y + c);
      for (const [a, b, d] of annulus(ring, circle(h.x, h.y, h.d / 2), h.x, h.y)) tri(out, [a[0], a[1], z], [b[0], b[1], z], [d[0], d[1], z], [0, 0, n]);
    }
  }
  // Hole walls (normals towards the axis) and blind bottoms.
  for (const h of p.holes) {
    const ring = circle(h.x, h.y, h.d / 2);
    const [zTop, zBot] = h.depth === null ? [p.t, 0] : h.side === 'top' ? [p.t, p.t - h.depth] : [h.depth, 0];
    wall(out, ring, h.x, h.y, (u, v, s) => [u, v, s === 0 ? zBot : zTop]);
    if (h.depth !== null) {
      const zb = h.side === 'top' ? zBot : zTop;
      for (let k = 0; k < ring.length; k++) {
        const a = ring[k], b = ring[(k + 1) % ring.length];
        tri(out, [h.x, h.y, zb], [a[0], a[1], zb], [b[0], b[1], zb], [0, 0, h.side === 'top' ? 1 : -1]);
      }
    }
  }
  // Side walls: every grid segment between a solid cell and empty space, one column of quads per z-interval.
  const boreOn = (edge: number, along: number, z: number) => p.edgeBores.find((b) => b.edge === edge && Math.abs(along - b.at) < cell(b) && Math.abs(z - b.z) < cell(b));
  for (let i = 0; i < xs.length - 1; i++) for (let j = 0; j <= ys.length - 1; j++) {
    const below = solid(i, j - 1), above = solid(i, j);
    if (below === above) continue;
    const y = ys[j], n: V3 = [0, above ? -1 : 1, 0];
    const edge = j === 0 ? 0 : j === ys.length - 1 ? 1 : -1;
    for (let k = 0; k < zs.length - 1; k++) {
      if (edge >= 0 && boreOn(edge, (xs[i] + xs[i + 1]) / 2, (zs[k] + zs[k + 1]) / 2)) continue;
      quad(out, [xs[i], y, zs[k]], [xs[i + 1], y, zs[k]], [xs[i + 1], y, zs[k + 1]], [xs[i], y, zs[k + 1]], n);
    }
  }
  for (let j = 0; j < ys.length - 1; j++) for (let i = 0; i <= xs.length - 1; i++) {
    const left = solid(i - 1, j), right = solid(i, j);
    if (left === right) continue;
    const x = xs[i], n: V3 = [right ? -1 : 1, 0, 0];
    const edge = i === 0 ? 2 : i === xs.length - 1 ? 3 : -1;
    for (let k = 0; k < zs.length - 1; k++) {
      if (edge >= 0 && boreOn(edge, (ys[j] + ys[j + 1]) / 2, (zs[k] + zs[k + 1]) / 2)) continue;
      quad(out, [x, ys[j], zs[k]], [x, ys[j + 1], zs[k]], [x, ys[j + 1], zs[k + 1]], [x, ys[j], zs[k + 1]], n);
    }
  }
  // Edge bores: annulus on the edge face, wall into the panel, bottom disc.
  for (const b of p.edgeBores) {
    const c = cell(b);
    const alongLines = b.edge < 2 ? xs : ys;
    const ring2 = blockRing(alongLines, zs, b.at - c, b.z - c, b.at + c, b.z + c);
    // (along, z, depth into the panel) -> panel coordinates, and the outward normal of the edge.
    const map = (u: number, z: number, into: number): V3 => b.edge === 0 ? [u, into, z] : b.edge === 1 ? [u, p.w - into, z] : b.edge === 2 ? [into, u, z] : [p.l - into, u, z];
    const n: V3 = b.edge === 0 ? [0, -1, 0] : b.edge === 1 ? [0, 1, 0] : b.edge === 2 ? [-1, 0, 0] : [1, 0, 0];
    for (const [a, q, d] of annulus(ring2, circle(b.at, b.z, b.d / 2), b.at, b.z)) tri(out, map(a[0], a[1], 0), map(q[0], q[1], 0), map(d[0], d[1], 0), n);
    const ring = circle(b.at, b.z, b.d / 2);
    wall(out, ring, b.at, b.z, (u, v, s) => map(u, v, s === 0 ? 0 : b.depth));
    for (let k = 0; k < ring.length; k++) {
      const a = ring[k], q = ring[(k + 1) % ring.length];
      // The bottom faces back out of the bore, like the edge face around it.
      tri(out, map(b.at, b.z, b.depth), map(a[0], a[1], b.depth), map(q[0], q[1], b.depth), n);
    }
  }
  return out;
}

/** The boundary of a grid block, every grid point on it included. */
function blockRing(us: number[], vs: number[], u0: number, v0: number, u1: number, v1: number): [number, number][] {
  const eps = 1e-6;
  const su = us.filter((u) => u >= u0 - eps && u <= u1 + eps), sv = vs.filter((v) => v >= v0 - eps && v <= v1 + eps);
  const pts: [number, number][] = [];
  for (const u of su) pts.push([u, v0]);
  for (const v of sv.slice(1)) pts.push([u1, v]);
  for (const u of [...su].reverse().slice(1)) pts.push([u, v1]);
  for (const v of [...sv].reverse().slice(1, -1)) pts.push([u0, v]);
  return pts;
}

/** A bore wall between two levels of one ring, normals towards the axis. */
function wall(out: Tris, ring: [number, number][], cx: number, cy: number, at: (u: number, v: number, level: 0 | 1) => V3): void {
  const axis0 = at(cx, cy, 0);
  for (let k = 0; k < ring.length; k++) {
    const a = ring[k], b = ring[(k + 1) % ring.length];
    const mid = at((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, 0);
    const n: V3 = [axis0[0] - mid[0], axis0[1] - mid[1], axis0[2] - mid[2]];
    quad(out, at(a[0], a[1], 0), at(b[0], b[1], 0), at(b[0], b[1], 1), at(a[0], a[1], 1), n);
  }
}

/** A closed cylinder along z from 0 to h, caps fanned from their centres. */
export function cylinder(r: number, h: number, n = SEGMENTS): Tris {
  const out: Tris = [];
  const ring = circle(0, 0, r, n);
  for (let k = 0; k < n; k++) {
    const a = ring[k], b = ring[(k + 1) % n];
    const mid: V3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, 0];
    quad(out, [a[0], a[1], 0], [b[0], b[1], 0], [b[0], b[1], h], [a[0], a[1], h], mid);
    tri(out, [0, 0, h], [a[0], a[1], h], [b[0], b[1], h], [0, 0, 1]);
    tri(out, [0, 0, 0], [a[0], a[1], 0], [b[0], b[1], 0], [0, 0, -1]);
  }
  return out;
}

export function box(l: number, w: number, t: number): Tris {
  return extrude([[0, 0], [l, 0], [l, w], [0, w]], t);
}

/** A simple polygon (counter-clockwise) extruded along z from 0 to h. */
export function extrude(poly: [number, number][], h: number): Tris {
  const out: Tris = [];
  for (const [a, b, c] of earClip(poly)) {
    tri(out, [a[0], a[1], h], [b[0], b[1], h], [c[0], c[1], h], [0, 0, 1]);
    tri(out, [a[0], a[1], 0], [b[0], b[1], 0], [c[0], c[1], 0], [0, 0, -1]);
  }
  for (let k = 0; k < poly.length; k++) {
    const a = poly[k], b = poly[(k + 1) % poly.length];
    const n: V3 = [b[1] - a[1], a[0] - b[0], 0];
    quad(out, [a[0], a[1], 0], [b[0], b[1], 0], [b[0], b[1], h], [a[0], a[1], h], n);
  }
  return out;
}

function earClip(poly: [number, number][]): [number, number][][] {
  const pts = [...poly];
  const out: [number, number][][] = [];
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  let guard = 0;
  while (pts.length > 3 && guard++ < 1000) {
    for (let i = 0; i < pts.length; i++) {
      const a = pts[(i + pts.length - 1) % pts.length], b = pts[i], c = pts[(i + 1) % pts.length];
      if (cross(a, b, c) <= 1e-9) continue;
      const inside = pts.some((p) => p !== a && p !== b && p !== c && cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0);
      if (inside) continue;
      out.push([a, b, c]);
      pts.splice(i, 1);
      break;
    }
  }
  out.push([pts[0], pts[1], pts[2]]);
  return out;
}
