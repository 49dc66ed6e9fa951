// One entry for every format: detect, then the reader. Readers throw ModelError for files
// they refuse; anything else escaping a reader is a malformed file too.
import { detectFormat } from './detect.js';
import { readGltf } from './gltf.js';
import { readObj } from './obj.js';
import { readPly } from './ply.js';
import { readStep, StepTimeout } from './step.js';
import { readStl } from './stl.js';
import { ModelError, type ModelMesh } from './types.js';

export { StepTimeout };

export async function readModel(bytes: Uint8Array, filename: string | undefined, format: string | undefined, stepTimeoutMs: number): Promise<ModelMesh> {
  const detected = detectFormat(bytes, filename, format);
  let mesh: ModelMesh;
  try {
    switch (detected.format) {
      case 'stl': mesh = readStl(bytes); break;
      case 'obj': mesh = readObj(bytes); break;
      case 'ply': mesh = readPly(bytes); break;
      case 'gltf': mesh = await readGltf(bytes); break;
      case 'step': mesh = await readStep(bytes, stepTimeoutMs); break;
    }
  } catch (error) {
    if (error instanceof ModelError || error instanceof StepTimeout) throw error;
    throw new ModelError(400, `Malformed ${detected.format.toUpperCase()} file: ${(error as Error).message}`);
  }
  if (detected.warning) mesh.warnings.unshift({ code: 'format-mismatch', message: detected.warning });
  return mesh;
}
