// TS facade of the mesh engine (engine-as/mesh, built to build/mesh.wasm): corners and groups
// in, one measured record per connected part out. A fresh instance per call, so the engine's
// memory never outlives the analysis. No geometry logic lives here.
import type { MeshGroup } from '../models/types.js';
import { instantiate, loadWasm } from '../engine/common/wasm.js';

// Mirrors engine-as/mesh/layout.ts (change both together).
const OUT_HEADER = 4;
const OUT_STRIDE = 36;

export type Vec3 = [number, number, number];

export interface MeasuredComponent {
  group: number;
  triangles: number;
  /** mm, l >= w. */
  l: number;
  w: number;
  t: number;
  origin: Vec3;
  lAxis: Vec3;
  wAxis: Vec3;
  normal: Vec3;
  area: number;
  /** Area of faces parallel to the panel, and perpendicular to it. */
  flatArea: number;
  edgeArea: number;
  openEdges: number;
  nonManifoldEdges: number;
  min: Vec3;
  max: Vec3;
  hullArea: number;
  vertices: number;
  volume: number;
  /** Extent along the normal (t is measured between the two dominant planes when found). */
  extent: number;
  planesFound: boolean;
  topArea: number;
  bottomArea: number;
}

export interface EngineResult {
  components: MeasuredComponent[];
  /** Component of each triangle, -1 for degenerate ones. */
  faceComp: Int32Array;
  vertices: number;
  degenerate: number;
}

interface MeshExports {
  memory: WebAssembly.Memory;
  positionsPtr(triangles: number): number;
  groupsPtr(count: number): number;
  analyse(tolerance: number): number;
  outputPtr(): number;
  faceCompPtr(): number;
}

/** Positions in mm. */
export function runMeshEngine(positions: Float32Array, groups: MeshGroup[], tolerance: number): EngineResult {
  const engine = instantiate<MeshExports>(loadWasm('mesh'), 'mesh engine');
  const triangles = positions.length / 9;
  const pPtr = engine.positionsPtr(triangles);
  new Float32Array(engine.memory.buffer, pPtr, positions.length).set(positions);
  const gPtr = engine.groupsPtr(groups.length);
  const g = new Int32Array(engine.memory.buffer, gPtr, groups.length * 3);
  groups.forEach((group, i) => { g[i * 3] = group.start; g[i * 3 + 1] = group.count; g[i * 3 + 2] = group.soup ? 1 : 0; });
  const length = engine.analyse(tolerance);
  const out = new Float64Array(engine.memory.buffer, engine.outputPtr(), length).slice();
  const components: MeasuredComponent[] = [];
  for (let c = 0; c < out[0]; c++) {
    const o = OUT_HEADER + c * OUT_STRIDE;
    const v = (k: number): Vec3 => [out[o + k], out[o + k + 1], out[o + k + 2]];
    components.push({
      group: out[o], triangles: out[o + 1], l: out[o + 2], w: out[o + 3], t: out[o + 4],
      origin: v(5), lAxis: v(8), wAxis: v(11), normal: v(14),
      area: out[o + 17], flatArea: out[o + 18], edgeArea: out[o + 19], openEdges: out[o + 20], nonManifoldEdges: out[o + 21],
      min: v(22), max: v(25), hullArea: out[o + 28], vertices: out[o + 29], volume: out[o + 30], extent: out[o + 31],
      planesFound: out[o + 32] === 1, topArea: out[o + 33], bottomArea: out[o + 34],
    });
  }
  const faceComp = new Int32Array(engine.memory.buffer, engine.faceCompPtr(), triangles).slice();
  return { components, faceComp, vertices: out[1], degenerate: out[2] };
}
