// The linear engine's proof of one bar fewer run on its own (build/linear.wasm's
// proveLinearBars, for tests and benches only; the service never calls it): no search
// around it, the proof from a best-fit plan with k bars and a budget of tree nodes.
import { loadLinearModule, encodeLinear, type LinearProblem } from '../src/engine/linear/solve.js';
import { runFlat, type FlatEngine } from '../src/engine/common/wasm.js';

interface ProofExports extends FlatEngine {
  proveLinearBars(k: number, maxNodes: number): number;
}

export type ProofStatus = 'proven' | 'found' | 'open';

export interface ProofRun {
  /** proven: no packing into k bars; found: one (in `bars`, item indices per bar); open: budget spent. */
  status: ProofStatus;
  nodes: number;
  pivots: number;
  bars: number[][];
}

const STATUS: ProofStatus[] = ['proven', 'found', 'open'];

/** Runs the proof that `problem` (one stock row) needs more than k bars, within maxNodes tree nodes. */
export function proveBars(problem: LinearProblem, k: number, maxNodes: number, module = loadLinearModule()): ProofRun {
  const { out } = runFlat<ProofExports>(module, 'linear proof', encodeLinear(problem), (e) => e.proveLinearBars(k, maxNodes));
  if (out.length < 4) throw new Error('kerf linear proof: input rejected');
  return { status: STATUS[out[0]!]!, nodes: out[1]!, pivots: out[2]!, bars: readBars(out, 3) };
}

/** The bars a check export wrote from slot `at` (engine-as/linear/prove-check.ts withBars): the count, then per bar its pieces c and c item indices. */
export function readBars(out: Float64Array, at: number): number[][] {
  const bars: number[][] = [];
  const count = out[at++]!;
  for (let b = 0; b < count; b++) {
    const c = out[at]!;
    bars.push(Array.from(out.subarray(at + 1, at + 1 + c)));
    at += 1 + c;
  }
  return bars;
}
