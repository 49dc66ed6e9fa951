// bench/analysis: the model analysis (reader + mesh engine + roles, dedupe and advice, as one
// pool task runs it) on a generated 2,000,000-triangle binary STL: 6,250 closed panels of 320
// triangles each (finely tessellated faces, 50 sizes, a soup to split by geometry), laid out
// on a grid without touching. Prints time and peak memory against the targets (< 4 s, < 1 GB).
//
// A second table runs a heavier kind of model: the drilled bookcase of
// test/fixtures/models/woodworking_test003_holes.stl (countersunk through holes, blind edge
// holes) repeated 140 times side by side, 1,944,320 triangles, where every drilled panel's
// outline and holes are read too.
//
// Then correctness, per format: generated cabinet scenes (bench/analysis-scenes: seeded, with
// their true cut list) in eight file flavours, and every real model in test/fixtures/models
// against its known cut list: panel rows right (L/W/T within 0.1 mm, q and role right), panels
// called fixtures, fitting pieces found as fixtures, holes right (centre within 0.1 mm,
// diameter, face, depth, type) and units right.
//
// Environment: BENCH_ANALYSIS_RUNS (default 3), BENCH_ANALYSIS_TRIANGLES (default 2,000,000),
// BENCH_ANALYSIS_SEEDS (generated scenes, default 50: seeds 1..N), BENCH_ANALYSIS_WRITE (a
// directory: also write every generated file there with its true cut list beside it).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runAnalysis } from '../src/analysis/run.js';
import type { AnalysisResponse } from '../src/analysis/types.js';
import type { Unit } from '../src/models/units.js';
import { requestFor, scoreScenes } from './analysis-scenes/run.js';
import { generateScene, truthOf } from './analysis-scenes/scene.js';
import { pct } from './analysis-scenes/score.js';
import { FORMATS, writeScene } from './analysis-scenes/writers.js';

const RUNS = Number(process.env.BENCH_ANALYSIS_RUNS ?? 3);
const TARGET = Number(process.env.BENCH_ANALYSIS_TRIANGLES ?? 2_000_000);
const GRID = 8; // face subdivisions: 4 g^2 + 8 g = 320 triangles per panel

function generate(): { bytes: Uint8Array; panels: number; triangles: number } {
  const perPanel = 4 * GRID * GRID + 8 * GRID;
  const panels = Math.floor(TARGET / perPanel);
  const triangles = panels * perPanel;
  const buf = Buffer.alloc(84 + 50 * triangles);
  buf.write('kerf bench: generated panels', 0, 'latin1');
  buf.writeUInt32LE(triangles, 80);
  let o = 84;
  const tri = (a: number[], b: number[], c: number[]) => {
    o += 12; // normal left zero: readers recompute it
    for (const p of [a, b, c]) for (const v of p) { buf.writeFloatLE(v, o); o += 4; }
    o += 2;
  };
  const columns = Math.ceil(Math.sqrt(panels));
  for (let i = 0; i < panels; i++) {
    const l = 300 + (i % 50) * 10, w = 200 + (i % 7) * 25, t = 18;
    const x0 = (i % columns) * 1000, y0 = Math.floor(i / columns) * 1000;
    const P = (u: number, v: number, z: number) => [x0 + (u / GRID) * l, y0 + (v / GRID) * w, z];
    for (let u = 0; u < GRID; u++) for (let v = 0; v < GRID; v++) {
      // top (z = t, facing up) and bottom (z = 0, facing down)
      tri(P(u, v, t), P(u + 1, v, t), P(u + 1, v + 1, t)); tri(P(u, v, t), P(u + 1, v + 1, t), P(u, v + 1, t));
      tri(P(u, v, 0), P(u + 1, v + 1, 0), P(u + 1, v, 0)); tri(P(u, v, 0), P(u, v + 1, 0), P(u + 1, v + 1, 0));
    }
    for (let k = 0; k < GRID; k++) {
      // four sides, GRID segments each, matching the face grid so the solid is closed
      tri(P(k, 0, 0), P(k + 1, 0, 0), P(k + 1, 0, t)); tri(P(k, 0, 0), P(k + 1, 0, t), P(k, 0, t));
      tri(P(k, GRID, 0), P(k + 1, GRID, t), P(k + 1, GRID, 0)); tri(P(k, GRID, 0), P(k, GRID, t), P(k + 1, GRID, t));
      tri(P(0, k, 0), P(0, k + 1, t), P(0, k + 1, 0)); tri(P(0, k, 0), P(0, k, t), P(0, k + 1, t));
      tri(P(GRID, k, 0), P(GRID, k + 1, 0), P(GRID, k + 1, t)); tri(P(GRID, k, 0), P(GRID, k + 1, t), P(GRID, k, t));
    }
  }
  return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.length), panels, triangles };
}

/** The drilled bookcase fixture, `copies` times, 1 m apart along x. */
function bookcases(copies: number): Uint8Array | undefined {
  const file = join(process.cwd(), 'test/fixtures/models/woodworking_test003_holes.stl');
  if (!existsSync(file)) return undefined;
  const src = readFileSync(file);
  const n = src.readUInt32LE(80);
  const out = Buffer.alloc(84 + 50 * n * copies);
  out.writeUInt32LE(n * copies, 80);
  for (let c = 0; c < copies; c++) {
    for (let t = 0; t < n; t++) {
      const o = 84 + (c * n + t) * 50, s = 84 + t * 50;
      src.copy(out, o, s, s + 50);
      for (let k = 0; k < 3; k++) out.writeFloatLE(src.readFloatLE(s + 12 + k * 12) + c * 1000, o + 12 + k * 12);
    }
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

async function measure(label: string, bytes: Uint8Array): Promise<{ rows: string[]; worstMs: number }> {
  const rows: string[] = [];
  let worstMs = 0;
  for (let run = 1; run <= RUNS; run++) {
    const started = performance.now();
    const outcome = await runAnalysis({
      kind: 'analysis', bytes, filename: 'bench.stl', budgetMs: 300_000, // a loaded machine must not abort the timing; the table shows the time
      options: { units: 'mm', dedupe: true, mirrorDedupe: false, holesCut: false },
    });
    const ms = performance.now() - started;
    if (!outcome.ok) throw new Error(`${label}: analysis refused: ${outcome.status} ${outcome.message}`);
    const s = outcome.response.model.stats;
    worstMs = Math.max(worstMs, ms);
    rows.push(`| ${run} | ${(ms / 1000).toFixed(2)} | ${s.triangles.toLocaleString('en')} | ${s.parts} | ${outcome.response.parts.length} | ${s.merged} |`);
  }
  return { rows, worstMs };
}

const { bytes, panels, triangles } = generate();
const { rows, worstMs } = await measure('generated panels', bytes);
const drilledBytes = bookcases(140);
const drilled = drilledBytes ? await measure('drilled bookcases', drilledBytes) : undefined;
const maxRssMb = process.resourceUsage().maxRSS / 1024;
console.log(`\nModel analysis: binary STL, ${triangles.toLocaleString('en')} triangles, ${panels} panels, ${(bytes.length / 1e6).toFixed(1)} MB\n`);
console.log('| run | seconds | triangles | parts found | rows | merged |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
if (drilled) {
  console.log('\nDrilled bookcase (test/fixtures/models/woodworking_test003_holes.stl) x 140, binary STL soup:\n');
  console.log('| run | seconds | triangles | parts found | rows | merged |');
  console.log('|---|---|---|---|---|---|');
  for (const r of drilled.rows) console.log(r);
  console.log(`\nworst time ${(drilled.worstMs / 1000).toFixed(2)} s (target < 4 s): ${drilled.worstMs < 4000 ? 'PASS' : 'FAIL'}`);
}
console.log(`\ngenerated panels: worst time ${(worstMs / 1000).toFixed(2)} s (target < 4 s): ${worstMs < 4000 ? 'PASS' : 'FAIL'}`);
console.log(`peak RSS of the whole process ${maxRssMb.toFixed(0)} MB, both generated inputs (${((bytes.length + (drilledBytes?.length ?? 0)) / 1e6).toFixed(0)} MB) included (target < 1 GB): ${maxRssMb < 1024 ? 'PASS' : 'FAIL'}`);

// ---- correctness ----

const SEEDS = Number(process.env.BENCH_ANALYSIS_SEEDS ?? 50);
const seeds = Array.from({ length: SEEDS }, (_, i) => i + 1);
async function analyseTask(bytes: Uint8Array, filename: string, sourceUnits?: string, dedupe = true): Promise<AnalysisResponse> {
  const outcome = await runAnalysis({
    kind: 'analysis', bytes, filename, budgetMs: 60_000,
    options: { units: 'mm', sourceUnits: sourceUnits as Unit | undefined, dedupe, mirrorDedupe: false, holesCut: false },
  });
  if (!outcome.ok) throw new Error(`${filename}: analysis refused: ${outcome.status} ${outcome.message}`);
  return outcome.response;
}

if (process.env.BENCH_ANALYSIS_WRITE) {
  const dir = process.env.BENCH_ANALYSIS_WRITE;
  mkdirSync(dir, { recursive: true });
  for (const seed of seeds) {
    const scene = generateScene(seed);
    for (const format of FORMATS) {
      const bytes = await writeScene(scene, format);
      const request = requestFor(scene, format, bytes);
      const file = `scene-${seed}-${format}.${request.filename.split('.').pop()}`;
      writeFileSync(join(dir, file), bytes);
      writeFileSync(join(dir, `${file}.truth.json`), JSON.stringify({ file, sourceUnits: request.sourceUnits ?? null, ...truthOf(scene) }, null, 1));
    }
  }
  console.log(`\nwrote ${seeds.length * FORMATS.length} generated files and their true cut lists to ${dir}`);
}

const started = performance.now();
const scores = await scoreScenes(seeds, (req) => analyseTask(req.bytes, req.filename, req.sourceUnits));
console.log(`\nGenerated cabinet scenes, seeds 1-${SEEDS} (${((performance.now() - started) / 1000).toFixed(0)} s): targets 100 % rows and fittings, no panel as a fixture, holes >= 99 %\n`);
console.log('| format | panel rows right | panels called fixtures | fitting pieces right | holes right | units right |');
console.log('|---|---|---|---|---|---|');
const problems: string[] = [];
for (const [format, sc] of scores) {
  console.log(`| ${format} | ${pct(sc.rowsRight, sc.rows + sc.extraRows)} (${sc.rowsRight}/${sc.rows}, ${sc.extraRows} extra) | ${sc.panelsAsFixtures} | ${pct(sc.fittingsRight, sc.fittings)} (${sc.fittingsRight}/${sc.fittings}) | ${pct(sc.holesRight, sc.holes + sc.extraHoles)} (${sc.holesRight}/${sc.holes}, ${sc.extraHoles} extra) | ${pct(sc.unitsRight, sc.units)} |`);
  problems.push(...sc.problems);
}
if (problems.length) {
  console.log(`\n${problems.length} problem(s), the first 10:`);
  for (const p of problems.slice(0, 10)) console.log(`  ${p.slice(0, 300)}`);
}

// Real models with known cut lists (test/fixtures/models, LICENSE.md there; cut lists as in
// test/integration/analysis.test.ts). Rows [l, w, t, q]; none of them holds a fitting.
type Row = [number, number, number, number];
const BOOKCASE: Row[] = [[812, 350, 18, 2], [464, 350, 18, 2], [500, 350, 18, 1], [500, 200, 3, 2], [500, 100, 3, 1]];
const CABINET: Row[] = [[600, 100, 18, 2], [600, 500, 18, 4], [600, 300, 18, 6], [464, 300, 18, 3], [500, 304, 18, 3]];
const BIG_BOX: Row[] = [[140, 82.5], [170, 170], [140, 64.5], [166.3, 162], [161.8, 71], [166.3, 71], [166.3, 71], [170, 72], [170, 60], [166, 162],
  [170, 167], [170, 167], [164, 8], [170, 170], [170, 150], [170, 75], [170, 78], [164, 72], [170, 150]].map(([l, w]) => [l, w, 3, 1]);
const REAL: [file: string, rows: Row[], units: Unit, dedupe: boolean][] = [
  ['woodworking_test003_holes.step', BOOKCASE, 'mm', true],
  ['woodworking_test003_holes.stl', BOOKCASE, 'mm', true],
  ['woodworking_test003_holes.obj', BOOKCASE, 'mm', true],
  ['woodworking_test003_holes_meshopt.glb', BOOKCASE, 'm', true],
  ['woodworking_cabinet_modular_001.step', CABINET, 'mm', true],
  ['woodworking_cabinet_modular_001.ply', CABINET, 'mm', true],
  ['woodworking_cabinet_modular_001_ascii.stl', CABINET, 'mm', true],
  ['laserconvert_var_thickness_test.stp', [[25, 25, 3, 1], [60, 60, 6, 1], [95, 95, 9, 1]], 'mm', true],
  ['laserconvert_KCBox.stp', [[58, 40, 3, 1]], 'mm', true],
  ['laserconvert_big_box_v2.stp', BIG_BOX, 'mm', false],
];
console.log('\nReal models (test/fixtures/models) against their known cut lists:\n');
console.log('| model | panel rows right | parts called fixtures | units right |');
console.log('|---|---|---|---|');
for (const [file, rows, unit, dedupe] of REAL) {
  const path = join(process.cwd(), 'test/fixtures/models', file);
  if (!existsSync(path)) continue;
  const body = await analyseTask(new Uint8Array(readFileSync(path)), file, undefined, dedupe);
  const left = body.parts.filter((p) => p.role !== 'fixture');
  let right = 0;
  for (const [l, w, t, q] of rows) {
    const i = left.findIndex((p) => Math.abs(p.l - l) <= 0.1 && Math.abs(p.w - w) <= 0.1 && Math.abs(p.t - t) <= 0.1 && p.q === q);
    if (i >= 0) { right++; left.splice(i, 1); }
  }
  const fixtures = body.parts.filter((p) => p.role === 'fixture').length;
  console.log(`| ${file} | ${pct(right, rows.length + left.length)} (${right}/${rows.length}, ${left.length} extra) | ${fixtures} | ${body.model.sourceUnits === unit ? 'yes' : `no (${body.model.sourceUnits})`} |`);
}
