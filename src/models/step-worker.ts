// Runs occt-import-js on one STEP file in its own thread, so the reader can terminate it when
// it runs past its time limit. Posts the meshes (mm, as OCCT converts) and their names.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

interface OcctMesh { name?: string; attributes: { position: { array: ArrayLike<number> } }; index?: { array: ArrayLike<number> } }
type Occt = { ReadStepFile(bytes: Uint8Array, params: unknown): { success: boolean; meshes: OcctMesh[] } };

const require = createRequire(import.meta.url);
const init = require('occt-import-js') as () => Promise<Occt>;

const occt = await init();
const result = occt.ReadStepFile(workerData.bytes as Uint8Array, null);
if (!result.success) {
  parentPort!.postMessage({ ok: false });
} else {
  const meshes = result.meshes.map((m) => ({
    name: m.name ?? '',
    positions: Float32Array.from(m.attributes.position.array),
    indices: m.index ? Uint32Array.from(m.index.array) : undefined,
  }));
  parentPort!.postMessage({ ok: true, meshes }, meshes.flatMap((m) => (m.indices ? [m.positions.buffer, m.indices.buffer] : [m.positions.buffer])));
}
