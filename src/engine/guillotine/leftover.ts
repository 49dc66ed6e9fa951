// One big leftover (saw.options.leftover): at equal sheet count, the last sheet of each
// material is cut again so that what is left of it is one rectangle as large as possible,
// ready for the rack. Done here, around the engine, because it is a one-sheet question: the
// sheet's own parts, packed by the engine into the sheet shortened across the first cuts (a
// guillotine layout's leftover is then one strip the full length of the sheet; a free layout
// tries both directions), with the shortening bisected. The other sheets are not touched, so
// the sheet count and the parts placed stay as the search left them.
import { solveGuillotine } from './solve.js';
import type { Axis, EngineNode, EngineSheet, EngineSolution, EngineStock, GuillotineProblem } from './types.js';

/** Bisection steps per direction: the strip is found to within 1/2^PROBES of the slack. */
const PROBES = 10;

type PartNode = Extract<EngineNode, { kind: 'part' }>;

function partsOf(node: EngineNode, out: PartNode[] = []): PartNode[] {
  if (node.kind === 'part') out.push(node);
  else for (const child of node.children) partsOf(child, out);
  return out;
}

/** Usable area a sheet leaves free: where the one leftover can be. */
const freeArea = (problem: GuillotineProblem, sheet: EngineSheet) => {
  const u = usableOf(problem.stock[sheet.stock]!);
  return u.l * u.w - partsOf(sheet.root).reduce((sum, p) => sum + p.l * p.w, 0);
};

/**
 * The solution with the emptiest sheet (most usable area left free) of each material group (`groupOf` stock row) re-cut
 * for one big leftover and moved to the end of the list. Rolls are left alone: their length
 * is already the shortest found.
 */
export function gatherLeftovers(
  problem: GuillotineProblem, solution: EngineSolution, groupOf: (stockRow: number) => string, module: WebAssembly.Module, budgetMs: number,
): EngineSolution {
  if (problem.stock.some((s) => s.open) || solution.sheets.length === 0) return solution;
  const deadline = performance.now() + budgetMs;
  const emptiest = new Map<string, number>();
  solution.sheets.forEach((sheet, i) => {
    const key = groupOf(sheet.stock);
    const best = emptiest.get(key);
    if (best === undefined || freeArea(problem, sheet) >= freeArea(problem, solution.sheets[best]!)) emptiest.set(key, i);
  });
  const chosen = [...emptiest.values()];
  const recut = chosen.map((i, k) => widestLeftover(problem, solution.sheets[i]!, module, (deadline - performance.now()) / (chosen.length - k)));
  const kept = solution.sheets.filter((_, i) => !chosen.includes(i));
  return { ...solution, sheets: [...kept, ...recut] };
}

interface Usable { x: number; y: number; l: number; w: number }

const usableOf = (s: EngineStock): Usable => ({ x: s.trim.w1, y: s.trim.l1, l: s.l - s.trim.w1 - s.trim.w2, w: s.w - s.trim.l1 - s.trim.l2 });

/** How far the sheet's parts reach along `axis` from the usable region's start. */
function reach(sheet: EngineSheet, axis: Axis, usable: Usable): number {
  return Math.max(0, ...partsOf(sheet.root).map((p) => (axis === 'x' ? p.x + p.l - usable.x : p.y + p.w - usable.y)));
}

/** The sheet's parts packed within `extent` along `axis`, or undefined when they do not all fit. */
function probe(problem: GuillotineProblem, sheet: EngineSheet, counts: Map<number, number>, axis: Axis, extent: number, module: WebAssembly.Module, budgetMs: number): EngineSheet | undefined {
  const row = problem.stock[sheet.stock]!;
  const usable = usableOf(row);
  const cut = (axis === 'x' ? usable.l : usable.w) - extent;
  const trim = axis === 'x' ? { ...row.trim, w2: row.trim.w2 + cut } : { ...row.trim, l2: row.trim.l2 + cut };
  const one: GuillotineProblem = {
    ...problem,
    stock: problem.stock.map((s, i) => (i === sheet.stock ? { ...s, q: 1, trim } : { ...s, q: 0 })),
    parts: problem.parts.map((p, i) => ({ ...p, q: counts.get(i) ?? 0 })),
    budgetMs: Math.max(1, budgetMs),
    repeatPatterns: false,
  };
  const solved = solveGuillotine(one, module);
  if (solved.sheets.length !== 1 || solved.unplaced.some((n) => n > 0)) return undefined;
  const root = widen(solved.sheets[0]!.root, problem.firstCut, usable);
  return root ? { stock: sheet.stock, root } : undefined;
}

/**
 * The root of a layout on the shortened sheet, stretched back over the whole usable region:
 * the space it gains is the leftover. A guillotine root must run along the first cuts (a
 * head-cut root cannot grow without another stage); a lone part becomes its one band.
 */
function widen(root: EngineNode, firstCut: Axis, usable: Usable): EngineNode | undefined {
  if (root.kind === 'free') return { ...root, ...usable };
  if (root.kind === 'part') return { kind: 'cut', along: firstCut, ...usable, children: [root] };
  return root.along === firstCut ? { ...root, ...usable } : undefined;
}

function widestLeftover(problem: GuillotineProblem, sheet: EngineSheet, module: WebAssembly.Module, budgetMs: number): EngineSheet {
  const row = problem.stock[sheet.stock]!;
  const usable = usableOf(row);
  const parts = partsOf(sheet.root);
  const counts = new Map<number, number>();
  for (const p of parts) counts.set(p.part, (counts.get(p.part) ?? 0) + 1);
  const area = parts.reduce((sum, p) => sum + p.l * p.w, 0);
  // Guillotine: the strip across the first cuts (cuts along x leave a strip at the top).
  const axes: Axis[] = problem.placement === 'free' ? ['y', 'x'] : [problem.firstCut === 'x' ? 'y' : 'x'];
  const deadline = performance.now() + budgetMs;
  let best = sheet;
  let bestLeft = -1;
  axes.forEach((axis, a) => {
    const across = axis === 'x' ? usable.w : usable.l;
    const full = axis === 'x' ? usable.l : usable.w;
    let hi = reach(sheet, axis, usable);
    let found: EngineSheet = sheet;
    let lo = Math.min(hi, area / across);
    for (let k = 0; k < PROBES && hi - lo > 1e-6 * full; k++) {
      const mid = (lo + hi) / 2;
      const probesLeft = (axes.length - a) * PROBES - k;
      const got = probe(problem, sheet, counts, axis, mid, module, (deadline - performance.now()) / probesLeft);
      if (got) {
        found = got;
        hi = Math.min(mid, reach(got, axis, usable));
      } else lo = mid;
    }
    const left = (full - reach(found, axis, usable)) * across;
    if (left > bestLeft + 1e-9) {
      best = found;
      bestLeft = left;
    }
  });
  return best;
}
