// bench/nesting: the nesting engine as a roll job runs it (solveNestingRuns: ROLL_RUNS searches
// one after the other on one thread, the best kept; no HTTP service) on the 13 classic
// ESICUP strip-packing instances in jagua-rs JSON, read at run time from /work/shared. Each
// instance is one roll as high as the strip, open along x; the engine minimises the length.
// Every layout is checked by the independent validator (test/support/validate-nesting.ts).
// Prints: instance, parts, our density, sparrow's mean density at 1200 s, the difference in
// points, the density a service job gets by its default policy (no searchTime: the stall rule
// under the ceiling KERF_DEFAULT_SEARCH_MS), how long it took and why it stopped, the engine memory (the most any run grew to: a solve never frees it), and whether
// the layouts are valid.
//
// Environment:
//   BENCH_NESTING_SECONDS    per instance, default 60
//   BENCH_NESTING_INSTANCES  comma list of names (default all)
//   BENCH_NESTING_SEED       search seed, default 1
//   BENCH_NESTING_RUNS       searches per roll job (default ROLL_RUNS, what the service runs)
//   BENCH_NESTING_SEEDS      runs per instance on the clock, seeds SEED, SEED + 1, ...
//                            (default 1): density is then their mean (lowest - highest),
//                            sparrow's figure being a mean too
//   BENCH_NESTING_DIR        default /work/shared/bench/instances/irregular-strip-esicup
//   BENCH_NESTING_SVG        a folder: each strip layout is also drawn there as <instance>.svg
//   BENCH_NESTING_SHEETS=1   sheet mode instead: each instance's parts onto sheets strip height
//                            x BENCH_NESTING_SHEET_RATIO (default 0.5) times it (at least the
//                            longest part), effort-limited
//                            (BENCH_NESTING_EFFORT, default 500), with and without the sheet
//                            compaction (fitting the last sheet's parts into earlier sheets);
//                            prints sheets used and utilisation before/after, both validated.
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { placePoint, type NestingProblem } from '../src/engine/nesting/solve.js';
import { ROLL_RUNS, nestingStopReason, solveNestingRuns } from '../src/engine/nesting/runs.js';
import { SERVICE_EFFORT } from '../src/engine/nesting/problem.js';
import { loadConfig } from '../src/config.js';
import { searchPlan } from '../src/engine/common/search-policy.js';
import { checkPlacements, materialArea, type PlacedShape, type Pt } from '../test/support/validate-nesting.js';

const DIR = process.env.BENCH_NESTING_DIR ?? '/work/shared/bench/instances/irregular-strip-esicup';
const SECONDS = Number(process.env.BENCH_NESTING_SECONDS ?? 60);
const SEED = Number(process.env.BENCH_NESTING_SEED ?? 1);
const SEEDS = Math.max(1, Math.floor(Number(process.env.BENCH_NESTING_SEEDS ?? 1)));
const SVG_DIR = process.env.BENCH_NESTING_SVG;
/** The clock a service job's default search gets (KERF_DEFAULT_SEARCH_MS under KERF_JOB_BUDGET_MS, as the service reads them). */
const config = loadConfig();
/** A request without searchTime: all searchPlan reads of it. */
const SERVICE_PLAN = searchPlan({ saw: { options: {} } } as Parameters<typeof searchPlan>[0], config.jobBudgetMs, config.defaultSearchMs);
const RUNS = Math.max(1, Math.floor(Number(process.env.BENCH_NESTING_RUNS ?? ROLL_RUNS)));
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

/** The strip and its parts as an SVG, y up. */
function drawStrip(placed: PlacedShape[], length: number, height: number): string {
  const scale = 1000 / Math.max(length, height);
  const pt = (q: Pt) => `${(q.x * scale).toFixed(2)},${((height - q.y) * scale).toFixed(2)}`;
  const shapes = placed.map((p) => `<polygon points="${p.rings[0].map(pt).join(' ')}" fill="#9cf" stroke="#036" stroke-width="0.5"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${(length * scale).toFixed(0)}" height="${(height * scale).toFixed(0)}"><rect width="100%" height="100%" fill="#fff" stroke="#000"/>${shapes.join('')}</svg>\n`;
}

/** One strip solve as a roll job runs it, on the clock (effort 0) or at an effort limit: the layout's length, density and validity. */
async function solveStrip(inst: JaguaInstance, effort: number, budgetMs: number, seed: number, stopRule: NestingProblem['stopRule'] = 'effort') {
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
    seed,
    budgetMs,
    effort,
    stopRule,
  };
  const solution = solveNestingRuns(problem, RUNS);
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
  const valid = all && problems.length === 0 ? 'yes' : `NO (${all ? '' : 'parts left out; '}${problems.slice(0, 2).join('; ')})`;
  return { solution, placed, length, density: (100 * area) / (length * H), valid };
}

/**
 * The benchmark's runs on the clock (SEEDS of them), then the service's fixed effort (what a
 * job gets without searchTime). Length, evaluations and compactions are the first run's.
 */
async function run(file: string, sparrow: Map<string, number>): Promise<string> {
  const inst = JSON.parse(readFileSync(file, 'utf8')) as JaguaInstance;
  const name = file.split('/').pop()!.replace(/\.json$/, '');
  const runs = [];
  for (let k = 0; k < SEEDS; k++) runs.push(await solveStrip(inst, 0, SECONDS * 1000, SEED + k));
  const { solution, placed, length } = runs[0]!;
  if (SVG_DIR) writeFileSync(join(SVG_DIR, `${name}.svg`), drawStrip(placed, length, inst.strip_height));
  const densities = runs.map((r) => r.density);
  const density = densities.reduce((a, b) => a + b, 0) / SEEDS;
  const spread = SEEDS > 1 ? ` (${Math.min(...densities).toFixed(2)} - ${Math.max(...densities).toFixed(2)})` : '';
  const valid = runs.find((r) => r.valid !== 'yes')?.valid ?? 'yes';
  const memory = Math.max(...runs.map((r) => r.solution.memoryBytes));
  const started = performance.now();
  const service = await solveStrip(inst, SERVICE_EFFORT, SERVICE_PLAN.searchMs, SEED, 'stall');
  const serviceSeconds = (performance.now() - started) / 1000;
  const { stats } = service.solution;
  const serviceStop = nestingStopReason(stats.stop, SERVICE_PLAN);
  const ref = sparrow.get(name);
  const validity = service.valid === 'yes' ? valid : `${valid}; service default ${service.valid}`;
  return `| ${name} | ${solution.items.length} | ${length.toFixed(3)} | ${density.toFixed(2)}${spread} | ${ref?.toFixed(2) ?? '-'} | ${ref === undefined ? '-' : (density - ref).toFixed(2)} | ${service.density.toFixed(2)} (${serviceSeconds.toFixed(1)} s, ${serviceStop}) | ${solution.stats.iterations} | ${solution.compaction.improved}/${solution.compaction.attempts} | ${(memory / 2 ** 20).toFixed(0)} | ${validity} |`;
}

const SHEET_RATIO = Number(process.env.BENCH_NESTING_SHEET_RATIO ?? 0.5);
const EFFORT = Number(process.env.BENCH_NESTING_EFFORT ?? 500);

/** One sheet-mode solve: sheets used, part area, whether every part is placed and the layout valid. */
async function solveSheets(inst: JaguaInstance, L: number, H: number, sheetCompaction: boolean) {
  const problem: NestingProblem = {
    stock: [{ x0: 0, y0: 0, x1: L, y1: H, q: -1, area: L * H }],
    types: inst.items.map((it) => ({ q: it.demand, angles: it.allowed_orientations ?? [0], mirror: false, stock: [0], rings: [ring(it.shape.data).flatMap((p) => [p.x, p.y])] })),
    gap: 0, edge: 0, roll: false, seed: 1, budgetMs: SECONDS * 1000, effort: EFFORT, sheetCompaction,
  };
  const solution = await solveNestingRuns(problem);
  const placed: PlacedShape[] = [];
  let area = 0;
  solution.items.forEach((item, i) => {
    if (item.sheet < 0) return;
    const rings = [ring(inst.items[item.type].shape.data).map((p) => placePoint(item, p.x, p.y))];
    area += materialArea(rings);
    placed.push({ id: String(i), sheet: String(item.sheet), rings });
  });
  const regions = new Map(solution.sheets.map((_, s) => [String(s), { x0: 0, y0: 0, x1: L, y1: H }]));
  const problems = checkPlacements(placed, regions, 0, 0, H * 1e-7);
  const all = placed.length === solution.items.length;
  return { sheets: solution.sheets.length, util: (100 * area) / (solution.sheets.length * L * H), valid: all && problems.length === 0, left: solution.items.length - placed.length, emptied: solution.compaction.improved, ms: solution.stats.elapsedMs };
}

async function runSheets(file: string): Promise<string> {
  const inst = JSON.parse(readFileSync(file, 'utf8')) as JaguaInstance;
  const name = file.split('/').pop()!.replace(/\.json$/, '');
  const H = inst.strip_height;
  // Long enough for the longest part as given (turns are not always allowed).
  const longest = Math.max(...inst.items.map((it) => {
    const xs = it.shape.data.map(([x]) => x);
    return Math.max(...xs) - Math.min(...xs);
  }));
  const L = Math.max(H * SHEET_RATIO, Math.ceil(longest * 1.001));
  const before = await solveSheets(inst, L, H, false);
  const after = await solveSheets(inst, L, H, true);
  const n = inst.items.reduce((s, it) => s + it.demand, 0);
  const ok = (r: { valid: boolean; left: number }) => (r.valid ? 'yes' : r.left > 0 ? `${r.left} left out` : 'NO');
  return `| ${name} | ${n} | ${L} x ${H} | ${before.sheets} | ${before.util.toFixed(2)} | ${after.sheets} | ${after.util.toFixed(2)} | ${after.emptied} | ${(before.ms / 1000).toFixed(1)} / ${(after.ms / 1000).toFixed(1)} | ${ok(before)} / ${ok(after)} |`;
}

const sparrow = sparrowMeans();
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().filter((f) => ONLY.length === 0 || ONLY.includes(f.replace(/\.json$/, '')));
if (process.env.BENCH_NESTING_SHEETS === '1') {
  console.log(`nesting on sheets: ${files.length} ESICUP instances' parts on sheets ${SHEET_RATIO} x strip height long, effort ${EFFORT}, at most ${SECONDS} s per solve, seed 1\n`);
  console.log('| instance | parts | sheet | sheets before | utilisation before % | sheets after | utilisation after % | sheets freed | seconds before / after | valid before / after |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const f of files) console.log(await runSheets(join(DIR, f)));
} else {
  const seeds = SEEDS > 1 ? `seeds ${SEED} to ${SEED + SEEDS - 1}, density the mean (lowest - highest)` : `seed ${SEED}`;
  console.log(`nesting: ${files.length} ESICUP strip instances, ${SECONDS} s each, ${RUNS} runs one after the other, ${seeds} (sparrow: mean density of its 1200 s runs)\n`);
  console.log('| instance | parts | length | density % | sparrow 1200 s mean % | diff (points) | service default density % (time, stop) | evaluations | compactions | engine memory MB | valid |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const f of files) console.log(await run(join(DIR, f), sparrow));
}
