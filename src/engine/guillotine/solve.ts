// Solving a GuillotineProblem: fixed sheets in one engine run (guillotine/boundary.ts), rolls
// around it (guillotine/rolls.ts), free placement as a race of the free packer and a
// guillotine layout (free/solve.ts). The algorithms live in the engine.

import type { EngineSolution, GuillotineProblem } from './types.js';
import { solveOnce } from './boundary.js';
import { solveOpenLength } from './rolls.js';
import { solveFreeBest } from '../free/solve.js';

/**
 * Solves one guillotine problem in a fresh instance of `module` (see loadEngineModule).
 * The engine stops by itself within problem.budgetMs (it keeps a small reserve for this
 * decoding) and always returns a complete solution.
 */
export function solveGuillotine(problem: GuillotineProblem, module: WebAssembly.Module): EngineSolution {
  if (problem.placement === 'free') return solveFreeBest(problem, module);
  if (problem.stock.some((s) => s.open)) return solveOpenLength(problem, module);
  return solveOnce(problem, module);
}
