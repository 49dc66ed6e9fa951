// glTF 2.0 and GLB: buffers from the GLB BIN chunk or data URIs (external files are never
// fetched: a warning), node transforms applied, KHR_mesh_quantization attribute types, and
// EXT_meshopt_compression views decoded with meshoptimizer's decoder. glTF is in metres.
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { MeshBuilder, ModelError, need, type FileWarning, type ModelMesh } from './types.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COUNT: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

function splitGlb(bytes: Uint8Array): { json: Json; bin?: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  need(bytes.length >= 20, 'GLB', 'shorter than its 12-byte header and first chunk');
  const total = view.getUint32(8, true);
  need(total <= bytes.length, 'GLB', `the header says ${total} bytes; the file has ${bytes.length}`);
  let json: Json;
  let bin: Uint8Array | undefined;
  for (let o = 12; o + 8 <= total;) {
    const length = view.getUint32(o, true);
    const type = view.getUint32(o + 4, true);
    need(o + 8 + length <= total, 'GLB', 'a chunk runs past the end of the file');
    const chunk = bytes.subarray(o + 8, o + 8 + length);
    if (type === 0x4e4f534a) json = parseJson(chunk);
    else if (type === 0x004e4942 && !bin) bin = chunk;
    o += 8 + length + ((4 - (length % 4)) % 4);
  }
  need(json !== undefined, 'GLB', 'no JSON chunk');
  return { json, bin };
}

function parseJson(bytes: Uint8Array): Json {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    throw new ModelError(400, `Malformed glTF file: the JSON does not parse (${(error as Error).message})`);
  }
}

type Mat = number[];
const IDENTITY: Mat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function multiply(a: Mat, b: Mat): Mat {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    out[c * 4 + r] = s;
  }
  return out;
}

function localMatrix(node: Json): Mat {
  if (Array.isArray(node.matrix) && node.matrix.length === 16) return node.matrix.map(Number);
  const [tx, ty, tz] = node.translation ?? [0, 0, 0];
  const [qx, qy, qz, qw] = node.rotation ?? [0, 0, 0, 1];
  const [sx, sy, sz] = node.scale ?? [1, 1, 1];
  // Column-major T * R * S.
  return [
    (1 - 2 * (qy * qy + qz * qz)) * sx, 2 * (qx * qy + qz * qw) * sx, 2 * (qx * qz - qy * qw) * sx, 0,
    2 * (qx * qy - qz * qw) * sy, (1 - 2 * (qx * qx + qz * qz)) * sy, 2 * (qy * qz + qx * qw) * sy, 0,
    2 * (qx * qz + qy * qw) * sz, 2 * (qy * qz - qx * qw) * sz, (1 - 2 * (qx * qx + qy * qy)) * sz, 0,
    tx, ty, tz, 1,
  ];
}

export async function readGltf(bytes: Uint8Array): Promise<ModelMesh> {
  const isGlb = bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
  const { json, bin } = isGlb ? splitGlb(bytes) : { json: parseJson(bytes), bin: undefined };
  need(typeof json === 'object' && json !== null && json.asset, 'glTF', 'no "asset" object');
  const warnings: FileWarning[] = [];
  const buffers: (Uint8Array | undefined)[] = (json.buffers ?? []).map((b: Json, i: number) => {
    if (b.uri === undefined) return i === 0 ? bin : undefined;
    const m = /^data:[^;,]*(;base64)?,(.*)$/s.exec(String(b.uri));
    if (m) return m[1] ? new Uint8Array(Buffer.from(m[2], 'base64')) : new Uint8Array(Buffer.from(decodeURIComponent(m[2]), 'latin1'));
    warnings.push({ code: 'external-buffer', message: `buffer ${i} ("${b.uri}") is an external file; it was not fetched and the meshes that use it were skipped` });
    return undefined;
  });
  const views = new Map<number, Uint8Array | undefined>();
  let decoderReady = false;
  const viewBytes = async (index: number): Promise<Uint8Array | undefined> => {
    if (views.has(index)) return views.get(index);
    const v = json.bufferViews?.[index];
    need(v !== undefined, 'glTF', `bufferView ${index} does not exist`);
    let out: Uint8Array | undefined;
    const meshopt = v.extensions?.EXT_meshopt_compression;
    if (meshopt) {
      const source = buffers[meshopt.buffer];
      if (source) {
        const start = meshopt.byteOffset ?? 0;
        need(start + meshopt.byteLength <= source.length, 'glTF', `compressed bufferView ${index} runs past its buffer`);
        need(meshopt.count * meshopt.byteStride <= 512 * 1024 * 1024, 'glTF', `compressed bufferView ${index} claims ${meshopt.count} elements`);
        if (!decoderReady) { await MeshoptDecoder.ready; decoderReady = true; }
        out = new Uint8Array(meshopt.count * meshopt.byteStride);
        try {
          MeshoptDecoder.decodeGltfBuffer(out, meshopt.count, meshopt.byteStride, source.subarray(start, start + meshopt.byteLength), meshopt.mode, meshopt.filter);
        } catch (error) {
          throw new ModelError(400, `Malformed glTF file: bufferView ${index} does not decode (${(error as Error).message})`);
        }
      }
    } else {
      const source = buffers[v.buffer];
      if (source) {
        const start = v.byteOffset ?? 0;
        need(start + v.byteLength <= source.length, 'glTF', `bufferView ${index} runs past its buffer`);
        out = source.subarray(start, start + v.byteLength);
      }
    }
    views.set(index, out);
    return out;
  };
  const accessor = async (index: number): Promise<Float64Array | undefined> => {
    const a = json.accessors?.[index];
    need(a !== undefined, 'glTF', `accessor ${index} does not exist`);
    const size = COMPONENT_SIZE[a.componentType];
    const width = TYPE_COUNT[a.type];
    need(size !== undefined && width !== undefined, 'glTF', `accessor ${index} has an unknown type`);
    if (a.bufferView === undefined) return new Float64Array(a.count * width);
    const data = await viewBytes(a.bufferView);
    if (!data) return undefined;
    const v = json.bufferViews[a.bufferView];
    const stride = v.extensions?.EXT_meshopt_compression?.byteStride ?? v.byteStride ?? size * width;
    const offset = a.byteOffset ?? 0;
    need(a.count === 0 || offset + (a.count - 1) * stride + size * width <= data.length, 'glTF', `accessor ${index} runs past its bufferView`);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const out = new Float64Array(a.count * width);
    const norm = a.normalized === true;
    for (let i = 0; i < a.count; i++) {
      for (let k = 0; k < width; k++) {
        const o = offset + i * stride + k * size;
        let value: number;
        switch (a.componentType) {
          case 5120: value = view.getInt8(o); if (norm) value = Math.max(value / 127, -1); break;
          case 5121: value = view.getUint8(o); if (norm) value /= 255; break;
          case 5122: value = view.getInt16(o, true); if (norm) value = Math.max(value / 32767, -1); break;
          case 5123: value = view.getUint16(o, true); if (norm) value /= 65535; break;
          case 5125: value = view.getUint32(o, true); break;
          default: value = view.getFloat32(o, true);
        }
        out[i * width + k] = value;
      }
    }
    return out;
  };

  const mesh = new MeshBuilder(1024);
  const nodes: Json[] = json.nodes ?? [];
  const scene = json.scenes?.[json.scene ?? 0];
  const roots: number[] = scene?.nodes ?? nodes.map((_, i) => i).filter((i) => !nodes.some((n) => n.children?.includes(i)));
  const visit = async (index: number, parent: Mat, depth: number) => {
    const node = nodes[index];
    need(node !== undefined && depth < 64, 'glTF', `node ${index} does not exist or the node tree is cyclic`);
    const world = multiply(parent, localMatrix(node));
    if (node.mesh !== undefined) {
      const m = json.meshes?.[node.mesh];
      need(m !== undefined, 'glTF', `mesh ${node.mesh} does not exist`);
      for (const prim of m.primitives ?? []) {
        if ((prim.mode ?? 4) !== 4) {
          warnings.push({ code: 'ignored-primitive', message: `a non-triangle primitive of mesh "${m.name ?? node.mesh}" was ignored` });
          continue;
        }
        if (prim.attributes?.POSITION === undefined) continue;
        const pos = await accessor(prim.attributes.POSITION);
        const idx = prim.indices !== undefined ? await accessor(prim.indices) : undefined;
        if (!pos || (prim.indices !== undefined && !idx)) continue;
        const material = prim.material !== undefined ? json.materials?.[prim.material]?.name : undefined;
        mesh.begin(node.name ?? m.name, material, false);
        const n = pos.length / 3;
        const corner = (i: number) => {
          need(i >= 0 && i < n, 'glTF', `an index refers to vertex ${i} of ${n}`);
          const x = pos[i * 3], y = pos[i * 3 + 1], z = pos[i * 3 + 2], w = world;
          return [w[0] * x + w[4] * y + w[8] * z + w[12], w[1] * x + w[5] * y + w[9] * z + w[13], w[2] * x + w[6] * y + w[10] * z + w[14]];
        };
        const count = idx ? idx.length : n;
        for (let t = 0; t + 2 < count; t += 3) {
          const a = corner(idx ? idx[t] : t), b = corner(idx ? idx[t + 1] : t + 1), c = corner(idx ? idx[t + 2] : t + 2);
          mesh.add(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
        }
      }
    }
    for (const child of node.children ?? []) await visit(child, world, depth + 1);
  };
  for (const root of roots) await visit(root, IDENTITY, 0);
  if (mesh.triangles === 0 && warnings.some((w) => w.code === 'external-buffer')) {
    throw new ModelError(400, 'The glTF file keeps its geometry in external buffers, which are not fetched; upload a GLB with embedded buffers', { warnings });
  }
  // A file with a single unnamed mesh is a soup.
  if (mesh.groups.length === 1) mesh.groups[0].soup = true;
  return mesh.finish('gltf', 'm', warnings);
}
