// Wavefront OBJ: `o` and `g` blocks are parts (faces of one name are gathered even when the
// name comes back later), `usemtl` names the material; polygons are fanned into triangles;
// negative indices count back from the last vertex. No groups at all: a soup.
import { MeshBuilder, need, type ModelMesh } from './types.js';

interface Block { name?: string; material?: string; tris: number[] }

export function readObj(bytes: Uint8Array): ModelMesh {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const v: number[] = [];
  const blocks = new Map<string, Block>();
  let current: Block = { tris: [] };
  blocks.set('', current);
  let material: string | undefined;
  let named = false;
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.trim();
    if (line === '' || line[0] === '#') continue;
    const space = line.search(/\s/);
    const word = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1).trim();
    if (word === 'v') {
      const p = rest.split(/\s+/);
      need(p.length >= 3, 'OBJ', `line ${lineNo}: a vertex needs 3 coordinates`);
      v.push(Number(p[0]), Number(p[1]), Number(p[2]));
    } else if (word === 'o' || word === 'g') {
      const name = rest || '(unnamed)';
      named = true;
      let block = blocks.get(name);
      // The material comes from the block's first face: exporters write usemtl after o/g.
      if (!block) blocks.set(name, (block = { name, tris: [] }));
      current = block;
    } else if (word === 'usemtl') {
      material = rest || undefined;
    } else if (word === 'f') {
      const p = rest.split(/\s+/);
      need(p.length >= 3, 'OBJ', `line ${lineNo}: a face needs at least 3 vertices`);
      const count = v.length / 3;
      const idx = p.map((token) => {
        const i = parseInt(token, 10);
        need(Number.isInteger(i) && i !== 0, 'OBJ', `line ${lineNo}: bad vertex index "${token}"`);
        const resolved = i < 0 ? count + i : i - 1;
        need(resolved >= 0 && resolved < count, 'OBJ', `line ${lineNo}: vertex index ${i} refers to no vertex (${count} defined so far)`);
        return resolved;
      });
      if (current.tris.length === 0) current.material = material;
      for (let k = 1; k + 1 < idx.length; k++) current.tris.push(idx[0], idx[k], idx[k + 1]);
    }
  }
  const mesh = new MeshBuilder(1024);
  for (const block of blocks.values()) {
    if (block.tris.length === 0) continue;
    mesh.begin(block.name, block.material, !named);
    const t = block.tris;
    for (let i = 0; i < t.length; i += 3) {
      const a = t[i] * 3, b = t[i + 1] * 3, c = t[i + 2] * 3;
      mesh.add(v[a], v[a + 1], v[a + 2], v[b], v[b + 1], v[b + 2], v[c], v[c + 1], v[c + 2]);
    }
  }
  return mesh.finish('obj');
}
