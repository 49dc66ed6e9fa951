// Free placement (cutType efficiency): the free packer (engine-as/free) gets the first share
// of the budget; a guillotine layout, which is a valid free layout too, gets the rest, and the
// better of the two is returned as free roots. So a CNC job is never cut worse than the same
// job on a panel saw.

import type { EngineNode, EngineSolution, GuillotineProblem } from '../guillotine/types.js';
import { laterStop } from '../common/stop-reason.js';
import { solveOnce } from '../guillotine/boundary.js';
import { solveOpenLength } from '../guillotine/rolls.js';
import { compareSolutions, partsOf } from '../guillotine/tree.js';

/** Share of the budget given to the free packer (rolls: its strip search usually ends at the length bound). */
const FREE_SHARE = 0.5;
const FREE_SHARE_OPEN = 0.7;

/** Every part placed and every roll piece at the roll's length bound. */
function atLengthBound(problem: GuillotineProblem, sol: EngineSolution): boolean {
  if (sol.lengthBound === undefined || sol.unplaced.some((u) => u > 0)) return false;
  let used = 0;
  for (const sh of sol.sheets) {
    const row = problem.stock[sh.stock]!;
    if (!row.open || sh.length === undefined) return false;
    used += sh.length - row.trim.w1 - row.trim.w2;
  }
  return used <= sol.lengthBound + 1e-9;
}

export function solveFreeBest(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  const startedAt = performance.now();
  const open = problem.stock.some((s) => s.open);
  const share = open ? FREE_SHARE_OPEN : FREE_SHARE;
  const freeProblem = {
    ...problem, budgetMs: problem.budgetMs * share,
    ...(problem.searchMs !== undefined ? { searchMs: problem.searchMs * share } : {}),
    ...(problem.ceilingMs !== undefined ? { ceilingMs: problem.ceilingMs * share } : {}),
  };
  const free = open ? solveOpenLength(freeProblem, module) : solveOnce(freeProblem, module);
  const left = Math.max(1, problem.budgetMs - (performance.now() - startedAt));
  const secondAt = performance.now() - startedAt;
  // Rolls cut to their length bound cannot be beaten: no guillotine run.
  const searchLeft = {
    ...(problem.searchMs !== undefined ? { searchMs: Math.max(1, problem.searchMs - secondAt) } : {}),
    ...(problem.ceilingMs !== undefined ? { ceilingMs: Math.max(1, problem.ceilingMs - secondAt) } : {}),
  };
  const guillotine: GuillotineProblem = { ...problem, placement: 'guillotine', budgetMs: left, ...searchLeft };
  const cut = open && atLengthBound(problem, free) ? free : open ? solveOpenLength(guillotine, module) : solveOnce(guillotine, module);
  const useFree = compareSolutions(problem, free, cut) <= 0;
  const best = useFree ? free : cut;
  return {
    sheets: best.sheets.map((sh) => ({ ...sh, root: asFree(sh.root) })),
    unplaced: best.unplaced,
    lowerBound: Math.max(free.lowerBound, cut.lowerBound),
    ...(open ? { lengthBound: Math.max(free.lengthBound ?? 0, cut.lengthBound ?? 0) } : {}),
    stats: {
      iterations: free.stats.iterations + (cut === free ? 0 : cut.stats.iterations),
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: useFree ? free.stats.timeToBestMs : secondAt + cut.stats.timeToBestMs,
      stoppedByDeadline: free.stats.stoppedByDeadline || cut.stats.stoppedByDeadline,
      stopReason: cut === free ? free.stats.stopReason : laterStop(free.stats.stopReason, cut.stats.stopReason),
      effort: free.stats.effort + (cut === free ? 0 : cut.stats.effort),
      // The free packer's start: the result is at least as good as the free packer's own final layout.
      ...(free.stats.greedy ? { greedy: free.stats.greedy } : {}),
    },
  };
}

/** A layout as a free root over its usable region (a guillotine tree keeps only its parts). */
function asFree(root: EngineNode): EngineNode {
  if (root.kind === 'free') return root;
  return { kind: 'free', x: root.x, y: root.y, l: root.l, w: root.w, children: partsOf(root) };
}
