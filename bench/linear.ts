// bench/linear: the linear (1D) engine (facade solveLinear, no service) on BPPLIB in CSP
// format, read at run time from /work/shared (licence CC BY-NC-ND: internal evaluation only,
// never copied into the project), beside the optimum from Bounds_BPPLib.jl_2021.txt and the
// packingsolver anchors measured on this machine (ANCHORS.md). Prints a markdown table.
//
// Environment:
//   BENCH_LINEAR_LIMIT_MS  per-instance budget, default 1000
//   BENCH_LINEAR_EFFORT    per-instance LP pivot limit (default 0, none): with a budget no
//                          run reaches, results that do not move with machine load
//   BENCH_LINEAR_FULL=1    every instance (about 2,000; up to ~35 min at 1 s)
//   BENCH_LINEAR_SETS      comma list of set names below and/or "features" (default all)
//   BENCH_LINEAR_DIR       default /work/shared/bench/instances/1d-bpplib
//
//   BENCH_LINEAR_FEATURE_DIR default /work/shared/bench/instances/1d-feature-tests
//
// Default: a stratified sample, every 5th instance of each set in name order (sets of at
// most 30 instances, Waescher and Hard28, run in full): about 460 instances.
// "optimum" = bars equal the known optimum (LB = UB in the bounds file); for AI/ANI, where
// some are open, = bars at most the best known upper bound. "proven" = the engine itself
// reported metadata.optimal (its plan meets its own lower bound). Each plan is checked:
// every piece placed, and every bar's lengths fit its capacity.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadLinearModule, solveLinear, type LinearProblem } from '../src/engine/linear/solve.js';
import { BPPLIB_DIR, readBounds, readInstance } from './bpplib.js';

const DIR = BPPLIB_DIR;
const FEATURE_DIR = process.env.BENCH_LINEAR_FEATURE_DIR ?? '/work/shared/bench/instances/1d-feature-tests';
const LIMIT = Number(process.env.BENCH_LINEAR_LIMIT_MS ?? 1000);
const EFFORT = Number(process.env.BENCH_LINEAR_EFFORT ?? 0);
const FULL = process.env.BENCH_LINEAR_FULL === '1';
const STEP = 5;

interface SetDef { name: string; dir: string; anchor: string }

const SETS: SetDef[] = [
  { name: 'Falkenauer U', dir: 'Falkenauer_CSP/Falkenauer_U', anchor: '80/80 optimum (5 s)' },
  { name: 'Falkenauer T', dir: 'Falkenauer_CSP/Falkenauer_T', anchor: '58/80 optimum (5 s; t60/t120 40/40, t249 17/20, t501 1/20)' },
  { name: 'Scholl 1', dir: 'Scholl_CSP/Scholl_1', anchor: '-' },
  { name: 'Scholl 2', dir: 'Scholl_CSP/Scholl_2', anchor: '-' },
  { name: 'Scholl 3', dir: 'Scholl_CSP/Scholl_3', anchor: '-' },
  { name: 'Waescher', dir: 'Waescher_CSP', anchor: '-' },
  { name: 'Schwerin 1', dir: 'Schwerin_CSP/Schwerin_1', anchor: '-' },
  { name: 'Schwerin 2', dir: 'Schwerin_CSP/Schwerin_2', anchor: '-' },
  { name: 'Hard28', dir: 'Hard28_CSP', anchor: '13/28 optimum (10 s)' },
  { name: 'AI', dir: 'ANI_AI_CSP/AI', anchor: '-' },
  { name: 'ANI', dir: 'ANI_AI_CSP/ANI', anchor: '-' },
];

/** Independent check: every piece placed once, every bar within capacity. */
function check(items: { w: number; d: number }[], capacity: number, groups: { bars: number; parts: number[] }[], unplaced: number[]): string | undefined {
  const count = items.map(() => 0);
  for (const g of groups) {
    const load = g.parts.reduce((s, i) => s + items[i].w, 0);
    if (load > capacity + 1e-9) return `bar over capacity: ${load} > ${capacity}`;
    for (const i of g.parts) count[i] += g.bars;
  }
  if (unplaced.some((u) => u !== 0)) return 'pieces left unplaced';
  for (let i = 0; i < items.length; i++) if (count[i] !== items[i].d) return `item ${i}: ${count[i]} placed, ${items[i].d} wanted`;
  return undefined;
}

function main(): void {
  const bounds = readBounds();
  const module = loadLinearModule();
  const only = process.env.BENCH_LINEAR_SETS?.split(',').map((s) => s.trim().toLowerCase());
  const rows: string[] = [];
  console.log(`linear engine on BPPLIB, ${LIMIT} ms${EFFORT > 0 ? ` and ${EFFORT} pivots` : ''} per instance, ${FULL ? 'full sets' : `every ${STEP}th instance (sets <= 30 in full)`}\n`);
  for (const set of SETS) {
    if (only && !only.includes(set.name.toLowerCase())) continue;
    const dir = join(DIR, set.dir);
    if (!existsSync(dir)) continue;
    let files = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort();
    if (!FULL && files.length > 30) files = files.filter((_, k) => k % STEP === 0);
    let optimum = 0, proven = 0, known = 0, invalid = 0, total = 0, max = 0;
    const misses: string[] = [];
    const unproven: string[] = [];
    let pivots = 0;
    for (const f of files) {
      const name = f.replace(/\.txt$/, '');
      const { capacity, items } = readInstance(join(dir, f));
      const problem: LinearProblem = {
        stock: [{ usable: capacity, q: -1, cost: 0 }],
        parts: items.map((it) => ({ l: it.w, q: it.d, stock: [0] })),
        kerf: 0, objective: 'count', stockSelection: 'efficiency', seed: 1, budgetMs: LIMIT, effort: EFFORT,
      };
      const t0 = performance.now();
      const s = solveLinear(problem, module);
      const ms = performance.now() - t0;
      total += ms;
      max = Math.max(max, ms);
      const bars = s.groups.reduce((n, g) => n + g.bars, 0);
      const problemText = check(items, capacity, s.groups, s.unplaced);
      if (problemText) {
        invalid++;
        console.log(`INVALID ${name}: ${problemText}`);
      }
      const b = bounds.get(name);
      if (b) known++;
      const best = b ? (b.lb === b.ub ? b.lb : b.ub) : undefined;
      if (best !== undefined && bars <= best && !problemText) optimum++;
      else if (best !== undefined) misses.push(`${name} ${bars}/${best}`);
      if (s.optimal) proven++;
      else unproven.push(name);
      pivots += s.stats.iterations;
      if (b && s.optimal && s.lowerBound > b.lb && b.lb === b.ub) console.log(`BOUND ABOVE OPTIMUM ${name}: ${s.lowerBound} > ${b.lb}`);
    }
    const n = files.length;
    const pct = (k: number) => `${k}/${n} (${((100 * k) / Math.max(1, n)).toFixed(1)} %)`;
    rows.push(`| ${set.name} | ${n} | ${pct(optimum)} | ${pct(proven)} | ${(total / Math.max(1, n)).toFixed(0)} | ${max.toFixed(0)} | ${invalid} | ${set.anchor} |`);
    const listed = (names: string[]) => `${names.slice(0, 8).join(', ')}${names.length > 8 ? ' ...' : ''}`;
    console.log(`${set.name}: done, ${pivots} pivots in all${misses.length ? `; missed ${listed(misses)}` : ''}${unproven.length ? `; unproven ${listed(unproven)}` : ''}`);
    if (known < n) console.log(`  (${n - known} instances without a bounds entry)`);
  }
  if (!rows.length) return;
  console.log('\n| set | instances | optimum found | proven optimal | mean ms | max ms | invalid | packingsolver here (anchor) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

/** packingsolver 1D CSV: ID,X[,COST][,COPIES] rows; COPIES -1 or absent = unlimited for bins, 1 for items. */
function readCsv(file: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
  const keys = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])));
}

/**
 * packingsolver's 1D feature and user cases (bin-packing and variable-sized objectives; the
 * others use weights, eligibility or knapsack profits, which linear stock does not have):
 * our bars and cost beside the ones of packingsolver's stored solution.
 */
function features(module: WebAssembly.Module): void {
  const cases: { name: string; prefix: string }[] = [];
  for (const sub of ['tests', 'users']) {
    const dir = join(FEATURE_DIR, sub);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (sub === 'tests' && existsSync(join(dir, f, 'bins.csv'))) cases.push({ name: f, prefix: join(dir, f) + '/' });
      if (sub === 'users' && f.endsWith('_bins.csv')) cases.push({ name: f.replace('_bins.csv', ''), prefix: join(dir, f.replace('bins.csv', '')) });
    }
  }
  if (!cases.length) return;
  console.log('\n| feature case | objective | pieces placed (ours / packingsolver) | bars | cost (ours / packingsolver) | proven | ms | note |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const params = Object.fromEntries(readCsv(c.prefix + 'parameters.csv').map((r) => [r.NAME, r.VALUE]));
    const objective = params.objective;
    if (objective !== 'bin-packing' && objective !== 'variable-sized-bin-packing') continue;
    const bins = readCsv(c.prefix + 'bins.csv');
    const items = readCsv(c.prefix + 'items.csv');
    if (bins.some((b) => b.COPIES_MIN && Number(b.COPIES_MIN) > 0) || items.some((i) => i.WEIGHT !== undefined)) continue;
    const stock = bins.map((b) => ({ usable: Number(b.X), q: b.COPIES === undefined || Number(b.COPIES) < 0 ? -1 : Number(b.COPIES), cost: Number(b.COST ?? 1) }));
    const problem: LinearProblem = {
      stock,
      parts: items.map((it) => ({ l: Number(it.X), q: Number(it.COPIES ?? 1), stock: stock.map((s, k) => k).filter((k) => Number(it.X) <= stock[k].usable) })),
      kerf: 0, objective: objective === 'bin-packing' ? 'count' : 'cost', stockSelection: 'efficiency', seed: 1, budgetMs: LIMIT, effort: EFFORT,
    };
    problem.parts.forEach((p) => { if (!p.stock.length) p.q = 0; });
    const t0 = performance.now();
    const s = solveLinear(problem, module);
    const ms = performance.now() - t0;
    const ourPieces = s.groups.reduce((n, g) => n + g.bars * g.parts.length, 0);
    const ourBars = s.groups.reduce((n, g) => n + g.bars, 0);
    const ourCost = s.groups.reduce((n, g) => n + g.bars * stock[g.stock].cost, 0);
    let theirPieces = 0, theirBars = 0, theirCost = 0;
    const solution = c.prefix + 'solution.csv';
    const notes: string[] = [];
    // NESTING_LENGTH < 0 lets consecutive pieces overlap: a packingsolver feature linear stock does not have.
    if (items.some((i) => Number(i.NESTING_LENGTH ?? 0) !== 0)) notes.push('uses NESTING_LENGTH (not comparable)');
    if (!existsSync(solution) || !readCsv(solution).length) notes.push('no stored solution');
    if (existsSync(solution)) {
      for (const r of readCsv(solution)) {
        const copies = Number(r.COPIES ?? 1);
        if (r.TYPE === 'BIN') { theirBars += copies; theirCost += copies * stock[Number(r.ID)].cost; }
        if (r.TYPE === 'ITEM') theirPieces += copies;
      }
    }
    console.log(`| ${c.name} | ${objective} | ${ourPieces} / ${theirPieces} | ${ourBars} / ${theirBars} | ${ourCost} / ${theirCost} | ${s.optimal} | ${ms.toFixed(0)} | ${notes.join('; ')} |`);
  }
}

main();
if (!process.env.BENCH_LINEAR_SETS || /features/i.test(process.env.BENCH_LINEAR_SETS)) features(loadLinearModule());
