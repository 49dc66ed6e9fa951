// STEP through occt-import-js, in a worker thread with its own hard time limit. OCCT gives one
// mesh per solid, in millimetres; the declared unit and, when the importer drops them, the
// solid names (MANIFOLD_SOLID_BREP('name', ...), file order) are read from the STEP text.
import { Worker } from 'node:worker_threads';
import { MeshBuilder, ModelError, type ModelMesh } from './types.js';
import { UNITS, type Unit } from './units.js';

interface StepMesh { name: string; positions: Float32Array; indices?: Uint32Array }

export class StepTimeout extends Error {}

const SI_PREFIX_MM: Record<string, number> = { $: 1000, '.MILLI.': 1, '.CENTI.': 10, '.DECI.': 100, '.KILO.': 1e6, '.MICRO.': 1e-3 };
const UNIT_NAME_MM: Record<string, number> = {
  INCH: 25.4, INCHES: 25.4, IN: 25.4, FOOT: 304.8, FEET: 304.8, FT: 304.8,
  MILLIMETRE: 1, MILLIMETER: 1, MM: 1, CENTIMETRE: 10, CENTIMETER: 10, CM: 10, METRE: 1000, METER: 1000, M: 1000,
};

/** The text of entity #id (up to its closing semicolon), or undefined. */
function entity(text: string, id: string): string | undefined {
  const m = new RegExp(`(?:^|[;\\s])#${id}\\s*=\\s*([^;]*);`).exec(text);
  return m?.[1];
}

/** Millimetres per unit of a length-unit entity: SI_UNIT with or without prefix, or a CONVERSION_BASED_UNIT by name or by its factor. */
function unitMm(text: string, body: string, depth = 0): number | null {
  const conversion = /CONVERSION_BASED_UNIT\s*\(\s*'([^']*)'\s*,\s*#(\d+)/i.exec(body);
  if (conversion) {
    const named = UNIT_NAME_MM[conversion[1].trim().toUpperCase()];
    if (named !== undefined) return named;
    const measure = depth < 4 ? entity(text, conversion[2]) : undefined;
    const factor = measure && /MEASURE_WITH_UNIT\s*\(\s*[A-Z_]*\s*\(\s*([-+0-9.eE]+)\s*\)\s*,\s*#(\d+)/i.exec(measure);
    if (!factor) return null;
    const base = entity(text, factor[2]);
    const baseMm = base ? unitMm(text, base, depth + 1) : null;
    return baseMm === null ? null : Number(factor[1]) * baseMm;
  }
  const si = /SI_UNIT\s*\(\s*(\.[A-Z]+\.|\$|\*)\s*,\s*\.METRE\.\s*\)/i.exec(body);
  if (si) return SI_PREFIX_MM[si[1].toUpperCase()] ?? (si[1] === '*' ? 1000 : null);
  return null;
}

/**
 * The length unit the file declares: the LENGTH_UNIT its GLOBAL_UNIT_ASSIGNED_CONTEXT names
 * (else the first length unit in the file, a conversion-based one before the SI unit it is
 * based on), read as SI_UNIT with or without prefix or CONVERSION_BASED_UNIT by name or factor.
 * Null when the file declares none or one kerf has no name for.
 */
export function declaredStepUnit(text: string): Unit | null {
  const candidates: string[] = [];
  for (const context of text.matchAll(/GLOBAL_UNIT_ASSIGNED_CONTEXT\s*\(\s*\(([^)]*)\)/gi)) {
    for (const ref of context[1].matchAll(/#(\d+)/g)) {
      const body = entity(text, ref[1]);
      if (body && /LENGTH_UNIT/i.test(body)) candidates.push(body);
    }
    if (candidates.length) break;
  }
  if (!candidates.length) {
    const units = [...text.matchAll(/#\d+\s*=\s*([^;]*LENGTH_UNIT[^;]*);/gi)].map((m) => m[1]);
    candidates.push(...units.filter((u) => /CONVERSION_BASED_UNIT/i.test(u)), ...units);
  }
  for (const body of candidates) {
    const mm = unitMm(text, body);
    if (mm === null) continue;
    const unit = (Object.keys(UNITS) as Unit[]).find((u) => Math.abs(UNITS[u] - mm) <= 1e-6 * mm);
    return unit ?? null;
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
  return mesh.finish('step', declared, [], 1 / (declared ? UNITS[declared] : 1));
}
