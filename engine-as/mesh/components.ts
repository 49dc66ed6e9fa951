// Faces joined into parts. A soup group is split by joining faces across edges used exactly
// twice, and across edges used more often (solids that touch along an edge, a hinge cup whose
// faces coincide with its bore's) only to the face that closes the same solid: turning about
// the edge from the face into its solid's inside, the first face that runs the edge the other
// way. Faces lying on each other (angle 0) are two solids touching, never one. Structured
// groups stay whole. Edge uses are counted from the vertex-to-face lists (compact and
// cache-friendly, no edge hash table); they also give the open (1 use) and non-manifold (3+
// uses) edge tallies.

import { findRoot } from "../common/union-find";

export class Components {
  faceComp: Int32Array;   // component per face, -1 for degenerate faces
  count: i32 = 0;
  open: Int32Array = new Int32Array(0);        // per component
  nonManifold: Int32Array = new Int32Array(0);
  group: Int32Array = new Int32Array(0);
  degenerate: i32 = 0;
  constructor(faces: i32) {
    this.faceComp = new Int32Array(faces);
  }
}

export function components(ids: Int32Array, vertices: i32, groups: Int32Array, pos: Float32Array, first: Int32Array): Components {
  const faces = ids.length / 3;
  const out = new Components(faces);
  const faceGroup = new Int32Array(faces);
  const ng = groups.length / 3;
  for (let g = 0; g < ng; g++) {
    const start = groups[g * 3], n = groups[g * 3 + 1];
    for (let f = start; f < start + n; f++) unchecked(faceGroup[f] = g);
  }
  const parent = new Int32Array(faces);
  const degenerate = new Uint8Array(faces);
  const size = new Int32Array(faces);
  for (let f = 0; f < faces; f++) {
    unchecked(parent[f] = f);
    unchecked(size[f] = 1);
    const a = unchecked(ids[f * 3]), b = unchecked(ids[f * 3 + 1]), c = unchecked(ids[f * 3 + 2]);
    if (a == b || b == c || a == c) { unchecked(degenerate[f] = 1); out.degenerate++; }
  }
  // Vertex -> faces (CSR).
  const vStart = new Int32Array(vertices + 1);
  for (let i = 0; i < faces * 3; i++) {
    if (unchecked(degenerate[i / 3])) continue;
    const v = unchecked(ids[i]);
    unchecked(vStart[v + 1] = vStart[v + 1] + 1);
  }
  for (let v = 0; v < vertices; v++) unchecked(vStart[v + 1] = vStart[v + 1] + vStart[v]);
  const vFill = new Int32Array(vertices);
  const vFaces = new Int32Array(unchecked(vStart[vertices]));
  for (let i = 0; i < faces * 3; i++) {
    const f = i / 3;
    if (unchecked(degenerate[f])) continue;
    const v = unchecked(ids[i]);
    unchecked(vFaces[vStart[v] + vFill[v]] = f);
    unchecked(vFill[v] = vFill[v] + 1);
  }
  // Per face edge: the faces of the same group that use it too.
  const openOf = new Int32Array(faces);
  const nonManifoldOf = new Int32Array(faces);
  for (let f = 0; f < faces; f++) {
    if (unchecked(degenerate[f])) continue;
    const g = unchecked(faceGroup[f]);
    for (let k = 0; k < 3; k++) {
      const a = unchecked(ids[f * 3 + k]);
      const b = unchecked(ids[f * 3 + (k + 1) % 3]);
      let uses = 1, other = -1, lowest = f;
      for (let j = unchecked(vStart[a]), e = unchecked(vStart[a + 1]); j < e; j++) {
        const h = unchecked(vFaces[j]);
        if (h == f || unchecked(faceGroup[h]) != g) continue;
        if (unchecked(ids[h * 3]) == b || unchecked(ids[h * 3 + 1]) == b || unchecked(ids[h * 3 + 2]) == b) {
          uses++;
          other = h;
          if (h < lowest) lowest = h;
        }
      }
      if (uses == 1) unchecked(openOf[f] = openOf[f] + 1);
      else if (uses == 2) {
        if (groups[g * 3 + 2] != 0 && other > f) {
          const ra = findRoot(parent, f), rb = findRoot(parent, other);
          // Union by size keeps the trees shallow.
          if (ra != rb) {
            if (unchecked(size[ra]) < unchecked(size[rb])) { unchecked(parent[ra] = rb); unchecked(size[rb] = size[rb] + size[ra]); }
            else { unchecked(parent[rb] = ra); unchecked(size[ra] = size[ra] + size[rb]); }
          }
        }
      } else {
        if (lowest == f) unchecked(nonManifoldOf[f] = nonManifoldOf[f] + 1);
        if (groups[g * 3 + 2] != 0) {
          const partner = closingFace(ids, pos, first, vStart, vFaces, faceGroup, f, k);
          if (partner >= 0) {
            const ra = findRoot(parent, f), rb = findRoot(parent, partner);
            if (ra != rb) {
              if (unchecked(size[ra]) < unchecked(size[rb])) { unchecked(parent[ra] = rb); unchecked(size[rb] = size[rb] + size[ra]); }
              else { unchecked(parent[rb] = ra); unchecked(size[ra] = size[ra] + size[rb]); }
            }
          }
        }
      }
    }
  }
  // Structured groups: one component each (first non-degenerate face as root).
  for (let g = 0; g < ng; g++) {
    if (groups[g * 3 + 2] != 0) continue;
    const start = groups[g * 3], n = groups[g * 3 + 1];
    let root = -1;
    for (let f = start; f < start + n; f++) {
      if (unchecked(degenerate[f])) continue;
      if (root < 0) root = f;
      unchecked(parent[f] = root);
    }
  }
  const label = new Int32Array(faces).fill(-1);
  let count = 0;
  for (let f = 0; f < faces; f++) {
    if (unchecked(degenerate[f])) { unchecked(out.faceComp[f] = -1); continue; }
    const r = findRoot(parent, f);
    if (unchecked(label[r]) < 0) unchecked(label[r] = count++);
    unchecked(out.faceComp[f] = label[r]);
  }
  out.count = count;
  out.open = new Int32Array(count);
  out.nonManifold = new Int32Array(count);
  out.group = new Int32Array(count);
  for (let f = 0; f < faces; f++) {
    const c = unchecked(out.faceComp[f]);
    if (c < 0) continue;
    unchecked(out.group[c] = faceGroup[f]);
    unchecked(out.open[c] = out.open[c] + openOf[f]);
    unchecked(out.nonManifold[c] = out.nonManifold[c] + nonManifoldOf[f]);
  }
  return out;
}

/** Position of welded vertex v, coordinate k. */
// @ts-ignore: decorator
@inline function at(pos: Float32Array, first: Int32Array, v: i32, k: i32): f64 {
  return <f64>unchecked(pos[unchecked(first[v]) * 3 + k]);
}

/**
 * For face f's edge k (a -> b) used by more than two faces: the face of the same group running
 * b -> a that f meets first when turning about the edge into f's inside (behind its normal);
 * -1 when there is none. A face lying on f (angle 0) counts as a full turn.
 */
function closingFace(ids: Int32Array, pos: Float32Array, first: Int32Array, vStart: Int32Array, vFaces: Int32Array, faceGroup: Int32Array, f: i32, k: i32): i32 {
  const a = unchecked(ids[f * 3 + k]), b = unchecked(ids[f * 3 + (k + 1) % 3]), c = unchecked(ids[f * 3 + (k + 2) % 3]);
  const ax = at(pos, first, a, 0), ay = at(pos, first, a, 1), az = at(pos, first, a, 2);
  let ex = at(pos, first, b, 0) - ax, ey = at(pos, first, b, 1) - ay, ez = at(pos, first, b, 2) - az;
  const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (!(el > 0)) return -1;
  ex /= el; ey /= el; ez /= el;
  // In-face direction away from the edge, and the face normal (a -> b -> c).
  let ux = at(pos, first, c, 0) - ax, uy = at(pos, first, c, 1) - ay, uz = at(pos, first, c, 2) - az;
  let d = ux * ex + uy * ey + uz * ez;
  ux -= d * ex; uy -= d * ey; uz -= d * ez;
  let ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (!(ul > 0)) return -1;
  ux /= ul; uy /= ul; uz /= ul;
  const nx = ey * uz - ez * uy, ny = ez * ux - ex * uz, nz = ex * uy - ey * ux;
  const g = unchecked(faceGroup[f]);
  let best = -1, bestAngle = Infinity;
  for (let j = unchecked(vStart[a]), e = unchecked(vStart[a + 1]); j < e; j++) {
    const h = unchecked(vFaces[j]);
    if (h == f || unchecked(faceGroup[h]) != g) continue;
    // h must run b -> a.
    let third = -1;
    for (let m = 0; m < 3; m++) {
      if (unchecked(ids[h * 3 + m]) == b && unchecked(ids[h * 3 + (m + 1) % 3]) == a) third = unchecked(ids[h * 3 + (m + 2) % 3]);
    }
    if (third < 0) continue;
    let vx = at(pos, first, third, 0) - ax, vy = at(pos, first, third, 1) - ay, vz = at(pos, first, third, 2) - az;
    d = vx * ex + vy * ey + vz * ez;
    vx -= d * ex; vy -= d * ey; vz -= d * ez;
    const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
    if (!(vl > 0)) continue;
    // Angle from u towards -n (into f's solid).
    let angle = Math.atan2(-(vx * nx + vy * ny + vz * nz) / vl, (vx * ux + vy * uy + vz * uz) / vl);
    if (angle < 0) angle += 2 * Math.PI;
    // Float32 corners: faces within 0.06 degrees of each other lie on each other.
    if (angle < 1e-3) angle = 2 * Math.PI;
    if (angle < bestAngle) { bestAngle = angle; best = h; }
  }
  return best;
}
