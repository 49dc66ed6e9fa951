// Faces joined into parts. A soup group is split by joining faces only across edges used
// exactly twice: panels that touch share vertices and even edges (then used 3+ times), and
// joining through those would merge them. Structured groups stay whole. Edge uses are counted
// from the vertex-to-face lists (compact and cache-friendly, no edge hash table); they also
// give the open (1 use) and non-manifold (3+ uses) edge tallies.

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

function find(parent: Int32Array, a: i32): i32 {
  while (unchecked(parent[a]) != a) {
    const up = unchecked(parent[unchecked(parent[a])]);
    unchecked(parent[a] = up);
    a = up;
  }
  return a;
}

export function components(ids: Int32Array, vertices: i32, groups: Int32Array): Components {
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
          const ra = find(parent, f), rb = find(parent, other);
          // Union by size keeps the trees shallow.
          if (ra != rb) {
            if (unchecked(size[ra]) < unchecked(size[rb])) { unchecked(parent[ra] = rb); unchecked(size[rb] = size[rb] + size[ra]); }
            else { unchecked(parent[rb] = ra); unchecked(size[ra] = size[ra] + size[rb]); }
          }
        }
      } else if (lowest == f) unchecked(nonManifoldOf[f] = nonManifoldOf[f] + 1);
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
    const r = find(parent, f);
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
