// The scene as model files: binary and ASCII STL, OBJ with and without groups, PLY with welded
// shared vertices, GLB plain, quantized (KHR_mesh_quantization) and meshopt-compressed
// (EXT_meshopt_compression, meshoptimizer's own encoder). Numbers are written in the scene's unit.
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { apply, UNIT_MM, type Item, type Placement, type Scene } from './scene.js';

export const FORMATS = ['stl-binary', 'stl-ascii', 'obj-groups', 'obj-soup', 'ply', 'glb', 'glb-quantized', 'glb-meshopt'] as const;
export type SceneFormat = typeof FORMATS[number];

/** Formats that keep one part per item; the others are soups split by geometry. */
export const STRUCTURED: ReadonlySet<SceneFormat> = new Set(['stl-ascii', 'obj-groups', 'glb', 'glb-quantized', 'glb-meshopt']);

export const EXTENSION: Record<SceneFormat, string> = {
  'stl-binary': 'stl', 'stl-ascii': 'stl', 'obj-groups': 'obj', 'obj-soup': 'obj', ply: 'ply', glb: 'glb', 'glb-quantized': 'glb', 'glb-meshopt': 'glb',
};

/** Triangles of an item in world coordinates, in the scene's unit. */
function worldTris(item: Item, scale: number): number[] {
  const out: number[] = [];
  for (const s of item.solids) {
    const t = s.tris;
    for (let i = 0; i < t.length; i += 3) out.push(...apply(s.at, t[i], t[i + 1], t[i + 2]).map((v) => v / scale));
  }
  return out;
}

/** Shared vertices by exact-ish position (1e-9 of the unit). */
function weld(tris: number[]): { vertices: number[]; indices: number[] } {
  const ids = new Map<string, number>();
  const vertices: number[] = [], indices: number[] = [];
  for (let i = 0; i < tris.length; i += 3) {
    const key = `${Math.round(tris[i] * 1e6)},${Math.round(tris[i + 1] * 1e6)},${Math.round(tris[i + 2] * 1e6)}`;
    let id = ids.get(key);
    if (id === undefined) { id = vertices.length / 3; ids.set(key, id); vertices.push(tris[i], tris[i + 1], tris[i + 2]); }
    indices.push(id);
  }
  return { vertices, indices };
}

const fmt = (v: number) => (Math.abs(v) < 1e-12 ? '0' : v.toPrecision(10));

export async function writeScene(scene: Scene, format: SceneFormat): Promise<Uint8Array> {
  const scale = UNIT_MM[scene.unit];
  const items = scene.items.map((item, i) => ({ item, name: item.name ?? `part ${i + 1}`, tris: worldTris(item, scale) }));
  switch (format) {
    case 'stl-binary': {
      const n = items.reduce((s, i) => s + i.tris.length / 9, 0);
      const buf = Buffer.alloc(84 + 50 * n);
      buf.write('kerf scene generator', 0, 'latin1');
      buf.writeUInt32LE(n, 80);
      let o = 84;
      for (const { tris } of items) {
        for (let i = 0; i < tris.length; i += 9) {
          o += 12;
          for (let k = 0; k < 9; k++) { buf.writeFloatLE(tris[i + k], o); o += 4; }
          o += 2;
        }
      }
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
    }
    case 'stl-ascii': {
      const lines: string[] = [];
      for (const { name, tris } of items) {
        lines.push(`solid ${name}`);
        for (let i = 0; i < tris.length; i += 9) {
          lines.push('  facet normal 0 0 0', '    outer loop');
          for (let k = 0; k < 9; k += 3) lines.push(`      vertex ${fmt(tris[i + k])} ${fmt(tris[i + k + 1])} ${fmt(tris[i + k + 2])}`);
          lines.push('    endloop', '  endfacet');
        }
        lines.push(`endsolid ${name}`);
      }
      return Buffer.from(lines.join('\n') + '\n', 'latin1');
    }
    case 'obj-groups':
    case 'obj-soup': {
      const all = weld(items.flatMap((i) => i.tris));
      const lines = ['# kerf scene generator'];
      for (let v = 0; v < all.vertices.length; v += 3) lines.push(`v ${fmt(all.vertices[v])} ${fmt(all.vertices[v + 1])} ${fmt(all.vertices[v + 2])}`);
      let corner = 0;
      for (const { item, name, tris } of items) {
        if (format === 'obj-groups') {
          lines.push(`o ${name}`);
          // usemtl holds until the next one: every object names its own.
          lines.push(`usemtl ${item.material ?? 'board'}`);
        }
        for (let i = 0; i < tris.length / 3; i += 3, corner += 3) lines.push(`f ${all.indices[corner] + 1} ${all.indices[corner + 1] + 1} ${all.indices[corner + 2] + 1}`);
      }
      return Buffer.from(lines.join('\n') + '\n', 'utf8');
    }
    case 'ply': {
      const all = weld(items.flatMap((i) => i.tris));
      const nv = all.vertices.length / 3, nf = all.indices.length / 3;
      const header = `ply\nformat binary_little_endian 1.0\ncomment kerf scene generator\nelement vertex ${nv}\nproperty float x\nproperty float y\nproperty float z\nelement face ${nf}\nproperty list uchar int vertex_indices\nend_header\n`;
      const body = Buffer.alloc(nv * 12 + nf * 13);
      let o = 0;
      for (const v of all.vertices) { body.writeFloatLE(v, o); o += 4; }
      for (let f = 0; f < nf; f++) {
        body.writeUInt8(3, o++);
        for (let k = 0; k < 3; k++) { body.writeInt32LE(all.indices[f * 3 + k], o); o += 4; }
      }
      return Buffer.concat([Buffer.from(header, 'latin1'), body]);
    }
    default:
      return writeGlb(scene, format);
  }
}

// ---- GLB ----

interface Chunked { json: Record<string, unknown>; bin: Buffer }

function invert(at: Placement): Placement {
  const r = at.r;
  const t = [r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]];
  const p = at.p;
  return { r: t, p: [-(t[0] * p[0] + t[1] * p[1] + t[2] * p[2]), -(t[3] * p[0] + t[4] * p[1] + t[5] * p[2]), -(t[6] * p[0] + t[7] * p[1] + t[8] * p[2])] };
}

/** Column-major 4x4 of a placement, scaled into the file's unit. */
function matrix(at: Placement, scale: number, inner: number[] = [1, 1, 1], offset: number[] = [0, 0, 0]): number[] {
  const r = at.r;
  // world = R * (s * q + offset) + p, all divided by the unit.
  const m = [
    r[0] * inner[0], r[3] * inner[0], r[6] * inner[0], 0,
    r[1] * inner[1], r[4] * inner[1], r[7] * inner[1], 0,
    r[2] * inner[2], r[5] * inner[2], r[8] * inner[2], 0,
    0, 0, 0, 1,
  ];
  const p = apply(at, offset[0], offset[1], offset[2]);
  for (let k = 0; k < 12; k++) m[k] /= scale;
  m[12] = p[0] / scale; m[13] = p[1] / scale; m[14] = p[2] / scale;
  return m;
}

async function writeGlb(scene: Scene, format: SceneFormat): Promise<Uint8Array> {
  const scale = UNIT_MM[scene.unit];
  const quantized = format !== 'glb';
  const meshopt = format === 'glb-meshopt';
  if (meshopt) await MeshoptEncoder.ready;
  const chunks: Buffer[] = [];
  let binLength = 0;
  const bufferViews: Record<string, unknown>[] = [];
  const accessors: Record<string, unknown>[] = [];
  const nodes: Record<string, unknown>[] = [];
  const meshes: Record<string, unknown>[] = [];
  const materials: { name: string }[] = [];
  const push = (data: Buffer) => {
    const start = binLength;
    chunks.push(data);
    binLength += data.length;
    const pad = (4 - (binLength % 4)) % 4;
    if (pad) { chunks.push(Buffer.alloc(pad)); binLength += pad; }
    return start;
  };
  let fallbackLength = 0;
  const view = (data: Buffer, stride: number | undefined, count: number, mode: 'ATTRIBUTES' | 'TRIANGLES', target: number) => {
    if (!meshopt) {
      bufferViews.push({ buffer: 0, byteOffset: push(data), byteLength: data.length, ...(stride ? { byteStride: stride } : {}), target });
    } else {
      const size = mode === 'ATTRIBUTES' ? stride! : 4;
      const encoded = Buffer.from(MeshoptEncoder.encodeGltfBuffer(new Uint8Array(data.buffer, data.byteOffset, data.length), count, size, mode));
      const offset = push(encoded);
      bufferViews.push({
        buffer: 1, byteOffset: fallbackLength, byteLength: data.length, ...(stride ? { byteStride: stride } : {}), target,
        extensions: { EXT_meshopt_compression: { buffer: 0, byteOffset: offset, byteLength: encoded.length, byteStride: size, count, mode } },
      });
      fallbackLength += data.length + ((4 - (data.length % 4)) % 4);
    }
    return bufferViews.length - 1;
  };
  scene.items.forEach((item, index) => {
    // Quantized files keep each item in its first solid's frame, as exporters quantize per mesh.
    const frame = item.solids[0].at;
    const toFrame = invert(frame);
    const local: number[] = [];
    for (const s of item.solids) for (let i = 0; i < s.tris.length; i += 3) {
      const w = apply(s.at, s.tris[i], s.tris[i + 1], s.tris[i + 2]);
      local.push(...apply(toFrame, ...w));
    }
    const { vertices, indices } = weld(local);
    const n = vertices.length / 3;
    let positions: Buffer, stride: number, min: number[], max: number[], componentType: number, normalized = false;
    let nodeMatrix: number[];
    if (!quantized) {
      positions = Buffer.alloc(n * 12);
      stride = 12;
      // Plain files carry world coordinates (in the unit) and no transform.
      const world: number[] = [];
      for (let v = 0; v < n; v++) world.push(...apply(frame, vertices[v * 3], vertices[v * 3 + 1], vertices[v * 3 + 2]).map((x) => x / scale));
      world.forEach((x, i) => positions.writeFloatLE(x, i * 4));
      min = [0, 1, 2].map((k) => Math.min(...world.filter((_, i) => i % 3 === k)));
      max = [0, 1, 2].map((k) => Math.max(...world.filter((_, i) => i % 3 === k)));
      componentType = 5126;
      nodeMatrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    } else {
      // int16 normalized in the item's box; the node scales and moves it back.
      const lo = [0, 1, 2].map((k) => Math.min(...vertices.filter((_, i) => i % 3 === k)));
      const hi = [0, 1, 2].map((k) => Math.max(...vertices.filter((_, i) => i % 3 === k)));
      const span = [0, 1, 2].map((k) => Math.max(hi[k] - lo[k], 1e-6));
      positions = Buffer.alloc(n * 8);
      stride = 8;
      for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) positions.writeInt16LE(Math.round(((vertices[v * 3 + k] - lo[k]) / span[k]) * 32767), v * 8 + k * 2);
      min = [0, 0, 0]; max = [32767, 32767, 32767];
      componentType = 5122;
      normalized = true;
      nodeMatrix = matrix(frame, scale, span, lo);
    }
    const pv = view(positions, stride, n, 'ATTRIBUTES', 34962);
    accessors.push({ bufferView: pv, componentType, normalized, count: n, type: 'VEC3', min, max });
    const pAcc = accessors.length - 1;
    const idx = Buffer.alloc(indices.length * 4);
    indices.forEach((v, i) => idx.writeUInt32LE(v, i * 4));
    const iv = view(idx, undefined, indices.length, 'TRIANGLES', 34963);
    accessors.push({ bufferView: iv, componentType: 5125, count: indices.length, type: 'SCALAR' });
    let material: number | undefined;
    if (item.material) {
      material = materials.findIndex((m) => m.name === item.material);
      if (material < 0) { materials.push({ name: item.material }); material = materials.length - 1; }
    }
    meshes.push({ primitives: [{ attributes: { POSITION: pAcc }, indices: accessors.length - 1, ...(material !== undefined ? { material } : {}) }] });
    nodes.push({ name: item.name ?? `part ${index + 1}`, mesh: meshes.length - 1, matrix: nodeMatrix });
  });
  const buffers: Record<string, unknown>[] = [{ byteLength: binLength }];
  if (meshopt) buffers.push({ byteLength: fallbackLength, extensions: { EXT_meshopt_compression: { fallback: true } } });
  const used = [...(quantized ? ['KHR_mesh_quantization'] : []), ...(meshopt ? ['EXT_meshopt_compression'] : [])];
  const json = {
    asset: { version: '2.0', generator: 'kerf scene generator' },
    ...(used.length ? { extensionsUsed: used, extensionsRequired: used } : {}),
    scene: 0, scenes: [{ nodes: nodes.map((_, i) => i) }], nodes, meshes, accessors, bufferViews, buffers,
    ...(materials.length ? { materials } : {}),
  };
  return glb({ json, bin: Buffer.concat(chunks) });
}

function glb({ json, bin }: Chunked): Uint8Array {
  let text = Buffer.from(JSON.stringify(json), 'utf8');
  if (text.length % 4) text = Buffer.concat([text, Buffer.alloc(4 - (text.length % 4), 0x20)]);
  const binPadded = bin.length % 4 ? Buffer.concat([bin, Buffer.alloc(4 - (bin.length % 4))]) : bin;
  const total = 12 + 8 + text.length + 8 + binPadded.length;
  const head = Buffer.alloc(12);
  head.write('glTF', 0, 'latin1'); head.writeUInt32LE(2, 4); head.writeUInt32LE(total, 8);
  const jh = Buffer.alloc(8); jh.writeUInt32LE(text.length, 0); jh.writeUInt32LE(0x4e4f534a, 4);
  const bh = Buffer.alloc(8); bh.writeUInt32LE(binPadded.length, 0); bh.writeUInt32LE(0x004e4942, 4);
  const out = Buffer.concat([head, jh, text, bh, binPadded]);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
