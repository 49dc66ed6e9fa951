// Development driver: SEEDS=1,2,3 FORMATS=ply V=1 node dist/bench/analysis-scenes/try.js
import { runAnalysis } from '../../src/analysis/run.js';
import type { Unit } from '../../src/models/units.js';
import { scoreScenes } from './run.js';
import { pct } from './score.js';
import { FORMATS, type SceneFormat } from './writers.js';

const seeds = (process.env.SEEDS ?? '1,2,3').split(',').map(Number);
const formats = (process.env.FORMATS?.split(',') ?? FORMATS) as SceneFormat[];
const scores = await scoreScenes(seeds, async (req) => {
  const outcome = await runAnalysis({ kind: 'analysis', bytes: req.bytes, filename: req.filename, budgetMs: 60_000, options: { units: 'mm', sourceUnits: req.sourceUnits as Unit | undefined, dedupe: true, mirrorDedupe: false, holesCut: false } });
  if (!outcome.ok) throw new Error(`${req.filename}: ${outcome.message}`);
  if (process.env.DUMP) for (const p of outcome.response.parts) console.log('  part', JSON.stringify(p).slice(0, 300));
  if (process.env.DUMP) for (const a of outcome.response.advice) console.log('  advice', JSON.stringify(a).slice(0, 300));
  return outcome.response;
}, formats);
for (const [format, s] of scores) {
  console.log(`${format}: rows ${pct(s.rowsRight, s.rows + s.extraRows)} (${s.rowsRight}/${s.rows}, extra ${s.extraRows}) fittings ${pct(s.fittingsRight, s.fittings)} panelsAsFixtures ${s.panelsAsFixtures} holes ${pct(s.holesRight, s.holes + s.extraHoles)} (${s.holesRight}/${s.holes}, extra ${s.extraHoles}) units ${pct(s.unitsRight, s.units)}`);
  if (process.env.V) for (const p of s.problems.slice(0, Number(process.env.V) * 10)) console.log('   ', process.env.FULL ? p : p.slice(0, 500));
}
