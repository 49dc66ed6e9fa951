// STEP through occt-import-js, in a worker thread with its own hard time limit. OCCT gives one
// mesh per solid, in millimetres; the declared unit and, when the importer drops them, the
// solid names (MANIFOLD_SOLID_BREP('name', ...), file order) are read from the STEP text.
import { Worker } from 'node:worker_threads';
import { MeshBuilder, ModelError, type ModelMesh } from './types.js';
import type { Unit } from './units.js';

interface StepMesh { name: string; positions: Float32Array; indices?: Uint32Array }

export class StepTimeout extends Error {}

export function declaredStepUnit(text: string): Unit | null {
  const m = /LENGTH_UNIT\s*\(\s*\)[^;]*?SI_UNIT\s*\(\s*(\.[A-Z]+\.|\$)\s*,\s*\.METRE\.\s*\)|SI_UNIT\s*\(\s*(\.[A-Z]+\.|\$)\s*,\s*\.METRE\.\s*\)[^;]*?LENGTH_UNIT/.exec(text);
  if (m) {
    const prefix = m[1] ?? m[2];
    return prefix === '.MILLI.' ? 'mm' : prefix === '.CENTI.' ? 'cm' : prefix === '$' ? 'm' : null;
  }
  const c = /CONVERSION_BASED_UNIT\s*\(\s*'(INCH|FOOT|MILLIMETRE|METRE)'[^;]*LENGTH_UNIT|LENGTH_UNIT[^;]*CONVERSION_BASED_UNIT\s*\(\s*'(INCH|FOOT)'/i.exec(text);
  if (c) {
    const name = (c[1] ?? c[2]).toUpperCase();
    return name === 'INCH' ? 'in' : name === 'FOOT' ? 'ft' : name === 'METRE' ? 'm' : 'mm';
  }
  return null;
}

export function solidNames(text: string): string[] {
  return [...text.matchAll(/MANIFOLD_SOLID_BREP\s*\(\s*'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"));
}

function runImporter(bytes: Uint8Array, timeoutMs: number): Promise<StepMesh[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./step-worker.js', import.meta.url), { workerData: { bytes } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new StepTimeout(`the STEP import ran past its ${Math.round(timeoutMs / 1000)} s limit and was stopped`));
    }, timeoutMs);
    worker.once('message', (message: { ok: boolean; meshes?: StepMesh[] }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (message.ok) resolve(message.meshes!);
      else reject(new ModelError(400, 'Malformed STEP file: the importer could not read it'));
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(new ModelError(400, `Malformed STEP file: the importer failed (${error.message})`));
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new ModelError(400, `Malformed STEP file: the importer stopped (exit code ${code})`));
    });
  });
}

export async function readStep(bytes: Uint8Array, timeoutMs: number): Promise<ModelMesh> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!/\bDATA\s*;/.test(text) || !/END-ISO-10303-21/.test(text)) {
    throw new ModelError(400, 'Malformed STEP file: no DATA section or no END-ISO-10303-21 (is the file truncated?)');
  }
  const meshes = await runImporter(bytes, timeoutMs);
  const declared = declaredStepUnit(text);
  const names = solidNames(text);
  const own = meshes.map((m) => m.name.trim());
  // Plasticity-style files: every mesh carries the one product name (or none).
  const useText = names.length === meshes.length && names.some((n) => n.trim() !== '') && own.every((n) => n === own[0]);
  const mesh = new MeshBuilder(meshes.reduce((s, m) => s + (m.indices ? m.indices.length : m.positions.length / 3) / 3, 0));
  meshes.forEach((m, i) => {
    mesh.begin((useText ? names[i] : own[i]) || names[i] || undefined, undefined, false);
    const p = m.positions;
    const idx = m.indices;
    const count = idx ? idx.length : p.length / 3;
    for (let t = 0; t + 2 < count; t += 3) {
      const a = (idx ? idx[t] : t) * 3, b = (idx ? idx[t + 1] : t + 1) * 3, c = (idx ? idx[t + 2] : t + 2) * 3;
      mesh.add(p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2]);
    }
  });
  // OCCT works in millimetres; the numbers in the file are in the declared unit.
  return mesh.finish('step', declared, [], 1 / (declared ? { mm: 1, cm: 10, m: 1000, in: 25.4, ft: 304.8 }[declared] : 1));
}
