// Readers and the analysis task on broken input: truncated files, headers that lie, NaN
// coordinates, empty files. Every case ends in a 4xx outcome with a clear message or a
// successful analysis; nothing throws out of the task and nothing hangs.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAnalysis } from '../../src/analysis/run.js';
import { detectFormat } from '../../src/models/detect.js';
import { declaredStepUnit, solidNames } from '../../src/models/step.js';
import type { AnalysisOutcome } from '../../src/pool/task.js';

const MODELS = path.join(__dirname, '../fixtures/models');
const model = (name: string) => new Uint8Array(fs.readFileSync(path.join(MODELS, name)));

function analyse(bytes: Uint8Array, filename?: string, format?: string): Promise<AnalysisOutcome> {
  return runAnalysis({
    kind: 'analysis', bytes, filename, format, budgetMs: 10_000,
    options: { units: 'mm', dedupe: true, mirrorDedupe: false, holesCut: false },
  });
}

async function refused(bytes: Uint8Array, filename: string | undefined, status: number, pattern: RegExp) {
  const outcome = await analyse(bytes, filename);
  expect(outcome.ok, JSON.stringify(outcome).slice(0, 300)).toBe(false);
  if (!outcome.ok) {
    expect(outcome.status).toBe(status);
    expect(outcome.message).toMatch(pattern);
  }
}

function binaryStl(triangles: number[][]): Uint8Array {
  const buf = Buffer.alloc(84 + 50 * triangles.length);
  buf.writeUInt32LE(triangles.length, 80);
  triangles.forEach((t, i) => t.forEach((v, k) => buf.writeFloatLE(v, 84 + i * 50 + 12 + k * 4)));
  return new Uint8Array(buf);
}

/** A closed 100 x 50 x 18 box as 12 triangles. */
function boxTriangles(dx = 0): number[][] {
  const c = (x: number, y: number, z: number) => [x * 100 + dx, y * 50, z * 18];
  const q = (a: number[], b: number[], cc: number[], d: number[]) => [[...a, ...b, ...cc], [...a, ...cc, ...d]];
  return [
    ...q(c(0, 0, 0), c(0, 1, 0), c(1, 1, 0), c(1, 0, 0)), ...q(c(0, 0, 1), c(1, 0, 1), c(1, 1, 1), c(0, 1, 1)),
    ...q(c(0, 0, 0), c(1, 0, 0), c(1, 0, 1), c(0, 0, 1)), ...q(c(0, 1, 0), c(0, 1, 1), c(1, 1, 1), c(1, 1, 0)),
    ...q(c(0, 0, 0), c(0, 0, 1), c(0, 1, 1), c(0, 1, 0)), ...q(c(1, 0, 0), c(1, 1, 0), c(1, 1, 1), c(1, 0, 1)),
  ];
}

describe('format detection', () => {
  it('magic bytes win, the name breaks ties, and contradictions are named', () => {
    expect(detectFormat(model('woodworking_cabinet_modular_001.ply'), 'x.stl').format).toBe('ply');
    expect(detectFormat(model('woodworking_cabinet_modular_001.ply'), 'x.stl').warning).toMatch(/PLY, not STL/);
    expect(() => detectFormat(new TextEncoder().encode('solid a\nendsolid a\n'))).toThrow(/filename or format/);
    expect(detectFormat(new TextEncoder().encode('solid a\nendsolid a\n'), undefined, 'stl').format).toBe('stl');
    expect(() => detectFormat(new Uint8Array([1, 2, 3]), 'a.glb')).toThrow(/not glTF/);
    expect(() => detectFormat(new Uint8Array([1, 2, 3]), 'a.bin', 'dwg')).toThrow(/Unknown format "dwg"/);
  });

  it('reads the STEP unit and solid names from the text', () => {
    expect(declaredStepUnit('#8=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));')).toBe('mm');
    expect(declaredStepUnit('#8=( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT($,.METRE.) );')).toBe('m');
    expect(declaredStepUnit("#9=(CONVERSION_BASED_UNIT('INCH',#10) LENGTH_UNIT() NAMED_UNIT(#11));")).toBe('in');
    expect(declaredStepUnit('no units here')).toBeNull();
    expect(solidNames("#1=MANIFOLD_SOLID_BREP('Six',#2);\n#3=MANIFOLD_SOLID_BREP('it''s',#4);")).toEqual(['Six', "it's"]);
  });
});

describe('broken files end in a clear 4xx', () => {
  it('empty file', async () => refused(new Uint8Array(0), 'a.stl', 400, /empty/));

  it('truncated binary STL', async () => {
    const stl = model('woodworking_test003_holes.stl');
    await refused(stl.subarray(0, stl.length - 7), 'a.stl', 400, /binary STL/);
    await refused(stl.subarray(0, 50), 'a.stl', 400, /not an STL file/);
  });

  it('truncated ASCII STL: the complete facets are read, or a clear refusal', async () => {
    const text = model('woodworking_cabinet_modular_001_ascii.stl');
    for (const cut of [10, 300, 5000, 20000]) {
      const outcome = await analyse(text.subarray(0, cut), 'a.stl');
      if (!outcome.ok) expect(outcome.status).toBe(400);
    }
  });

  it('a PLY header claiming a billion vertices is refused without allocating them', async () => {
    const header = 'ply\nformat binary_little_endian 1.0\nelement vertex 1000000000\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n';
    const before = process.memoryUsage().rss;
    await refused(new Uint8Array(Buffer.concat([Buffer.from(header, 'latin1'), Buffer.alloc(64)])), 'a.ply', 400, /claims 1000000000 vertex/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const ascii = header.replace('binary_little_endian', 'ascii');
    await refused(new Uint8Array(Buffer.from(`${ascii}0 0 0\n`, 'latin1')), 'a.ply', 400, /claims/);
  });

  it('truncated PLY and faces pointing past the vertices', async () => {
    const ply = model('woodworking_cabinet_modular_001.ply');
    await refused(ply.subarray(0, ply.length - 20), 'a.ply', 400, /Malformed PLY/);
    await refused(ply.subarray(0, 100), 'a.ply', 400, /Malformed PLY/);
    const bad = 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n';
    await refused(new TextEncoder().encode(bad), 'a.ply', 400, /vertex 7 of 3/);
  });

  it('NaN coordinates: dropped with a warning, refused when nothing is left', async () => {
    await refused(binaryStl([[NaN, 0, 0, 1, 0, 0, 0, 1, 0]]), 'a.stl', 400, /finite/);
    const mixed = await analyse(binaryStl([...boxTriangles(), [NaN, 0, 0, 1, 0, 0, 0, 1, 0]]), 'a.stl');
    expect(mixed.ok).toBe(true);
    if (mixed.ok) {
      expect(mixed.response.warnings.map((w) => w.code)).toContain('invalid-coordinates');
      expect(mixed.response.parts).toMatchObject([{ l: 100, w: 50, t: 18, q: 1, role: 'rect' }]);
    }
    await refused(new TextEncoder().encode('v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'), 'a.obj', 400, /finite/);
  });

  it('OBJ faces with bad indices', async () => {
    await refused(new TextEncoder().encode('v 0 0 0\nv 1 0 0\nf 1 2 9\n'), 'a.obj', 400, /refers to no vertex/);
    await refused(new TextEncoder().encode('v 0 0 0\nf 1 x 2\n'), 'a.obj', 400, /Malformed OBJ/);
  });

  it('truncated or lying GLB, and external buffers', async () => {
    const glb = model('woodworking_test003_holes_meshopt.glb');
    await refused(glb.subarray(0, glb.length - 100), 'a.glb', 400, /Malformed GLB/);
    await refused(glb.subarray(0, 30), 'a.glb', 400, /Malformed GLB|JSON/);
    const external = JSON.stringify({
      asset: { version: '2.0' }, buffers: [{ uri: 'mesh.bin', byteLength: 36 }], bufferViews: [{ buffer: 0, byteLength: 36 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }], nodes: [{ mesh: 0 }], scenes: [{ nodes: [0] }],
    });
    await refused(new TextEncoder().encode(external), 'a.gltf', 400, /external buffers/);
  });

  it('a 2-triangle sliver is debris, not a part', async () => {
    const outcome = await analyse(binaryStl([...boxTriangles(), [500, 0, 0, 500.1, 0, 0, 500, 0.1, 0]]), 'a.stl');
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.response.model.stats).toMatchObject({ parts: 1, debris: 1, components: 2 });
  });

  it('random bytes under every name: never a throw, always 4xx or a result', async () => {
    await fc.assert(fc.asyncProperty(
      fc.uint8Array({ minLength: 0, maxLength: 400 }),
      fc.constantFrom('a.stl', 'a.obj', 'a.ply', 'a.glb', 'a.gltf', 'a.dae', 'a.3mf', undefined),
      async (bytes, name) => {
        const outcome = await analyse(bytes, name);
        if (!outcome.ok) {
          expect(outcome.status).toBeGreaterThanOrEqual(400);
          expect(outcome.status).toBeLessThan(500);
          expect(outcome.message.length).toBeGreaterThan(10);
        }
      },
    ), { numRuns: 300 });
  });

  it('a mutated PLY header or GLB chunk never crashes the reader', async () => {
    const ply = model('woodworking_cabinet_modular_001.ply');
    const glb = model('woodworking_test003_holes_meshopt.glb');
    await fc.assert(fc.asyncProperty(
      fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 255 }),
      async (which, at, value) => {
        const source = which ? ply : glb;
        const bytes = source.slice();
        bytes[at % Math.min(bytes.length, 400)] = value;
        const outcome = await analyse(bytes, which ? 'a.ply' : 'a.glb');
        if (!outcome.ok) expect(outcome.status).toBeLessThan(500);
      },
    ), { numRuns: 150 });
  });
});

describe('glTF details', () => {
  it('data-URI buffers, KHR_mesh_quantization int16 positions and node transforms (metres)', async () => {
    // A 600 x 400 x 18 mm box stored as int16 millimetres under a node scaled by 0.001 (metres),
    // itself under a parent translated 2 m along x.
    const corners = [[0, 0, 0], [600, 0, 0], [600, 400, 0], [0, 400, 0], [0, 0, 18], [600, 0, 18], [600, 400, 18], [0, 400, 18]];
    const index = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7];
    const buf = Buffer.alloc(8 * 8 + index.length * 2);
    corners.forEach((c, i) => c.forEach((v, k) => buf.writeInt16LE(v, i * 8 + k * 2)));
    index.forEach((v, i) => buf.writeUInt16LE(v, 64 + i * 2));
    const gltf = {
      asset: { version: '2.0' }, extensionsUsed: ['KHR_mesh_quantization'], extensionsRequired: ['KHR_mesh_quantization'],
      buffers: [{ byteLength: buf.length, uri: `data:application/octet-stream;base64,${buf.toString('base64')}` }],
      bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 64, byteStride: 8 }, { buffer: 0, byteOffset: 64, byteLength: index.length * 2 }],
      accessors: [
        { bufferView: 0, componentType: 5122, count: 8, type: 'VEC3', min: [0, 0, 0], max: [600, 400, 18] },
        { bufferView: 1, componentType: 5123, count: index.length, type: 'SCALAR' },
      ],
      meshes: [{ name: 'panel', primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
      nodes: [{ name: 'root', translation: [2, 0, 0], children: [1] }, { name: 'Door', mesh: 0, scale: [0.001, 0.001, 0.001] }],
      scenes: [{ nodes: [0] }], scene: 0,
    };
    const outcome = await analyse(new TextEncoder().encode(JSON.stringify(gltf)), 'door.gltf');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.response.model).toMatchObject({ format: 'gltf', declaredUnits: 'm', sourceUnits: 'm' });
    expect(outcome.response.parts).toEqual([{ name: 'Door', l: 600, w: 400, t: 18, q: 1, role: 'rect' }]);
    expect(outcome.response.model.stats.modelSize).toEqual({ x: 600, y: 400, z: 18 });
  });
});
