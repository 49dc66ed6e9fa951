import { runAnalysis } from '../../src/analysis/run.js';
import { panelMesh, type PanelDesign } from './geometry.js';
import { writeScene } from './writers.js';
const design: PanelDesign = JSON.parse(process.env.DESIGN ?? '{"l":400,"w":300,"t":18,"holes":[{"x":100,"y":100,"d":10,"side":"top","depth":null}],"edgeBores":[],"cutouts":[]}');
const scene = { seed: 0, unit: 'mm' as const, items: [{ kind: 'panel' as const, name: 'p', design, solids: [{ tris: panelMesh(design), at: { r: [1, 0, 0, 0, 1, 0, 0, 0, 1], p: [0, 0, 0] as [number, number, number] } }] }] };
const bytes = await writeScene(scene, (process.env.F ?? 'obj-groups') as 'obj-groups');
const out = await runAnalysis({ kind: 'analysis', bytes, filename: 'p.' + (process.env.F?.startsWith('glb') ? 'glb' : process.env.F?.startsWith('stl') ? 'stl' : 'obj'), budgetMs: 60000, options: { units: 'mm', dedupe: true, mirrorDedupe: false, holesCut: false } });
console.log(JSON.stringify(out.ok ? { parts: out.response.parts, advice: out.response.advice, stats: out.response.model.stats } : out, null, 1).slice(0, 3000));
