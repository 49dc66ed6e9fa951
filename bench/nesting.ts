// bench/nesting: the nesting engine (facade solveNesting, no service) on the 13 classic
// ESICUP strip-packing instances in jagua-rs JSON, read at run time from /work/shared. Each
// instance is one roll as high as the strip, open along x; the engine minimises the length.
// Every layout is checked by the independent validator (test/support/validate-nesting.ts).
// Prints: instance, parts, our density, sparrow's mean density at 1200 s, the difference in
// points, and whether the layout is valid.
//
// Environment:
//   BENCH_NESTING_SECONDS    per instance, default 60
//   BENCH_NESTING_INSTANCES  comma list of names (default all)
//   BENCH_NESTING_DIR        default /work/shared/bench/instances/irregular-strip-esicup
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadNestingModule, placePoint, solveNesting, type NestingProblem } from '../src/engine/nesting.js';
import { checkPlacements, materialArea, type PlacedShape, type Pt } from '../test/support/validate-nesting.js';

const DIR = process.env.BENCH_NESTING_DIR ?? '/work/shared/bench/instances/irregular-strip-esicup';
const SECONDS = Number(process.env.BENCH_NESTING_SECONDS ?? 60);
const ONLY = (process.env.BENCH_NESTING_INSTANCES ?? '').split(',').map((s) => s.trim()).filter(Boolean);

interface JaguaItem { id: number; demand: number; allowed_orientations?: number[]; shape: { type: string; data: number[][] } }
interface JaguaInstance { name: string; strip_height: number; items: JaguaItem[] }

/** Mean of sparrow's mean densities over its 1200 s batches, by instance. */
function sparrowMeans(): Map<string, number> {
  const file = join(DIR, 'sparrow_bench_1200s.csv');
  const sums = new Map<string, { s: number; n: number }>();
  if (!existsSync(file)) return new Map();
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const cols = head.split(',');
  const at = (name: string) => cols.indexOf(name);
  for (const line of lines) {
    const f = line.split(',');
    const e = sums.get(f[at('instance')]) ?? { s: 0, n: 0 };
    e.s += Number(f[at('mean_density_pct')]);
    e.n++;
    sums.set(f[at('instance')], e);
  }
  return new Map([...sums].map(([k, v]) => [k, v.s / v.n]));
}

/** The polygon without its repeated closing point. */
function ring(data: number[][]): Pt[] {
  const pts = data.map(([x, y]) => ({ x, y }));
  const [first, last] = [pts[0], pts[pts.length - 1]];
  if (pts.length > 1 && first.x === last.x && first.y === last.y) pts.pop();
  return pts;
}

function run(file: string, sparrow: Map<string, number>): string {
  const inst = JSON.parse(readFileSync(file, 'utf8')) as JaguaInstance;
  const name = file.split('/').pop()!.replace(/\.json$/, '');
  const H = inst.strip_height;
  const CAP = 1e9;
  const problem: NestingProblem = {
    stock: [{ x0: 0, y0: 0, x1: CAP, y1: H, q: 1, area: CAP * H }],
    types: inst.items.map((it) => ({
      q: it.demand,
      angles: it.allowed_orientations ?? [0],
      mirror: false,
      stock: [0],
      rings: [ring(it.shape.data).flatMap((p) => [p.x, p.y])],
    })),
    gap: 0,
    edge: 0,
    roll: true,
    seed: 1,
    budgetMs: SECONDS * 1000,
    effort: 0,
  };
  const solution = solveNesting(problem, loadNestingModule());
  const placed: PlacedShape[] = [];
  let area = 0;
  const copies = new Map<number, number>();
  for (const item of solution.items) {
    const k = copies.get(item.type) ?? 0;
    copies.set(item.type, k + 1);
    if (item.sheet < 0) continue;
    const rings = [ring(inst.items[item.type].shape.data).map((p) => placePoint(item, p.x, p.y))];
    area += materialArea(rings);
    placed.push({ id: `${item.type}.${k}`, sheet: String(item.sheet), rings });
  }
  const length = Math.max(...placed.map((p) => Math.max(...p.rings[0].map((q) => q.x))));
  const problems = checkPlacements(placed, new Map([['0', { x0: 0, y0: 0, x1: CAP, y1: H }]]), 0, 0, H * 1e-7);
  const all = solution.items.length === placed.length;
  const density = (100 * area) / (length * H);
  const ref = sparrow.get(name);
  const valid = all && problems.length === 0 ? 'yes' : `NO (${all ? '' : 'parts left out; '}${problems.slice(0, 2).join('; ')})`;
  return `| ${name} | ${solution.items.length} | ${length.toFixed(3)} | ${density.toFixed(2)} | ${ref?.toFixed(2) ?? '-'} | ${ref === undefined ? '-' : (density - ref).toFixed(2)} | ${solution.stats.iterations} | ${solution.compaction.improved}/${solution.compaction.attempts} | ${valid} |`;
}

const sparrow = sparrowMeans();
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().filter((f) => ONLY.length === 0 || ONLY.includes(f.replace(/\.json$/, '')));
console.log(`nesting: ${files.length} ESICUP strip instances, ${SECONDS} s each (sparrow: mean density of its 1200 s runs)\n`);
console.log('| instance | parts | length | density % | sparrow 1200 s mean % | diff (points) | evaluations | compactions | valid |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const f of files) console.log(run(join(DIR, f), sparrow));
