// Flat output layout of build/mesh.wasm; mirrored by src/analysis/mesh-engine.ts (change both).
// Header: [components, welded vertices, degenerate faces, reserved]; then one record per
// component of OUT_STRIDE f64: group, triangles, L, W, T, origin xyz, length axis xyz, width
// axis xyz, normal xyz, area, flat area, edge area, open edges, non-manifold edges, bbox min
// xyz, bbox max xyz, hull area, unique vertices, |volume|, extent along n, planes found,
// top plane area, bottom plane area, reserved.
export const OUT_HEADER: i32 = 4;
export const OUT_STRIDE: i32 = 36;
