// PLY: ascii, binary little and big endian. Every count the header claims is checked against
// the bytes left before anything is allocated, so a header that lies costs nothing.
import { MeshBuilder, need, type ModelMesh } from './types.js';

const SIZES: Record<string, number> = {
  char: 1, int8: 1, uchar: 1, uint8: 1, short: 2, int16: 2, ushort: 2, uint16: 2,
  int: 4, int32: 4, uint: 4, uint32: 4, float: 4, float32: 4, double: 8, float64: 8,
};

interface Property { name: string; type: string; countType?: string }
interface Element { name: string; count: number; props: Property[] }

export function readPly(bytes: Uint8Array): ModelMesh {
  const probe = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 65536)).toString('latin1');
  const end = /end_header\r?\n/.exec(probe);
  need(end !== null, 'PLY', 'no "end_header" line in the first 64 KB');
  const bodyStart = end.index + end[0].length;
  let format = '';
  const elements: Element[] = [];
  for (const line of probe.slice(0, end.index).split(/\r?\n/)) {
    const p = line.trim().split(/\s+/);
    if (p[0] === 'format') format = p[1];
    else if (p[0] === 'element') {
      const count = Number(p[2]);
      need(Number.isSafeInteger(count) && count >= 0, 'PLY', `element "${p[1]}" has a bad count "${p[2]}"`);
      elements.push({ name: p[1], count, props: [] });
    } else if (p[0] === 'property') {
      const el = elements[elements.length - 1];
      need(el !== undefined, 'PLY', 'a property comes before any element');
      if (p[1] === 'list') {
        need(SIZES[p[2]] !== undefined && SIZES[p[3]] !== undefined, 'PLY', `unknown list types "${p[2]} ${p[3]}"`);
        el.props.push({ name: p[4], type: p[3], countType: p[2] });
      } else {
        need(SIZES[p[1]] !== undefined, 'PLY', `unknown property type "${p[1]}"`);
        el.props.push({ name: p[2], type: p[1] });
      }
    }
  }
  need(['ascii', 'binary_little_endian', 'binary_big_endian'].includes(format), 'PLY', `unknown format "${format}"`);
  const vertex = elements.find((e) => e.name === 'vertex');
  const face = elements.find((e) => e.name === 'face');
  need(vertex !== undefined && face !== undefined, 'PLY', 'a "vertex" and a "face" element are needed');
  const xyz = ['x', 'y', 'z'].map((n) => vertex.props.findIndex((p) => p.name === n));
  need(xyz.every((i) => i >= 0 && !vertex.props[i].countType), 'PLY', 'the vertex element lacks x, y or z');
  const listIndex = face.props.findIndex((p) => p.countType && (p.name === 'vertex_indices' || p.name === 'vertex_index'));
  need(listIndex >= 0, 'PLY', 'the face element has no vertex_indices list');
  const remaining = bytes.length - bodyStart;
  // The smallest possible size of each element: claims beyond the bytes are refused.
  let least = 0;
  for (const e of elements) {
    const each = format === 'ascii' ? 2 * e.props.length : e.props.reduce((s, p) => s + SIZES[p.countType ?? p.type], 0);
    least += e.count * each;
  }
  need(least <= remaining, 'PLY', `the header claims ${elements.map((e) => `${e.count} ${e.name}`).join(', ')}, `
    + `which needs at least ${least} bytes; the file has ${remaining} after the header`);
  return format === 'ascii'
    ? readAsciiBody(bytes, bodyStart, elements, vertex, face, xyz, listIndex)
    : readBinaryBody(bytes, bodyStart, elements, vertex, face, xyz, listIndex, format === 'binary_little_endian');
}

function build(positions: Float64Array, faces: number[][] | Int32Array, counts: Int32Array | null, nVertices: number): ModelMesh {
  const mesh = new MeshBuilder(1024);
  mesh.begin(undefined, undefined, true);
  const emit = (poly: ArrayLike<number>, n: number) => {
    for (let k = 0; k < n; k++) need(poly[k] >= 0 && poly[k] < nVertices, 'PLY', `a face refers to vertex ${poly[k]} of ${nVertices}`);
    const a = poly[0] * 3;
    for (let k = 1; k + 1 < n; k++) {
      const b = poly[k] * 3, c = poly[k + 1] * 3;
      mesh.add(positions[a], positions[a + 1], positions[a + 2], positions[b], positions[b + 1], positions[b + 2], positions[c], positions[c + 1], positions[c + 2]);
    }
  };
  if (counts) {
    const flat = faces as Int32Array;
    for (let f = 0, o = 0; f < counts.length; o += counts[f], f++) emit(flat.subarray(o, o + counts[f]), counts[f]);
  } else for (const poly of faces as number[][]) emit(poly, poly.length);
  return mesh.finish('ply');
}

function readAsciiBody(bytes: Uint8Array, start: number, elements: Element[], vertex: Element, face: Element, xyz: number[], listIndex: number): ModelMesh {
  const tokens = Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.length - start).toString('latin1').split(/\s+/).filter(Boolean);
  let t = 0;
  const next = () => {
    need(t < tokens.length, 'PLY', 'the file ends before the elements its header declares');
    return Number(tokens[t++]);
  };
  const positions = new Float64Array(vertex.count * 3);
  const faces: number[][] = [];
  for (const e of elements) {
    for (let i = 0; i < e.count; i++) {
      e.props.forEach((p, pi) => {
        if (p.countType) {
          const n = next();
          need(Number.isInteger(n) && n >= 0 && n <= 1000, 'PLY', `a list length of ${n}`);
          const list: number[] = [];
          for (let k = 0; k < n; k++) list.push(next());
          if (e === face && pi === listIndex) faces.push(list);
        } else {
          const value = next();
          if (e === vertex) { const axis = xyz.indexOf(pi); if (axis >= 0) positions[i * 3 + axis] = value; }
        }
      });
    }
  }
  return build(positions, faces, null, vertex.count);
}

function readBinaryBody(bytes: Uint8Array, start: number, elements: Element[], vertex: Element, face: Element, xyz: number[], listIndex: number, little: boolean): ModelMesh {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = start;
  const read = (type: string): number => {
    need(o + SIZES[type] <= bytes.length, 'PLY', 'the file ends before the elements its header declares');
    let value: number;
    switch (type) {
      case 'char': case 'int8': value = view.getInt8(o); break;
      case 'uchar': case 'uint8': value = view.getUint8(o); break;
      case 'short': case 'int16': value = view.getInt16(o, little); break;
      case 'ushort': case 'uint16': value = view.getUint16(o, little); break;
      case 'int': case 'int32': value = view.getInt32(o, little); break;
      case 'uint': case 'uint32': value = view.getUint32(o, little); break;
      case 'float': case 'float32': value = view.getFloat32(o, little); break;
      default: value = view.getFloat64(o, little);
    }
    o += SIZES[type];
    return value;
  };
  const positions = new Float64Array(vertex.count * 3);
  const counts = new Int32Array(face.count);
  let flat = new Int32Array(face.count * 3);
  let used = 0;
  for (const e of elements) {
    for (let i = 0; i < e.count; i++) {
      for (let pi = 0; pi < e.props.length; pi++) {
        const p = e.props[pi];
        if (p.countType) {
          const n = read(p.countType);
          need(n >= 0 && n <= 1000, 'PLY', `a list length of ${n}`);
          const keep = e === face && pi === listIndex;
          if (keep) {
            if (used + n > flat.length) { const g = new Int32Array(Math.max(flat.length * 2, used + n)); g.set(flat); flat = g; }
            counts[i] = n;
          }
          for (let k = 0; k < n; k++) { const value = read(p.type); if (keep) flat[used++] = value; }
        } else {
          const value = read(p.type);
          if (e === vertex) { const axis = xyz.indexOf(pi); if (axis >= 0) positions[i * 3 + axis] = value; }
        }
      }
    }
  }
  return build(positions, flat.subarray(0, used), counts, vertex.count);
}
