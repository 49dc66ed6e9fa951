// STL: binary (count-checked against the byte length) and ASCII, where each `solid` block is
// one part and keeps its name. A file with a single block is a soup split by geometry.
import { MeshBuilder, ModelError, need, type ModelMesh } from './types.js';

export function readStl(bytes: Uint8Array): ModelMesh {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString('latin1');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 84 && 84 + 50 * view.getUint32(80, true) === bytes.length) return readBinary(bytes, view);
  if (/^\s*solid\b/.test(head)) return readAscii(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
  throw new ModelError(400, 'Malformed STL file: neither ASCII ("solid" ...) nor a binary STL whose triangle count matches its length');
}

function readBinary(bytes: Uint8Array, view: DataView): ModelMesh {
  const n = view.getUint32(80, true);
  const mesh = new MeshBuilder(n);
  mesh.begin(undefined, undefined, true);
  for (let t = 0, o = 84 + 12; t < n; t++, o += 50) {
    mesh.add(
      view.getFloat32(o, true), view.getFloat32(o + 4, true), view.getFloat32(o + 8, true),
      view.getFloat32(o + 12, true), view.getFloat32(o + 16, true), view.getFloat32(o + 20, true),
      view.getFloat32(o + 24, true), view.getFloat32(o + 28, true), view.getFloat32(o + 32, true),
    );
  }
  return mesh.finish('stl');
}

function readAscii(text: string): ModelMesh {
  const mesh = new MeshBuilder(Math.ceil(text.length / 250));
  const corners: number[] = [];
  let solids = 0;
  const re = /^[ \t]*(solid|vertex|endloop|endsolid)\b(.*)$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const word = m[1];
    if (word === 'solid') {
      solids++;
      mesh.begin(m[2].trim() || undefined, undefined, false);
      corners.length = 0;
    } else if (word === 'vertex') {
      const parts = m[2].trim().split(/\s+/);
      need(parts.length >= 3, 'STL', `a vertex line has ${parts.length} numbers instead of 3`);
      corners.push(Number(parts[0]), Number(parts[1]), Number(parts[2]));
    } else if (word === 'endloop') {
      need(corners.length >= 9, 'STL', `a facet has ${corners.length / 3} vertices; 3 are needed`);
      // A polygon loop is fanned into triangles.
      for (let k = 3; k + 6 <= corners.length; k += 3) {
        mesh.add(corners[0], corners[1], corners[2], corners[k], corners[k + 1], corners[k + 2], corners[k + 3], corners[k + 4], corners[k + 5]);
      }
      corners.length = 0;
    }
  }
  need(solids > 0, 'STL', 'no "solid" block');
  if (mesh.groups.length === 1) mesh.groups[0].soup = true;
  return mesh.finish('stl');
}
