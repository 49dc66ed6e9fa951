// From a read model to the analysis response: units, the mesh engine, roles, dedupe, advice
// and stats. Everything is measured in mm here and converted to `units` at the very end.
import { MAX_TRIANGLES, tooManyTriangles, type ModelMesh } from '../models/types.js';
import { UNITS, UNIT_NAMES, roundIn, type Unit } from '../models/units.js';
import { runMeshEngine, type MeasuredComponent } from './mesh-engine.js';
import { boxOf, penetration } from './overlap.js';
import { fixtureVerdict, type RoleVerdict } from './roles.js';
import { partShape, type PartShape } from './shape.js';
import { AnalysisTimeout, type Advice, type AnalysisOptions, type AnalysisPart, type AnalysisResponse, type Role } from './types.js';

const HEAVY_TRIANGLES = 500_000;
const WELD_TOLERANCE_MM = 1e-3;
const SAME_SIZE_MM = 0.1;

interface Instance {
  comp: MeasuredComponent;
  index: number;
  name?: string;
  material?: string;
  role: Role;
  score: number;
  reason: string;
  shape: PartShape;
  row: number;
}

export function analyseModel(mesh: ModelMesh, options: AnalysisOptions, deadline: number): AnalysisResponse {
  const triangles = mesh.positions.length / 9;
  if (triangles > MAX_TRIANGLES) throw tooManyTriangles(triangles);
  const advice: Advice[] = [];
  const checkTime = (stage: string) => {
    if (Date.now() > deadline) throw new AnalysisTimeout(`The analysis did not finish within its time budget (stopped while ${stage})`, advice);
  };
  const sourceUnits: Unit = options.sourceUnits ?? mesh.declaredUnits ?? options.units;
  const toMm = mesh.toDeclared * UNITS[sourceUnits];
  const positions = toMm === 1 ? mesh.positions : mesh.positions.map((v) => v * toMm);
  const engine = runMeshEngine(positions, mesh.groups, WELD_TOLERANCE_MM);
  checkTime('measuring parts');

  const out = (mm: number) => roundIn(mm / UNITS[options.units], options.units);
  const all = engine.components;
  // Triangles of each component (counting sort), for outlines and holes.
  const facesStart = new Int32Array(all.length + 1);
  for (const comp of engine.faceComp) if (comp >= 0) facesStart[comp + 1]++;
  for (let i = 0; i < all.length; i++) facesStart[i + 1] += facesStart[i];
  const facesList = new Int32Array(facesStart[all.length]);
  const fill = facesStart.slice(0, all.length);
  engine.faceComp.forEach((comp, f) => { if (comp >= 0) facesList[fill[comp]++] = f; });
  const instances: Instance[] = [];
  let debris = 0;
  const kept: { ci: number; comp: MeasuredComponent; verdict: RoleVerdict }[] = [];
  for (const [ci, comp] of all.entries()) {
    // Noise: slivers and stray faces an exporter left behind.
    if (comp.triangles < 4 || comp.area < 1 || comp.l < 0.5) {
      debris++;
      continue;
    }
    const group = mesh.groups[comp.group];
    kept.push({ ci, comp, verdict: fixtureVerdict(comp, group?.name, group?.material) });
  }
  // The same solid gets the same verdict whatever each copy is named: the surest one. Only
  // solids of one triangle count can be the same, so they are compared within those buckets.
  const byTriangles = new Map<number, typeof kept>();
  for (const k of kept) {
    const bucket = byTriangles.get(k.comp.triangles);
    if (bucket) bucket.push(k); else byTriangles.set(k.comp.triangles, [k]);
  }
  for (const bucket of byTriangles.values()) {
    if (bucket.length < 2 || bucket.every((k) => k.verdict.score === bucket[0].verdict.score)) continue;
    for (const a of bucket) {
      for (const b of bucket) if (b.verdict.score > a.verdict.score && sameSolid(a.comp, b.comp)) a.verdict = b.verdict;
    }
  }
  for (const { ci, comp, verdict } of kept) {
    const group = mesh.groups[comp.group];
    const shape = verdict.fixture ? { shaped: false, drill: [], cutouts: [] } : partShape(positions, facesList.subarray(facesStart[ci], facesStart[ci + 1]), comp, options.holesCut);
    instances.push({
      comp, index: instances.length, name: group?.name, material: group?.material,
      role: verdict.fixture ? 'fixture' : shape.shaped ? 'nesting' : 'rect',
      score: verdict.score, reason: verdict.reason, shape, row: -1,
    });
    checkTime('reading outlines and holes');
  }

  // Dedupe: same role, material and measurements, and the same holes under the rotations of
  // the box (mirror images too when asked).
  const rows: Instance[][] = [];
  for (const inst of instances) {
    const row = options.dedupe ? rows.find((r) => sameInstance(r[0], inst, options.mirrorDedupe)) : undefined;
    if (row) row.push(inst);
    else rows.push([inst]);
  }
  rows.forEach((r, i) => r.forEach((inst) => (inst.row = i)));
  const parts: AnalysisPart[] = rows.map((r) => {
    const first = r[0];
    const c = first.comp;
    const part: AnalysisPart = { name: first.name, l: out(c.l), w: out(c.w), t: out(c.t), q: r.length, role: first.role };
    if (first.name === undefined) delete part.name;
    if (first.material) part.material = first.material;
    const s = first.shape;
    if (s.drill.length) {
      part.machining = {
        holes: s.drill.map((h) => ({ x: out(h.x), y: out(h.y), diameter: out(h.diameter), face: h.face, type: h.type, ...(h.depth !== undefined ? { depth: out(h.depth) } : {}) })),
      };
    }
    if (s.outline && (first.role === 'nesting' || options.holesCut && s.cutouts.length)) part.outline = s.outline.map((p) => ({ x: out(p.x), y: out(p.y) }));
    if (s.cutouts.length) part.holes = s.cutouts.map((ring) => ring.map((p) => ({ x: out(p.x), y: out(p.y) })));
    return part;
  });

  // Advice, part by part (on the row), then the model as a whole.
  for (const inst of instances) {
    if (inst !== rows[inst.row][0]) continue;
    const c = inst.comp;
    const partIndex = inst.row;
    const label = inst.name ? `"${inst.name}"` : `part ${partIndex + 1}`;
    if (inst.role === 'fixture') {
      advice.push({ code: 'fixture-detected', severity: 'info', message: `${label} looks like a fitting (${inst.reason}), not sheet goods; drop it before cutting`, partIndex, confidence: round2(inst.score) });
    }
    if (inst.score >= 0.4 && inst.score <= 0.75) {
      advice.push({
        code: 'role-uncertain', severity: 'info', partIndex,
        message: `${label}: whether it is a fitting or a panel was a close call (${inst.reason}); a human should look`,
        confidence: round2(inst.role === 'fixture' ? inst.score : 1 - inst.score),
      });
    }
    if (inst.role === 'nesting') {
      const area = inst.shape.area ?? c.topArea;
      const waste = Math.max(0, Math.min(1, 1 - area / (c.l * c.w)));
      advice.push({ code: 'squared-off-waste', severity: 'info', partIndex, wastePct: round2(waste), message: `${label} is shaped; squaring it off to ${out(c.l)} x ${out(c.w)} wastes ${(waste * 100).toFixed(1)}% of that rectangle` });
    }
    if (inst.role !== 'fixture') {
      if (!c.planesFound) {
        advice.push({ code: 'dimensions-approximate', severity: 'warning', partIndex, message: `${label}: no pair of opposite flat faces; the thickness is the extent across the part, not a measured face distance` });
      }
      const curved = c.area > 0 ? 1 - (c.flatArea + c.edgeArea) / c.area : 0;
      if (c.extent - c.t > Math.max(0.5, 0.05 * c.t) || curved > 0.15) {
        advice.push({ code: 'not-flat-panel', severity: 'warning', partIndex, message: `${label} is not a flat panel (${curved > 0.15 ? `${Math.round(curved * 100)}% of its surface is curved or slanted` : 'parts of it stand out of the panel faces'}); its box is the best answer` });
      }
    }
    const edges = Math.max(1, c.triangles * 1.5);
    if (c.openEdges > 0) {
      const share = c.openEdges / edges;
      advice.push({ code: 'open-mesh', severity: share > 0.2 ? 'error' : share > 0.01 ? 'warning' : 'info', partIndex, message: `${label} is not a closed solid: ${c.openEdges} open edge(s) (${(share * 100).toFixed(1)}% of its edges); dimensions may be unreliable` });
    }
    if (c.nonManifoldEdges > 0) {
      const share = c.nonManifoldEdges / edges;
      advice.push({ code: 'non-manifold-edge', severity: share > 0.2 ? 'error' : share > 0.01 ? 'warning' : 'info', partIndex, message: `${label} has ${c.nonManifoldEdges} edge(s) shared by more than two faces (${(share * 100).toFixed(1)}% of its edges), often where parts touch edge to edge; dimensions may be unreliable` });
    }
  }
  checkTime('checking overlaps');
  const boxes = instances.map((inst) => boxOf(inst.comp));
  const seenPairs = new Set<string>();
  for (let i = 0; i < instances.length; i++) {
    for (let j = i + 1; j < instances.length; j++) {
      const a = instances[i].comp, b = instances[j].comp;
      // Only boxes that are the solid: a shaped part's box also holds its notches and tabs,
      // so finger joints would all read as overlaps.
      if (instances[i].role !== 'rect' || instances[j].role !== 'rect') continue;
      if (a.max[0] < b.min[0] || b.max[0] < a.min[0] || a.max[1] < b.min[1] || b.max[1] < a.min[1] || a.max[2] < b.min[2] || b.max[2] < a.min[2]) continue;
      const depth = penetration(boxes[i], boxes[j]);
      if (depth <= 0.05) continue;
      const pair = `${instances[i].row}:${instances[j].row}`;
      if (seenPairs.has(pair)) continue;
      seenPairs.add(pair);
      const fraction = depth / Math.min(a.t, b.t, a.w, b.w);
      const names = [instances[i], instances[j]].map((p) => (p.name ? `"${p.name}"` : `part ${p.row + 1}`));
      advice.push({ code: 'parts-overlap', severity: 'warning', partIndex: instances[i].row, otherPartIndex: instances[j].row, penetrationFraction: round2(Math.min(fraction, 1)), message: `${names[0]} and ${names[1]} share space (${depth.toFixed(2)} mm deep); often deliberate (joints), never a blocker` });
    }
    if (i % 64 === 0) checkTime('checking overlaps');
  }
  if (triangles > HEAVY_TRIANGLES) {
    advice.push({ code: 'model-too-heavy', severity: 'warning', message: `The model has ${triangles.toLocaleString('en')} triangles; it worked, but a coarser export would be faster` });
  }
  const flatShare = all.reduce((s, c) => s + c.flatArea + c.edgeArea, 0) / Math.max(1e-9, all.reduce((s, c) => s + c.area, 0));
  const biggest = all.reduce((m, c) => Math.max(m, c.triangles), 0);
  if (triangles > 100_000 && biggest > 0.8 * triangles && flatShare < 0.5) {
    advice.push({ code: 'scanned-mesh-file', severity: 'error', message: 'This looks like a scan or a mesh conversion (one dense, mostly curved surface), not a CAD model of parts; export the parts from the CAD model instead' });
  }

  // Whole-model size and the units sanity check.
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const c of all) for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], c.min[k]); max[k] = Math.max(max[k], c.max[k]); }
  const size = [0, 1, 2].map((k) => (all.length ? max[k] - min[k] : 0));
  const diagonal = Math.hypot(size[0], size[1], size[2]);
  const suggestedUnits = suggestUnits(options, sourceUnits, diagonal, instances);

  if (parts.length === 0) advice.push(nothingFound(all.length, debris, diagonal, sourceUnits, options.units));

  const count = (role: Role) => instances.filter((i) => i.role === role).length;
  const unrecognised = instances.filter((i) => i.role !== 'fixture' && (!i.comp.planesFound || i.comp.extent - i.comp.t > Math.max(0.5, 0.05 * i.comp.t))).length;
  return {
    version: '3',
    model: {
      format: mesh.format,
      units: options.units,
      sourceUnits,
      declaredUnits: mesh.declaredUnits,
      ...(suggestedUnits ? { suggestedUnits } : {}),
      stats: {
        parts: instances.length,
        rectangular: count('rect'),
        irregular: count('nesting'),
        unrecognised,
        fixtures: count('fixture'),
        merged: instances.length - rows.length,
        triangles,
        components: all.length,
        debris,
        modelDiagonal: out(diagonal),
        modelSize: { x: out(size[0]), y: out(size[1]), z: out(size[2]) },
      },
    },
    parts,
    advice,
    warnings: mesh.warnings,
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= SAME_SIZE_MM;
}

/** Identical geometry up to placement: measurements, triangle count, area and volume. */
function sameSolid(a: MeasuredComponent, b: MeasuredComponent): boolean {
  const rel = (x: number, y: number) => Math.abs(x - y) <= 1e-3 * Math.max(x, y) + 1e-6;
  return a.triangles === b.triangles && close(a.l, b.l) && close(a.w, b.w) && close(a.t, b.t) && rel(a.area, b.area) && rel(a.volume, b.volume);
}

function sameInstance(a: Instance, b: Instance, mirror: boolean): boolean {
  if (a.role !== b.role || (a.material ?? '') !== (b.material ?? '')) return false;
  if (!close(a.comp.l, b.comp.l) || !close(a.comp.w, b.comp.w) || !close(a.comp.t, b.comp.t)) return false;
  return sameShape(a.shape, b.shape, a.comp.l, a.comp.w, a.comp.t, mirror);
}

/** Same holes and outline under the 4 rotations of the box (and their mirror images). */
function sameShape(a: PartShape, b: PartShape, l: number, w: number, t: number, mirror: boolean): boolean {
  if (a.drill.length !== b.drill.length || a.cutouts.length !== b.cutouts.length) return false;
  if (a.drill.length === 0 && a.cutouts.length === 0 && !a.shaped && !b.shaped) return true;
  // (flipX, flipY, turnedOver): turning a part over swaps front and back faces.
  const poses: [boolean, boolean, boolean][] = [[false, false, false], [true, true, false], [false, true, true], [true, false, true]];
  if (mirror) poses.push([true, false, false], [false, true, false], [false, false, true], [true, true, true]);
  const signature = (s: PartShape, [fx, fy, over]: [boolean, boolean, boolean]) => {
    const holes = s.drill.map((h) => {
      if (h.face <= 1) {
        // A plain through bore looks the same from both faces: turning the part over changes nothing.
        const face = h.symmetric ? 0 : over ? 1 - h.face : h.face;
        return [fx ? l - h.x : h.x, fy ? w - h.y : h.y, h.diameter, face];
      }
      // Edge holes: x along the edge, y across the thickness; the edge itself may change sides.
      const across = over ? t - h.y : h.y;
      if (h.face <= 3) return [fx ? l - h.x : h.x, across, h.diameter, fy ? 5 - h.face : h.face];
      return [fy ? w - h.x : h.x, across, h.diameter, fx ? 9 - h.face : h.face];
    });
    const cuts = s.cutouts.map((ring) => {
      const xs = ring.map((p) => (fx ? l - p.x : p.x)), ys = ring.map((p) => (fy ? w - p.y : p.y));
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), -1];
    });
    return [...holes, ...cuts];
  };
  const target = signature(b, [false, false, false]);
  // Matched one to one, not sorted: holes a few µm apart in x (quantized files) sort either way.
  const same = (m: number[], o: number[]) => m.length === o.length && m.every((v, k) => Math.abs(v - o[k]) <= (k === 3 && m.length === 4 ? 0 : 0.5));
  return poses.some((pose) => {
    const left = [...target];
    return signature(a, pose).every((m) => {
      const i = left.findIndex((o) => same(m, o));
      if (i >= 0) left.splice(i, 1);
      return i >= 0;
    });
  });
}

/** Why the parts list is empty, and what to try: an empty list never comes back unexplained. */
function nothingFound(components: number, debris: number, diagonalMm: number, source: Unit, units: Unit): Advice {
  const across = `${roundIn(diagonalMm / UNITS[units], units)} ${units}`;
  // The unit that would make the model furniture-sized (0.3 to 10 m across), if another would.
  const plausible = UNIT_NAMES.filter((u) => u !== source && UNITS[u] > UNITS[source])
    .find((u) => { const d = diagonalMm * (UNITS[u] / UNITS[source]); return d >= 300 && d <= 10_000; });
  const hint = plausible ? `; if the model was drawn in ${plausible}, send sourceUnits=${plausible}` : '';
  return {
    code: 'no-parts', severity: 'error',
    message: components === 0
      ? 'No part found: the model holds no solid with a measurable face'
      : `No part found: all ${components} solid(s) read as ${source} are slivers or specks (${debris} smaller than 1 mm² or 0.5 mm long; the whole model is ${across} across)${hint}`,
  };
}

/** When the blade is an appreciable fraction of the model, name the unit that makes sense of it. */
function suggestUnits(options: AnalysisOptions, source: Unit, diagonalMm: number, instances: Instance[]): Unit | undefined {
  if (options.bladeWidth === undefined || diagonalMm <= 0) return undefined;
  const bladeMm = options.bladeWidth * UNITS[options.units];
  if (bladeMm < 0.01 * diagonalMm) return undefined;
  const thicknesses = instances.filter((i) => i.role !== 'fixture').map((i) => i.comp.t).sort((a, b) => a - b);
  const medianT = thicknesses.length ? thicknesses[thicknesses.length >> 1] : 0;
  let best: Unit | undefined;
  let bestMiss = Infinity;
  for (const unit of UNIT_NAMES) {
    const k = UNITS[unit] / UNITS[source];
    const diag = diagonalMm * k, t = medianT * k;
    if (bladeMm >= 0.01 * diag || diag < 50 || diag > 50_000) continue;
    if (thicknesses.length && (t < 1 || t > 150)) continue;
    const miss = Math.abs(Math.log((thicknesses.length ? t : diag) / (thicknesses.length ? 18 : 1000)));
    if (miss < bestMiss) { bestMiss = miss; best = unit; }
  }
  return best && best !== source ? best : undefined;
}
