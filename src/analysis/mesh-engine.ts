// TS facade of the mesh engine (engine-as/mesh, built to build/mesh.wasm): corners and groups
// in, one measured record per connected part out. A fresh instance per call, so the engine's
// memory never outlives the analysis. No geometry logic lives here.
import type { MeshGroup } from '../models/types.js';
import { instantiate, loadWasm } from '../engine/common/wasm.js';
// The flat output, declared once for the engine and this boundary.
import * as M from '../../engine-as/mesh/layout.js';

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
  for (let c = 0; c < out[M.O_COMPONENTS]; c++) {
    const o = M.OUT_HEADER + c * M.OUT_STRIDE;
    const v = (k: number): Vec3 => [out[o + k], out[o + k + 1], out[o + k + 2]];
    components.push({
      group: out[o + M.C_GROUP], triangles: out[o + M.C_TRIANGLES], l: out[o + M.C_L], w: out[o + M.C_W], t: out[o + M.C_T],
      origin: v(M.C_ORIGIN), lAxis: v(M.C_AXIS_L), wAxis: v(M.C_AXIS_W), normal: v(M.C_NORMAL),
      area: out[o + M.C_AREA], flatArea: out[o + M.C_FLAT_AREA], edgeArea: out[o + M.C_EDGE_AREA], openEdges: out[o + M.C_OPEN_EDGES], nonManifoldEdges: out[o + M.C_NON_MANIFOLD],
      min: v(M.C_MIN), max: v(M.C_MAX), hullArea: out[o + M.C_HULL_AREA], vertices: out[o + M.C_VERTICES], volume: out[o + M.C_VOLUME], extent: out[o + M.C_EXTENT],
      planesFound: out[o + M.C_PLANES_FOUND] === 1, topArea: out[o + M.C_TOP_AREA], bottomArea: out[o + M.C_BOTTOM_AREA],
    });
  }
  const faceComp = new Int32Array(engine.memory.buffer, engine.faceCompPtr(), triangles).slice();
  return { components, faceComp, vertices: out[M.O_WELDED], degenerate: out[M.O_DEGENERATE] };
}
