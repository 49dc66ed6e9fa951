// The mesh engine's flat output (build/mesh.wasm), declared once: the engine (mesh.ts,
// mesh/measure.ts) and the service's boundary (src/analysis/mesh-engine.ts) both import these
// numbers. Plain `export const` integers only: this file compiles as AssemblyScript (each an
// inlined i32) and as TypeScript.

// ---- header ----
export const O_COMPONENTS = 0;
export const O_WELDED = 1; // welded vertices
export const O_DEGENERATE = 2; // degenerate faces
export const OUT_HEADER = 4; // one reserved

// ---- one record per component, OUT_STRIDE values; a vector takes three (x, y, z) ----
export const C_GROUP = 0;
export const C_TRIANGLES = 1;
export const C_L = 2;
export const C_W = 3;
export const C_T = 4;
export const C_ORIGIN = 5;
export const C_AXIS_L = 8; // length axis
export const C_AXIS_W = 11; // width axis
export const C_NORMAL = 14;
export const C_AREA = 17;
export const C_FLAT_AREA = 18;
export const C_EDGE_AREA = 19;
export const C_OPEN_EDGES = 20;
export const C_NON_MANIFOLD = 21;
export const C_MIN = 22; // bounding box
export const C_MAX = 25;
export const C_HULL_AREA = 28;
export const C_VERTICES = 29; // unique vertices
export const C_VOLUME = 30; // |volume|
export const C_EXTENT = 31; // extent along the normal
export const C_PLANES_FOUND = 32;
export const C_TOP_AREA = 33; // top plane area
export const C_BOTTOM_AREA = 34;
export const OUT_STRIDE = 36; // one reserved
