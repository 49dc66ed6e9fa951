// kerf mesh engine entry, built to build/mesh.wasm. The host writes triangle corners (f32, mm)
// at positionsPtr(n) and groups (start, count, soup flag) at groupsPtr(g), calls analyse with
// the weld tolerance, then reads analyse()'s count of f64 values at outputPtr().
// One fresh instance per task, so the build uses the stub runtime (nothing is ever freed; the
// incremental GC's shadow stack made the hot loops about 4x slower). Layout: mesh/layout.ts.

import { weld } from "./mesh/weld";
import { components } from "./mesh/components";
import { measureAll } from "./mesh/measure";
import { OUT_HEADER, OUT_STRIDE, O_COMPONENTS, O_WELDED, O_DEGENERATE } from "./mesh/layout";

let positions = new Float32Array(0);
let groups = new Int32Array(0);
let output = new Float64Array(0);
let faceComp = new Int32Array(0);

export function positionsPtr(triangles: i32): usize {
  positions = new Float32Array(triangles * 9);
  return positions.dataStart;
}

export function groupsPtr(count: i32): usize {
  groups = new Int32Array(count * 3);
  return groups.dataStart;
}

export function analyse(tolerance: f64): i32 {
  const welded = weld(positions, tolerance);
  const comps = components(welded.ids, welded.count, groups, positions, welded.first);
  faceComp = comps.faceComp;
  output = new Float64Array(OUT_HEADER + comps.count * OUT_STRIDE);
  output[O_COMPONENTS] = <f64>comps.count;
  output[O_WELDED] = <f64>welded.count;
  output[O_DEGENERATE] = <f64>comps.degenerate;
  measureAll(positions, welded, comps, output, OUT_HEADER);
  return output.length;
}

export function outputPtr(): usize {
  return output.dataStart;
}

/** Component of each triangle (-1: degenerate), for the outline and hole reading. */
export function faceCompPtr(): usize {
  return faceComp.dataStart;
}
