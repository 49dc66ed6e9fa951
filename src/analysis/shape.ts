// Outline and holes of a measured panel, read from the faces parallel to it (grouped by
// depth) and from its edge faces: round rings through both faces are through holes, a round
// ring on one face only is a blind hole (depth from the wall of the bore), round rings in an
// edge face are edge holes, other rings through the part are cut-outs, and an outer ring that
// does not fill the rectangle makes the part shaped. Coordinates: the part frame, origin at the
// bottom-left corner, x along l, y along w (mm).
import type { MeasuredComponent, Vec3 } from './mesh-engine.js';
import type { DrillHole, Point } from './types.js';

/** A hole as read; `symmetric`: a plain through bore, the same from both faces. */
export type ShapeHole = DrillHole & { symmetric?: boolean };

export interface PartShape {
  shaped: boolean;
  drill: ShapeHole[];
  cutouts: Point[][];
  outline?: Point[];
  /** Area of the part's face, mm², when known from its outline and cut-outs. */
  area?: number;
}

const PARALLEL = 0.9995;
const ON_PLANE_MM = 0.05;

interface Loop { pts: Point[]; area: number; cx: number; cy: number; round: boolean; diameter: number }

const dot = (a: Vec3, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Closed boundary loops of a set of 2D triangles (edges used once, followed head to tail). */
function boundaryLoops(tris: number[]): Loop[] {
  // Corners welded on a 1 µm grid; numeric keys (ids below 2^26) keep the maps fast.
  const ids = new Map<number, number>();
  const coords: Point[] = [];
  const id = (u: number, v: number) => {
    const key = Math.round(u * 1000) * 134217728 + Math.round(v * 1000);
    let i = ids.get(key);
    if (i === undefined) {
      i = coords.length;
      ids.set(key, i);
      coords.push({ x: u, y: v });
    }
    return i;
  };
  const SHIFT = 67108864;
  const uses = new Map<number, number>();
  const directed: number[] = [];
  for (let i = 0; i < tris.length; i += 6) {
    const k = [id(tris[i], tris[i + 1]), id(tris[i + 2], tris[i + 3]), id(tris[i + 4], tris[i + 5])];
    if (k[0] === k[1] || k[1] === k[2] || k[0] === k[2]) continue;
    for (let j = 0; j < 3; j++) {
      const a = k[j], b = k[(j + 1) % 3];
      const e = a < b ? a * SHIFT + b : b * SHIFT + a;
      uses.set(e, (uses.get(e) ?? 0) + 1);
      directed.push(a, b);
    }
  }
  const next = new Map<number, number[]>();
  for (let i = 0; i < directed.length; i += 2) {
    const a = directed[i], b = directed[i + 1];
    if (uses.get(a < b ? a * SHIFT + b : b * SHIFT + a) !== 1) continue;
    const list = next.get(a);
    if (list) list.push(b); else next.set(a, [b]);
  }
  const loops: Loop[] = [];
  for (const start of [...next.keys()]) {
    while ((next.get(start)?.length ?? 0) > 0) {
      const chain = [start];
      let at = next.get(start)!.pop()!;
      let guard = 0;
      while (at !== start && guard++ < 1_000_000) {
        chain.push(at);
        const options = next.get(at);
        if (!options || options.length === 0) break;
        at = options.pop()!;
      }
      if (at !== start || chain.length < 3) continue;
      loops.push(describe(chain.map((k) => coords[k])));
    }
  }
  return loops;
}

function describe(raw: Point[]): Loop {
  // Drop points on straight runs: outlines stay small.
  const pts = raw.filter((p, i) => {
    const a = raw[(i + raw.length - 1) % raw.length], b = raw[(i + 1) % raw.length];
    return Math.abs((p.x - a.x) * (b.y - a.y) - (p.y - a.y) * (b.x - a.x)) > 1e-6 * Math.hypot(b.x - a.x, b.y - a.y) + 1e-9;
  });
  // Centre of the enclosed area, not the mean of the corners: a quantized ring loses the odd
  // corner that falls on a straight run, and the mean of the rest is off centre.
  let area = 0, sx = 0, sy = 0;
  const ox = pts[0]?.x ?? 0, oy = pts[0]?.y ?? 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    const ax = a.x - ox, ay = a.y - oy, bx = b.x - ox, by = b.y - oy;
    const cross = ax * by - bx * ay;
    area += cross;
    sx += (ax + bx) * cross;
    sy += (ay + by) * cross;
  }
  const meanX = pts.reduce((s, p) => s + p.x, 0) / pts.length, meanY = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  const cx = Math.abs(area) > 1e-12 ? ox + sx / (3 * area) : meanX, cy = Math.abs(area) > 1e-12 ? oy + sy / (3 * area) : meanY;
  area /= 2;
  const radii = pts.map((p) => Math.hypot(p.x - cx, p.y - cy));
  const mean = radii.reduce((s, r) => s + r, 0) / radii.length;
  const round = pts.length >= 8 && radii.every((r) => Math.abs(r - mean) <= 0.03 * mean + 1e-3);
  return { pts, area, cx, cy, round, diameter: 2 * mean };
}

function holeType(d: number): DrillHole['type'] {
  return d >= 30 && d <= 40 ? 'hinge' : 'regular';
}

/** Shelf-pin rows: at least 3 holes of one small diameter on a 32 mm pitch along one line. */
function markShelfRows(holes: DrillHole[]): void {
  for (const h of holes) {
    if (h.diameter > 8 || h.face > 1) continue;
    for (const along of ['x', 'y'] as const) {
      const across = along === 'x' ? 'y' : 'x';
      const row = holes.filter((o) => o.face === h.face && Math.abs(o.diameter - h.diameter) < 0.1 && Math.abs(o[across] - h[across]) < 0.1);
      const steps = row.map((o) => Math.abs(o[along] - h[along]) / 32);
      if (row.length >= 3 && steps.every((s) => Math.abs(s - Math.round(s)) < 0.01)) for (const o of row) o.type = 'shelf';
    }
  }
}

export function partShape(positions: Float32Array, faces: Int32Array, c: MeasuredComponent, holesCut: boolean): PartShape {
  const box = c.l * c.w;
  // A plain slab skips the outline reading. The faces must fill the rectangle to within float
  // noise: a 3 mm hole in a 700 x 580 panel is 7 mm², under a relative 1e-4 of its face.
  const fill = Math.max(1e-6 * box, 0.05);
  const plainBox = Math.abs(c.topArea - box) < fill && Math.abs(c.bottomArea - box) < fill
    && Math.abs(c.area - 2 * box - 2 * (c.l + c.w) * c.t) < 1e-4 * c.area;
  if (plainBox) return { shaped: false, drill: [], cutouts: [], outline: rectangle(c.l, c.w), area: box };

  const O = c.origin, X = c.lAxis, Y = c.wAxis, N = c.normal;
  const local = new Float64Array(faces.length * 9);
  const up = new Map<number, { area: number; tris: number[] }>();
  const down = new Map<number, { area: number; tris: number[] }>();
  const sides: number[][] = [[], [], [], []]; // l1 (y=0), l2 (y=w), w1 (x=0), w2 (x=l): (along, z) pairs
  faces.forEach((f, i) => {
    for (let k = 0; k < 3; k++) {
      const p: Vec3 = [positions[f * 9 + k * 3] - O[0], positions[f * 9 + k * 3 + 1] - O[1], positions[f * 9 + k * 3 + 2] - O[2]];
      local[i * 9 + k * 3] = dot(X, p);
      local[i * 9 + k * 3 + 1] = dot(Y, p);
      local[i * 9 + k * 3 + 2] = dot(N, p);
    }
  });
  for (let i = 0; i < faces.length; i++) {
    const t = local.subarray(i * 9, i * 9 + 9);
    const ux = t[3] - t[0], uy = t[4] - t[1], uz = t[5] - t[2], vx = t[6] - t[0], vy = t[7] - t[1], vz = t[8] - t[2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0)) continue;
    const xy = [t[0], t[1], t[3], t[4], t[6], t[7]];
    if (Math.abs(nz / len) > PARALLEL) {
      const z = Math.round(((t[2] + t[5] + t[8]) / 3) * 100) / 100;
      const groups = nz > 0 ? up : down;
      const g = groups.get(z) ?? { area: 0, tris: [] };
      g.area += len / 2;
      g.tris.push(...xy);
      groups.set(z, g);
    } else if (Math.abs(nx / len) > PARALLEL || Math.abs(ny / len) > PARALLEL) {
      const alongX = Math.abs(ny / len) > PARALLEL; // a face of an l edge runs along x
      const at = alongX ? (t[1] + t[4] + t[7]) / 3 : (t[0] + t[3] + t[6]) / 3;
      const limit = alongX ? c.w : c.l;
      const side = Math.abs(at) < ON_PLANE_MM ? 0 : Math.abs(at - limit) < ON_PLANE_MM ? 1 : -1;
      if (side < 0) continue;
      const index = (alongX ? 0 : 2) + side;
      const a = alongX ? [t[0], t[3], t[6]] : [t[1], t[4], t[7]];
      sides[index].push(a[0], t[2], a[1], t[5], a[2], t[8]);
    }
  }
  const biggest = (groups: Map<number, { area: number; tris: number[] }>) =>
    [...groups.entries()].sort((a, b) => b[1].area - a[1].area)[0];
  const front = biggest(up), back = biggest(down);
  if (!front || !back) return { shaped: false, drill: [], cutouts: [] };

  const frontLoops = boundaryLoops(front[1].tris);
  const backLoops = boundaryLoops(back[1].tris);
  const outer = [...frontLoops].sort((a, b) => Math.abs(b.area) - Math.abs(a.area))[0];
  const frontInner = frontLoops.filter((l) => l !== outer);
  const backOuter = [...backLoops].sort((a, b) => Math.abs(b.area) - Math.abs(a.area))[0];
  const backInner = backLoops.filter((l) => l !== backOuter);

  const drill: ShapeHole[] = [];
  const cutouts: Point[][] = [];
  let cutArea = 0;
  const matched = new Set<Loop>();
  const allVertices = local;
  /** Depth of a bore from the plane at zFace: the farthest vertex on its wall (a drill cone is not depth). */
  const boreDepth = (cx: number, cy: number, r: number, fromFront: boolean) => {
    let deepest = 0;
    for (let i = 0; i < allVertices.length; i += 3) {
      const d = Math.hypot(allVertices[i] - cx, allVertices[i + 1] - cy);
      if (Math.abs(d - r) > 0.02) continue;
      const depth = fromFront ? front[0] - allVertices[i + 2] : allVertices[i + 2] - back[0];
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  };
  for (const loop of frontInner) {
    const through = backInner.find((b) => !matched.has(b) && Math.hypot(b.cx - loop.cx, b.cy - loop.cy) < 0.2 && b.round === loop.round);
    if (through) matched.add(through);
    if (loop.round) {
      const diameter = through ? Math.min(loop.diameter, through.diameter) : loop.diameter;
      if (through && holesCut) {
        const narrow = loop.diameter <= through.diameter ? loop : through;
        cutouts.push(ccw(narrow.pts).reverse());
        cutArea += Math.abs(narrow.area);
        continue;
      }
      const face = through && through.diameter > loop.diameter + 0.01 ? 1 : 0;
      const hole: ShapeHole = { x: loop.cx, y: loop.cy, diameter, face, type: holeType(diameter) };
      if (through && Math.abs(through.diameter - loop.diameter) <= 0.01) hole.symmetric = true;
      if (!through) hole.depth = boreDepth(loop.cx, loop.cy, loop.diameter / 2, true);
      drill.push(hole);
    } else if (through) {
      cutouts.push(ccw(loop.pts).reverse());
      cutArea += Math.abs(loop.area);
    }
    // A non-round ring on one face only is a pocket: not a cut-out, and no drilling either.
  }
  for (const loop of backInner) {
    if (matched.has(loop) || !loop.round) continue;
    drill.push({ x: loop.cx, y: loop.cy, diameter: loop.diameter, face: 1, type: holeType(loop.diameter), depth: boreDepth(loop.cx, loop.cy, loop.diameter / 2, false) });
  }
  // Edge holes: round rings inside an edge face; x along that edge, y across the thickness.
  sides.forEach((tris, index) => {
    if (tris.length === 0) return;
    const loops = boundaryLoops(tris);
    const edgeOuter = [...loops].sort((a, b) => Math.abs(b.area) - Math.abs(a.area))[0];
    for (const loop of loops) {
      if (loop === edgeOuter || !loop.round) continue;
      const r = loop.diameter / 2;
      let depth = 0;
      for (let i = 0; i < local.length; i += 3) {
        const along = index < 2 ? local[i] : local[i + 1];
        if (Math.abs(Math.hypot(along - loop.cx, local[i + 2] - loop.cy) - r) > 0.02) continue;
        const into = index === 0 ? local[i + 1] : index === 1 ? c.w - local[i + 1] : index === 2 ? local[i] : c.l - local[i];
        // Only this end's bore: a matching hole drilled from the opposite edge lies past half way.
        if (into < (index < 2 ? c.w : c.l) / 2) depth = Math.max(depth, into);
      }
      drill.push({ x: loop.cx, y: loop.cy - back[0], diameter: loop.diameter, face: 2 + index, type: holeType(loop.diameter), depth });
    }
  });
  markShelfRows(drill);

  const outlineArea = outer ? Math.abs(outer.area) : box;
  // With holes=cut round rings are cut-outs too, but they alone do not make a part shaped.
  const shaped = outlineArea < 0.995 * box || cutouts.some((ring) => !describe(ring).round);
  return {
    shaped,
    drill,
    cutouts,
    outline: outer ? ccw(outer.pts) : rectangle(c.l, c.w),
    area: outlineArea - cutArea,
  };
}

function ccw(pts: Point[]): Point[] {
  let area = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    area += a.x * b.y - b.x * a.y;
  }
  return area < 0 ? [...pts].reverse() : [...pts];
}

function rectangle(l: number, w: number): Point[] {
  return [{ x: 0, y: 0 }, { x: l, y: 0 }, { x: l, y: w }, { x: 0, y: w }];
}
