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
import { atLeastDefault, searchPlan } from '../common/search-policy.js';

export type { LinearGroup, LinearPart, LinearProblem, LinearSolution, LinearStock } from './types.js';

// The flat format, declared once for the engine and this boundary.
import * as F from '../../../engine-as/linear/format.js';

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
  const a = new Float64Array(F.HEADER_LEN + nT * F.STOCK_STRIDE + nI * F.PART_STRIDE + nI * nT);
  a[F.H_VERSION] = F.FORMAT_VERSION;
  a[F.H_NSTOCK] = nT;
  a[F.H_NPARTS] = nI;
  a[F.H_KERF] = p.kerf;
  a[F.H_SEED] = p.seed;
  a[F.H_BUDGET] = p.budgetMs;
  a[F.H_SELECTION] = p.stockSelection === 'smallest' ? 1 : 0;
  a[F.H_OBJECTIVE] = p.objective === 'cost' ? 1 : 0;
  a[F.H_EFFORT] = p.effort ?? 0;
  a[F.H_SEARCH_MS] = p.searchMs ?? 0;
  let b = F.HEADER_LEN;
  for (const s of p.stock) {
    a[b] = s.usable;
    a[b + 1] = s.q;
    a[b + 2] = s.cost;
    b += F.STOCK_STRIDE;
  }
  for (const part of p.parts) {
    a[b] = part.l;
    a[b + 1] = part.q;
    b += F.PART_STRIDE;
  }
  p.parts.forEach((part, i) => {
    for (const t of part.stock) a[b + i * nT + t] = 1;
  });
  return a;
}

function decodeLinear(out: Float64Array, startedAt: number, calledAt: number): LinearSolution {
  if (out.length < F.OUT_HEADER || out[F.O_STATUS] !== 0) {
    throw new Error(`kerf linear engine: input rejected (status ${out.length ? out[F.O_STATUS] : 'none'})`);
  }
  const nGroups = out[F.O_NGROUPS]!;
  const nI = out[F.O_NPARTS]!;
  const unplaced = Array.from(out.subarray(F.OUT_HEADER, F.OUT_HEADER + nI));
  let pos = F.OUT_HEADER + nI;
  const groups: LinearGroup[] = [];
  for (let g = 0; g < nGroups; g++) {
    const stock = out[pos]!;
    const bars = out[pos + 1]!;
    const k = out[pos + 2]!;
    groups.push({ stock, bars, parts: Array.from(out.subarray(pos + F.GROUP_HEADER, pos + F.GROUP_HEADER + k)) });
    pos += F.GROUP_HEADER + k;
  }
  return {
    groups,
    unplaced,
    lowerBound: out[F.O_LOWER_BOUND]!,
    optimal: out[F.O_OPTIMAL] === 1,
    lpValue: out[F.O_LP_VALUE]! >= 0 ? out[F.O_LP_VALUE]! : null,
    dives: out[F.O_DIVES]!,
    stats: {
      iterations: out[F.O_PIVOTS]!,
      elapsedMs: performance.now() - startedAt,
      timeToBestMs: out[F.O_TIME_TO_BEST]! + (calledAt - startedAt),
      stoppedByDeadline: out[F.O_DEADLINE] === 1,
      wentOnPastStall: out[F.O_DEADLINE] === 2,
      rootLpMs: out[F.O_ROOT_MS]! >= 0 ? out[F.O_ROOT_MS]! : null,
      pricings: out[F.O_PRICINGS]!,
      rootPivots: out[F.O_ROOT_PIVOTS]!,
      coldSolves: out[F.O_COLD_SOLVES]!,
      proofNodes: out[F.O_PROOF_NODES]!,
      coverNodes: out[F.O_COVER_NODES]!,
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
  // The engine searches until its plan is proven optimal, 200 turns find nothing better, or
  // its time is up. A searchTime runs the same search under a clock no shorter than the
  // default's, and when it stalls before that time it goes on until then: its plan is never
  // worse than the default's at the same seed.
  const plan = searchPlan(request, options.budgetMs, options.defaultSearchMs);
  const clock = atLeastDefault(plan);
  const mapped = toLinearProblem(request, clock.limitMs, plan.rule === 'searchTime' ? plan.searchMs : 0);
  let solution = solveLinear(mapped.problem, loadLinearModule());
  if (request.saw.options.leftover) {
    // One remnant per material, profile and thickness: bars that share a rack.
    const rack = (row: number) => { const s = request.stock[row]!; return `${s.material.trim().toLowerCase()}|${s.t ?? ''}|${s.w}`; };
    solution = longestRemnants(mapped.problem, solution, request.parts.map((p) => p.l), rack);
  }
  const record = buildLinearRecord(request, mapped, solution, options);
  const { optimal, stats } = solution;
  const stopReason = optimal ? 'lower-bound' : stats.stoppedByDeadline ? clock.clock : stats.wentOnPastStall ? 'searchTime' : 'stalled';
  record.metadata.engine = {
    ...record.metadata.engine, stopReason, effort: solution.stats.iterations, lowerBound: solution.lowerBound, searchLimitMs: plan.searchMs,
  };
  return record;
}
