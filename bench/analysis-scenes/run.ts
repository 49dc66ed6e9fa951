// Generated scenes through the analysis, scored per format. Used by bench/analysis.ts (many
// seeds) and by the bounded CI test (a handful). `analyse` is the analysis under test: the
// in-process pool task for the bench, the real HTTP API for the test.
import { generateScene, truthOf, type Scene } from './scene.js';
import { addScore, emptyScore, scoreAnalysis, type AnalysedModel, type Score } from './score.js';
import { EXTENSION, FORMATS, STRUCTURED, writeScene, type SceneFormat } from './writers.js';

export interface AnalyseRequest { bytes: Uint8Array; filename: string; sourceUnits?: string }
export type Analyse = (request: AnalyseRequest) => Promise<AnalysedModel>;

/** What a user would send: the unit for files that declare none (or a glTF not in metres). */
export function requestFor(scene: Scene, format: SceneFormat, bytes: Uint8Array): AnalyseRequest {
  const declaresMetres = format.startsWith('glb');
  const sourceUnits = declaresMetres ? (scene.unit === 'm' ? undefined : scene.unit) : scene.unit === 'mm' ? undefined : scene.unit;
  return { bytes, filename: `scene-${scene.seed}.${EXTENSION[format]}`, ...(sourceUnits ? { sourceUnits } : {}) };
}

export async function scoreScenes(seeds: number[], analyse: Analyse, formats: readonly SceneFormat[] = FORMATS): Promise<Map<SceneFormat, Score>> {
  const scores = new Map<SceneFormat, Score>(formats.map((f) => [f, emptyScore()]));
  for (const seed of seeds) {
    const scene = generateScene(seed);
    const truth = truthOf(scene);
    for (const format of formats) {
      const bytes = await writeScene(scene, format);
      const reply = await analyse(requestFor(scene, format, bytes));
      addScore(scores.get(format)!, scoreAnalysis(truth, STRUCTURED.has(format), reply, `${format} seed ${seed}`));
    }
  }
  return scores;
}
