// TS facade of the linear (1D) engine (engine-as/linear, built to build/linear.wasm). It
// flattens a LinearProblem into one Float64Array, runs it in a fresh WebAssembly instance
// and turns the flat answer back into bars. The algorithms live in the engine.

import type { CalcRequest } from '../../schema/request.js';
import type { ResultRecord } from '../../schema/result.js';
import { buildLinearRecord } from './record.js';
import { toLinearProblem } from './problem.js';
import { longestRemnants } from './leftover.js';
import type { LinearGroup, LinearProblem, LinearSolution } from './types.js';
import { loadWasm, runFlat } from '../common/wasm.js';
import { clockStop, searchPlan } from '../common/search-policy.js';

export type { LinearGroup, LinearPart, LinearProblem, LinearSolution, LinearStock } from './types.js';

// ---- flat layout; mirrors engine-as/linear/instance.ts and output.ts (change together) ----
const FORMAT_VERSION = 1;
const HEADER_LEN = 8;
const STOCK_STRIDE = 3;
const PART_STRIDE = 2;
const OUT_HEADER = 13;

interface LinearExports {
  memory: WebAssembly.Memory;
  inputPtr(n: number): number;
  solveLinear(): number;
  outputPtr(): number;
}

/** build/linear.wasm, compiled once per thread. */
export function loadLinearModule(): WebAssembly.Module {
  return loadWasm('linear');
}

export function encodeLinear(p: LinearProblem): Float64Array {
  const nT = p.stock.length;
  const nI = p.parts.length;
  const a = new Float64Array(HEADER_LEN + nT * STOCK_STRIDE + nI * PART_STRIDE + nI * nT);
  a[0] = FORMAT_VERSION;
  a[1] = nT;
  a[2] = nI;
  a[3] = p.kerf;
  a[4] = p.seed;
  a[5] = p.budgetMs;
  a[6] = p.stockSelection === 'smallest' ? 1 : 0;
  a[7] = p.objective === 'cost' ? 1 : 0;
  let b = HEADER_LEN;
  for (const s of p.stock) {
    a[b++] = s.usable;
    a[b++] = s.q;
    a[b++] = s.cost;
  }
  for (const part of p.parts) {
    a[b++] = part.l;
    a[b++] = part.q;
  }
  p.parts.forEach((part, i) => {
    for (const t of part.stock) a[b + i * nT + t] = 1;
  });
  return a;
}

function decodeLinear(out: Float64Array, startedAt: number, calledAt: number): LinearSolution {
  if (out.length < OUT_HEADER || out[0] !== 0) {
    throw new Error(`kerf linear engine: input rejected (status ${out.length ? out[0] : 'none'})`);
  }
  const nGroups = out[1]!;
  const nI = out[7]!;
  const unplaced = Array.from(out.subarray(OUT_HEADER, OUT_HEADER + nI));
  let pos = OUT_HEADER + nI;
  const groups: LinearGroup[] = [];
  for (let g = 0; g < nGroups; g++) {
    const stock = out[pos]!;
    const bars = out[pos + 1]!;
    const k = out[pos + 2]!;
    groups.push({ stock, bars, parts: Array.from(out.subarray(pos + 3, pos + 3 + k)) });
    pos += 3 + k;
  }
  return {
    groups,
    unplaced,
    lowerBound: out[2]!,
    optimal: out[3] === 1,
    lpValue: out[4]! >= 0 ? out[4]! : null,
    dives: out[8]!,
    stats: {
      iterations: out[9]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[5]! + (calledAt - startedAt),
      stoppedByDeadline: out[6] === 1,
      rootLpMs: out[10]! >= 0 ? out[10]! : null,
      pricings: out[11]!,
      rootPivots: out[12]!,
    },
  };
}

/** Solves one linear problem in a fresh instance of `module` (see loadLinearModule). */
export function solveLinear(problem: LinearProblem, module: WebAssembly.Module): LinearSolution {
  const startedAt = performance.now();
  const input = encodeLinear(problem);
  const { out, calledAt } = runFlat<LinearExports>(module, 'linear engine', input, (engine) => engine.solveLinear());
  return decodeLinear(out, startedAt, calledAt);
}

/** The 'linear/-' solver of the calculation dispatcher: request -> problem -> engine -> record. */
export function linearBars(request: CalcRequest, options: { jobId: number; budgetMs: number; minOffcut: number; defaultSearchMs?: number }): ResultRecord {
  // The engine searches until its plan is proven optimal or its time is up (searchTime, else the ceiling).
  const plan = searchPlan(request, options.budgetMs, options.defaultSearchMs);
  const mapped = toLinearProblem(request, plan.searchMs);
  let solution = solveLinear(mapped.problem, loadLinearModule());
  if (request.saw.options.leftover) {
    // One remnant per material, profile and thickness: bars that share a rack.
    const rack = (row: number) => { const s = request.stock[row]!; return `${s.material.trim().toLowerCase()}|${s.t ?? ''}|${s.w}`; };
    solution = longestRemnants(mapped.problem, solution, request.parts.map((p) => p.l), rack);
  }
  const record = buildLinearRecord(request, mapped, solution, options);
  const stopReason = solution.optimal ? 'lower-bound' : solution.stats.stoppedByDeadline ? clockStop(plan) : 'stalled';
  record.metadata.engine = {
    ...record.metadata.engine, stopReason, effort: solution.stats.iterations, lowerBound: solution.lowerBound, searchLimitMs: plan.searchMs,
  };
  return record;
}
