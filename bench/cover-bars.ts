// The linear engine's reduced-cost cover run on its own (build/linear.wasm's coverLinearBars,
// for tests and benches only; the service never calls it): the root LP solved to optimality
// from a best-fit plan, then the cover for k bars from its duals within a work cap.
import { loadLinearModule, encodeLinear, type LinearProblem } from '../src/engine/linear/solve.js';
import { runFlat, type FlatEngine } from '../src/engine/common/wasm.js';
import { readBars } from './prove-bars.js';

interface CoverExports extends FlatEngine {
  coverLinearBars(k: number, maxWork: number, maxGap: number, maxPatterns: number, firstWork: number, tilts: number): number;
}

export type CoverStatus = 'found' | 'exhausted' | 'gave up';

export interface CoverRun {
  /** found: a plan of k bars (in `bars`, item indices per bar); exhausted: none exists; gave up: a cap was reached. */
  status: CoverStatus;
  /** k - y.d at the scaled duals. */
  gap: number;
  patterns: number;
  /** Patterns left after the LP probe (rc-probe.ts). */
  kept: number;
  nodes: number;
  work: number;
  /** LP pivots in all, and those of finishing the LP for its duals. */
  pivots: number;
  finishPivots: number;
  bars: number[][];
}

const STATUS: CoverStatus[] = ['found', 'exhausted', 'gave up'];

/**
 * Runs the cover for k bars of `problem` (one stock row) within the caps: the cover search alone
 * for the first firstWork (all of maxWork by default: no probe), then the LP probe and a second search;
 * patterns must fit the duals of `tilts` tilted LP re-solves too (rc-cover.ts RC_TILTS).
 */
export function coverBars(problem: LinearProblem, k: number, maxWork: number, maxGap = 0.05, maxPatterns = 1500, module = loadLinearModule(), firstWork = maxWork, tilts = 0): CoverRun {
  const { out } = runFlat<CoverExports>(module, 'linear cover', encodeLinear(problem), (e) => e.coverLinearBars(k, maxWork, maxGap, maxPatterns, firstWork, tilts));
  if (out.length < 9) throw new Error('kerf linear cover: input rejected');
  return { status: STATUS[out[0]!]!, gap: out[1]!, patterns: out[2]!, nodes: out[3]!, work: out[4]!, pivots: out[5]!, finishPivots: out[6]!, kept: out[7]!, bars: readBars(out, 8) };
}
