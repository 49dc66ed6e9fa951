// Seeded cabinet scenes with their true cut list. A scene is a list of items (a panel, or a
// fitting made of one or more closed solids), each solid in its own frame with a rigid
// placement. Panels carry their design (holes, bores, cut-outs, notch); the truth is derived
// from the designs alone, never from the analysis.
import { seededRandom } from '../seeded.js';
import { box, cylinder, extrude, panelMesh, SEGMENTS, type FaceHole, type PanelDesign, type Tris, type V3 } from './geometry.js';

/** Row-major 3x3 rotation and a translation, mm. */
export interface Placement { r: number[]; p: V3 }

export interface Solid { tris: Tris; at: Placement }

export interface Item {
  name?: string;
  material?: string;
  kind: 'panel' | 'fitting';
  solids: Solid[];
  design?: PanelDesign;
  /** What kind of fitting, for reports. */
  fitting?: string;
}

export type SceneUnit = 'mm' | 'in' | 'm';
export const UNIT_MM: Record<SceneUnit, number> = { mm: 1, in: 25.4, m: 1000 };

export interface Scene { seed: number; unit: SceneUnit; items: Item[] }

export interface TrueHole { x: number; y: number; diameter: number; face: number; depth: number | null; type: 'regular' | 'hinge' | 'shelf' }
export interface TrueRow { l: number; w: number; t: number; q: number; role: 'rect' | 'nesting'; holes: TrueHole[]; names: string[] }
export interface Truth {
  seed: number;
  unit: SceneUnit;
  rows: TrueRow[];
  /** Fitting pieces: items in files with structure, connected solids in soups. */
  fittingItems: number;
  fittingSolids: number;
}

// ---- placements ----

const I3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
export function mul(a: number[], b: number[]): number[] {
  const o = new Array(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
  return o;
}
export function rotX(a: number): number[] { const c = Math.cos(a), s = Math.sin(a); return [1, 0, 0, 0, c, -s, 0, s, c]; }
export function rotY(a: number): number[] { const c = Math.cos(a), s = Math.sin(a); return [c, 0, s, 0, 1, 0, -s, 0, c]; }
export function rotZ(a: number): number[] { const c = Math.cos(a), s = Math.sin(a); return [c, -s, 0, s, c, 0, 0, 0, 1]; }
export function apply(at: Placement, x: number, y: number, z: number): V3 {
  const r = at.r;
  return [r[0] * x + r[1] * y + r[2] * z + at.p[0], r[3] * x + r[4] * y + r[5] * z + at.p[1], r[6] * x + r[7] * y + r[8] * z + at.p[2]];
}
/** Compose: first `inner`, then `outer`. */
export function compose(inner: Placement, outer: Placement): Placement {
  return { r: mul(outer.r, inner.r), p: apply(outer, ...inner.p) };
}
export const at = (r: number[], p: V3): Placement => ({ r, p });
export const IDENTITY = I3;

// Panel orientations in a carcass (panel frame: x along l, y along w, z through t).
const LYING = I3;                                     // l along X, w along Y (depth), t up
const STANDING_SIDE = [0, 0, -1, 0, 1, 0, 1, 0, 0];    // l up (Z), w along Y (depth), t along -X
const STANDING_FRONT = rotX(Math.PI / 2);             // l along X, w up, t along -Y

// ---- random helpers ----

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const between = (r: Rand, a: number, b: number, step = 1) => a + Math.round((r() * (b - a)) / step) * step;

// ---- panel designs ----

function shelfRows(l: number, w: number, inset: number, rows: number, d = 5, depth = 12): FaceHole[] {
  const holes: FaceHole[] = [];
  const first = 96;
  for (const y of [inset, w - inset]) for (let k = 0; k < rows && first + k * 32 <= l - 96; k++) holes.push({ x: first + k * 32, y, d, side: 'top', depth });
  return holes;
}

function fits(p: PanelDesign, h: { x: number; y: number; d: number }): boolean {
  const c = h.d / 2 + 3;
  if (h.x - c < 35 || h.y - c < 35 || h.x + c > p.l - 35 || h.y + c > p.w - 35) return false;
  if (p.notch && h.x + c > p.notch.x0 - 5 && h.y + c > p.notch.y0 - 5) return false;
  if (p.cutouts.some((q) => h.x + c > q.x0 - 5 && h.x - c < q.x1 + 5 && h.y + c > q.y0 - 5 && h.y - c < q.y1 + 5)) return false;
  return p.holes.every((o) => Math.abs(o.x - h.x) >= c + o.d / 2 + 3 || Math.abs(o.y - h.y) >= c + o.d / 2 + 3);
}

function randomHoles(r: Rand, p: PanelDesign, count: number): void {
  for (let tries = 0; tries < count * 20 && count > 0; tries++) {
    const d = pick(r, [3, 4, 5, 8, 10, 15, 20, 35] as const);
    const through = r() < 0.4;
    const h: FaceHole = {
      x: between(r, 40, p.l - 40, 0.5), y: between(r, 40, p.w - 40, 0.5), d,
      side: r() < 0.5 ? 'top' : 'bottom',
      depth: through ? null : Math.min(p.t - 3, pick(r, [5, 8, 10, 12, 13])),
    };
    if (h.depth !== null && h.depth <= 0) continue;
    if (!fits(p, h)) continue;
    p.holes.push(h);
    count--;
  }
}

function edgeBores(r: Rand, p: PanelDesign, edges: (0 | 1 | 2 | 3)[], d = 8): void {
  if (p.t < d + 6) return;
  for (const edge of edges) {
    const length = edge < 2 ? p.l : p.w;
    // Two bores 40 mm from the ends; a narrow edge (under 120 mm) gets the first only.
    for (const at of length >= 120 ? [40, length - 40] : [40]) {
      if (p.notch && ((edge === 1 && at > p.notch.x0 - 10) || (edge === 3 && at > p.notch.y0 - 10))) continue;
      p.edgeBores.push({ edge, at, z: p.t / 2, d, depth: pick(r, [12, 15, 20, 25]) });
    }
  }
}

// ---- the truth of a design ----

function holeType(d: number): TrueHole['type'] {
  return d >= 30 && d <= 40 ? 'hinge' : 'regular';
}

export function trueHoles(p: PanelDesign): TrueHole[] {
  const out: TrueHole[] = p.holes.map((h) => ({
    x: h.x, y: h.y, diameter: h.d, face: h.depth === null || h.side === 'top' ? 0 : 1, depth: h.depth, type: holeType(h.d),
  }));
  // Shelf rows: 3 or more equal small face holes on one line at a 32 mm pitch.
  for (const h of out) {
    if (h.diameter > 8) continue;
    for (const along of ['x', 'y'] as const) {
      const across = along === 'x' ? 'y' : 'x';
      const row = out.filter((o) => o.face === h.face && o.diameter === h.diameter && Math.abs(o[across] - h[across]) < 0.1);
      if (row.length >= 3 && row.every((o) => Math.abs(Math.abs(o[along] - h[along]) / 32 - Math.round(Math.abs(o[along] - h[along]) / 32)) < 0.01)) for (const o of row) o.type = 'shelf';
    }
  }
  for (const b of p.edgeBores) {
    out.push({ x: b.edge < 2 ? b.at : b.at, y: b.z, diameter: b.d, face: 2 + b.edge, depth: b.depth, type: holeType(b.d) });
  }
  return out;
}

type Pose = [flipX: boolean, flipY: boolean, over: boolean];
export const PROPER_POSES: Pose[] = [[false, false, false], [true, true, false], [false, true, true], [true, false, true]];

/** The holes as seen after turning the part (as the analysis may choose its frame). */
export function posed(holes: TrueHole[], l: number, w: number, t: number, [fx, fy, over]: Pose): TrueHole[] {
  return holes.map((h) => {
    if (h.face <= 1) {
      const through = h.depth === null;
      return { ...h, x: fx ? l - h.x : h.x, y: fy ? w - h.y : h.y, face: through ? 0 : over ? 1 - h.face : h.face };
    }
    const across = over ? t - h.y : h.y;
    if (h.face <= 3) return { ...h, x: fx ? l - h.x : h.x, y: across, face: fy ? 5 - h.face : h.face };
    return { ...h, x: fy ? w - h.x : h.x, y: across, face: fx ? 9 - h.face : h.face };
  });
}

/** A square part turned a quarter in its plane (the analysis may take either side as l). */
export function quarterTurn(holes: TrueHole[], l: number): TrueHole[] {
  const face = [0, 1, 4, 5, 3, 2];
  return holes.map((h) => h.face <= 1
    ? { ...h, x: h.y, y: l - h.x }
    : { ...h, face: face[h.face], x: h.face <= 3 ? l - h.x : h.x });
}

/** Every frame the analysis may choose for a part: the proper turns, and quarter turns of a square. */
export function framings(holes: TrueHole[], l: number, w: number, t: number): TrueHole[][] {
  const bases = Math.abs(l - w) < 1e-9 ? [holes, quarterTurn(holes, l)] : [holes];
  return bases.flatMap((base) => PROPER_POSES.map((pose) => posed(base, l, w, t, pose)));
}

function sameHoles(a: TrueHole[], b: TrueHole[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...b];
  return a.every((h) => {
    const i = left.findIndex((o) => o.face === h.face && Math.abs(o.x - h.x) < 0.01 && Math.abs(o.y - h.y) < 0.01 && o.diameter === h.diameter && o.depth === h.depth);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

export function sameDesign(a: PanelDesign, b: PanelDesign): boolean {
  if (a.l !== b.l || a.w !== b.w || a.t !== b.t) return false;
  const shapeKey = (p: PanelDesign) => JSON.stringify([p.cutouts, p.notch ?? null]);
  const ha = trueHoles(a), hb = trueHoles(b);
  if (shapeKey(a) === shapeKey(b) && (a.cutouts.length === 0 && !a.notch)) return framings(ha, a.l, a.w, a.t).some((h) => sameHoles(h, hb));
  // Shaped parts: only the identical design counts as the same (the generator never turns them).
  return shapeKey(a) === shapeKey(b) && sameHoles(ha, hb);
}

export function truthOf(scene: Scene): Truth {
  const rows: { design: PanelDesign; row: TrueRow }[] = [];
  let fittingItems = 0, fittingSolids = 0;
  for (const item of scene.items) {
    if (item.kind === 'fitting') {
      fittingItems++;
      fittingSolids += item.solids.length;
      continue;
    }
    const d = item.design!;
    const found = rows.find((r) => sameDesign(r.design, d));
    if (found) {
      found.row.q++;
      if (item.name) found.row.names.push(item.name);
      continue;
    }
    rows.push({ design: d, row: { l: d.l, w: d.w, t: d.t, q: 1, role: d.cutouts.length || d.notch ? 'nesting' : 'rect', holes: trueHoles(d), names: item.name ? [item.name] : [] } });
  }
  return { seed: scene.seed, unit: scene.unit, rows: rows.map((r) => r.row), fittingItems, fittingSolids };
}

// ---- fittings (their own frame: z = 0 is the face they sit on, z up away from it) ----

export function hinge(): Solid[] {
  // The cup fills a 35 mm bore 13 mm deep (its faces coincide with the bore's, rim edges shared
  // with the door); the arm plate lies on the face over it.
  return [
    { tris: cylinder(17.5, 13), at: at(I3, [0, 0, -13]) },
    { tris: box(50, 40, 1.5), at: at(I3, [-12, -20, 0]) },
  ];
}
function handle(length: number): Solid[] {
  return [
    { tris: cylinder(5, 25), at: at(I3, [-length / 2 + 16, 0, 0]) },
    { tris: cylinder(5, 25), at: at(I3, [length / 2 - 16, 0, 0]) },
    { tris: cylinder(6, length), at: at(mul(rotY(Math.PI / 2), I3), [-length / 2, 0, 31]) },
  ];
}
const knob = (): Solid[] => [{ tris: cylinder(15, 25), at: at(I3, [0, 0, 0]) }];
const screw = (): Solid[] => [{ tris: cylinder(2, 16), at: at(I3, [0, 0, -16]) }, { tris: cylinder(4, 3), at: at(I3, [0, 0, 0]) }];
export const bracket = (): Solid[] => [{ tris: extrude([[0, 0], [40, 0], [40, 2], [2, 2], [2, 40], [0, 40]], 100), at: at(I3, [0, 0, 0]) }];
const runner = (length: number): Solid[] => [{ tris: extrude([[0, 0], [12, 0], [12, 1.5], [1.5, 1.5], [1.5, 43.5], [12, 43.5], [12, 45], [0, 45]], length), at: at(I3, [0, 0, 0]) }];

// ---- scenes ----

const THICK = [16, 18, 19, 22, 25] as const;

interface Ctx { r: Rand; items: Item[]; unnamed: number; named: boolean; used: Map<string, number> }

/** A unique name (OBJ gathers the faces of one name into one part), meaningful or an exporter's "Body001". */
function name(ctx: Ctx, meaning: string): string | undefined {
  if (!ctx.named || ctx.r() < 0.25) return `Body${String(++ctx.unnamed).padStart(3, '0')}`;
  const n = (ctx.used.get(meaning) ?? 0) + 1;
  ctx.used.set(meaning, n);
  return n === 1 ? meaning : `${meaning} ${n}`;
}

/** The same panel turned a quarter in its plane so that l >= w, and the placement that keeps it where it was. */
function lengthwise(p: PanelDesign, where: Placement): [PanelDesign, Placement] {
  if (p.l >= p.w) return [p, where];
  const l = p.l;
  const edge = [2, 3, 1, 0] as const;
  const turned: PanelDesign = {
    l: p.w, w: p.l, t: p.t,
    holes: p.holes.map((h) => ({ ...h, x: h.y, y: l - h.x })),
    edgeBores: p.edgeBores.map((b) => ({ ...b, edge: edge[b.edge], at: b.edge < 2 ? l - b.at : b.at })),
    cutouts: p.cutouts.map((c) => ({ x0: c.y0, y0: l - c.x1, x1: c.y1, y1: l - c.x0 })),
    ...(p.notch ? { notch: { x0: p.notch.y0, y0: l - p.notch.x1, x1: p.notch.y1, y1: l - p.notch.x0 } } : {}),
  };
  // new (x, y, z) -> old (l - y, x, z)
  return [turned, compose(at([0, -1, 0, 1, 0, 0, 0, 0, 1], [l, 0, 0]), where)];
}

function addPanel(ctx: Ctx, original: PanelDesign, place: Placement, meaning: string, material?: string): void {
  const [design, where] = lengthwise(original, place);
  ctx.items.push({ kind: 'panel', name: name(ctx, meaning), material, design, solids: [{ tris: panelMesh(design), at: where }] });
}

function addFitting(ctx: Ctx, fitting: string, solids: Solid[], where: Placement, meaning: string): void {
  ctx.items.push({ kind: 'fitting', fitting, name: name(ctx, meaning), material: ctx.r() < 0.5 ? 'steel' : undefined, solids: solids.map((s) => ({ tris: s.tris, at: compose(s.at, where) })) });
}

function randomRotation(r: Rand): number[] {
  return mul(rotZ(r() * 2 * Math.PI), mul(rotY(r() * 2 * Math.PI), rotX(r() * 2 * Math.PI)));
}

/** One carcass at `origin`: sides (a mirror pair), top and bottom, shelves, back, door(s), fittings. */
function carcass(ctx: Ctx, origin: V3): number {
  const r = ctx.r;
  const t = pick(r, THICK);
  const H = between(r, 500, 2000, 10), W = between(r, 350, 1000, 10), D = between(r, 300, 600, 10);
  const side: PanelDesign = { l: H, w: D, t, holes: [], edgeBores: [], cutouts: [] };
  side.holes.push(...shelfRows(H, D, 37, between(r, 3, 8)));
  // Hinge-plate screw holes near the front, on the inside (top face of the left side).
  side.holes.push({ x: 100, y: D - 37 - 20, d: 5, side: 'top', depth: 10 }, { x: H - 100, y: D - 37 - 20, d: 5, side: 'top', depth: 10 });
  const inner = W - 2 * t;
  const left: Placement = at(STANDING_SIDE, [origin[0] + t, origin[1], origin[2]]);
  addPanel(ctx, side, left, 'side left');
  // The right side is the mirror image: its drillings face the inside too.
  const right: PanelDesign = { ...side, holes: side.holes.map((h) => ({ ...h, side: h.side === 'top' ? 'bottom' : 'top' })) };
  addPanel(ctx, right, at(STANDING_SIDE, [origin[0] + W, origin[1], origin[2]]), 'side right');
  const topBottom: PanelDesign = { l: inner, w: D, t, holes: [], edgeBores: [], cutouts: [] };
  edgeBores(r, topBottom, [2, 3]);
  addPanel(ctx, topBottom, at(LYING, [origin[0] + t, origin[1], origin[2]]), 'bottom');
  addPanel(ctx, topBottom, at(LYING, [origin[0] + t, origin[1], origin[2] + H - t]), 'top');
  // Dowels in the top's bores on the left: coincident bore bottoms, edges used four times.
  if (topBottom.edgeBores.length && r() < 0.7) {
    const b = topBottom.edgeBores.find((e) => e.edge === 2)!;
    const dowel = cylinder(b.d / 2, 30, SEGMENTS);
    // Dowel axis along -X from the bore bottom (x = depth inside the top) outwards.
    addFitting(ctx, 'dowel', [{ tris: dowel, at: at(rotY(-Math.PI / 2), [b.depth, b.at, b.z]) }], at(LYING, [origin[0] + t, origin[1], origin[2] + H - t]), 'dowel');
  }
  const shelves = between(r, 0, 3);
  const shelf: PanelDesign = { l: inner - 2, w: D - 20, t, holes: [], edgeBores: [], cutouts: [] };
  if (r() < 0.3) randomHoles(r, shelf, 2);
  for (let k = 0; k < shelves; k++) {
    const z = origin[2] + t + ((H - 2 * t) * (k + 1)) / (shelves + 1);
    addPanel(ctx, shelf, at(LYING, [origin[0] + t + 1, origin[1], z]), 'shelf');
    if (k === 0 && r() < 0.6) addFitting(ctx, 'bracket', bracket(), at(mul(rotZ(Math.PI / 2), rotX(Math.PI / 2)), [origin[0] + t, origin[1] + 100, z]), 'angle bracket');
  }
  // Back: thin, possibly with a cut-out for cables.
  const bt = pick(r, [3, 4, 6, 8]);
  const back: PanelDesign = { l: Math.max(H, W) === H ? H - 2 : W - 2, w: Math.max(H, W) === H ? W - 2 : H - 2, t: bt, holes: [], edgeBores: [], cutouts: [] };
  if (r() < 0.4) back.cutouts.push({ x0: back.l / 2 - 40, y0: back.w / 2 - 30, x1: back.l / 2 + 40, y1: back.w / 2 + 30 });
  const backAt = H >= W ? at(mul(rotX(Math.PI / 2), rotZ(Math.PI / 2)), [origin[0] + 1 + back.w, origin[1] + D + bt, origin[2] + 1]) : at(STANDING_FRONT, [origin[0] + 1, origin[1] + D + bt, origin[2] + 1]);
  addPanel(ctx, back, backAt, 'back');
  if (r() < 0.5) addFitting(ctx, 'screw', screw(), compose(at(rotX(-Math.PI / 2), [0, 0, 0]), at(I3, [origin[0] + W / 2, origin[1] + D + bt, origin[2] + H / 2])), 'screw');
  // Door(s): hinge bores on the inside face with hinges in them; a handle or a knob outside.
  const doors = W > 600 ? 2 : 1;
  const dw = doors === 2 ? W / 2 - 2 : W - 4;
  const dl = H - 4;
  const door: PanelDesign = { l: Math.max(dl, dw), w: Math.min(dl, dw), t, holes: [], edgeBores: [], cutouts: [] };
  const tall = dl >= dw;
  // Hinge bores (35 mm, 13 deep) 100 mm from the ends, the hinge screws' 8 mm bores beside them.
  if (door.w >= 200) {
    for (const x of [100, door.l - 100]) {
      door.holes.push({ x, y: 27, d: 35, side: 'top', depth: 13 });
      if (tall) door.holes.push({ x: x - 24, y: 60, d: 8, side: 'top', depth: 11 }, { x: x + 24, y: 60, d: 8, side: 'top', depth: 11 });
    }
  }
  for (let k = 0; k < doors; k++) {
    const dx = origin[0] + 2 + k * (dw + 2);
    // Door frame: x along l, y along w; the drilled top face looks into the carcass (+Y).
    const doorAt = tall
      ? at(mul(rotY(-Math.PI / 2), rotX(-Math.PI / 2)), [dx, origin[1] - t, origin[2] + 2])
      : at(rotX(-Math.PI / 2), [dx, origin[1] - t, origin[2] + 2]);
    // The second door is hinged on its other edge: the mirror image of the first.
    const d2: PanelDesign = k === 1 ? { ...door, holes: door.holes.map((h) => ({ ...h, y: door.w - h.y })) } : door;
    addPanel(ctx, d2, doorAt, 'door');
    for (const h of d2.holes.filter((q) => q.d === 35)) {
      addFitting(ctx, 'hinge', hinge(), compose(at(I3, [h.x, h.y, door.t]), doorAt), 'hinge');
    }
    const outside = compose(at(rotX(Math.PI), [door.l / 2, door.w / 2, 0]), doorAt);
    if (r() < 0.5) addFitting(ctx, 'handle', handle(pick(r, [128, 160, 192])), outside, 'handle');
    else addFitting(ctx, 'knob', knob(), outside, 'knob');
  }
  if (r() < 0.5) {
    const runnerLength = Math.min(D - 20, 450);
    addFitting(ctx, 'runner', runner(runnerLength), at(mul(rotY(Math.PI / 2), rotZ(Math.PI / 2)), [origin[0] + t, origin[1] + 10, origin[2] + H / 3]), 'drawer runner');
  }
  return W;
}

/** Spare parts lying anywhere, turned any way: plain, drilled, L-shaped with holes, thin. */
function spares(ctx: Ctx, origin: V3, count: number): void {
  const r = ctx.r;
  for (let k = 0; k < count; k++) {
    const t = pick(r, [...THICK, 3, 6, 8, 12]);
    const l = between(r, 120, 1200, 0.5), w = between(r, 80, Math.min(l, 600), 0.5);
    const p: PanelDesign = { l: Math.max(l, w), w: Math.min(l, w), t, holes: [], edgeBores: [], cutouts: [] };
    const kind = r();
    if (kind < 0.3 && p.w >= 160) p.notch = { x0: p.l - Math.round(p.l * 0.4), y0: p.w - Math.round(p.w * 0.45), x1: p.l, y1: p.w };
    if (t >= 8) randomHoles(r, p, between(r, 0, 4));
    if (t >= 16 && r() < 0.4) edgeBores(r, p, [0, 2]);
    const rot = r() < 0.3 ? I3 : randomRotation(r);
    addPanel(ctx, p, at(rot, [origin[0] + k * 1400, origin[1] + r() * 300, origin[2] + r() * 300]), pick(r, ['spare', 'shelf', 'panel', 'part']));
  }
}

export interface SceneOptions { unit?: SceneUnit; named?: boolean }

export function generateScene(seed: number, options: SceneOptions = {}): Scene {
  const r = seededRandom(seed * 7919 + 13);
  const ctx: Ctx = { r, items: [], unnamed: 0, named: options.named ?? true, used: new Map() };
  const unit = options.unit ?? pick(r, ['mm', 'mm', 'in', 'm'] as const);
  let x = 0;
  const carcasses = between(r, 1, 2);
  for (let c = 0; c < carcasses; c++) x += carcass(ctx, [x, 0, 0]) + 300;
  spares(ctx, [0, -2500, 0], between(r, 1, 4));
  return { seed, unit, items: ctx.items };
}
