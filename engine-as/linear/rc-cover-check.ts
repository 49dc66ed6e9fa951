// For tests and benches only, not the service: runs the reduced-cost cover of rc-cover.ts on
// a decoded job directly, for k bars within a work cap, from the duals of the root LP solved
// to optimality from a best-fit plan (as the search does, without its dives), so that a test
// can hold its answer against an exhaustive search.
// Output (empty when the input is not a job with one stock row): [status (rc-cover.ts RC_*),
// gap, patterns, cover nodes, work, LP pivots, of which finishing the LP, patterns the probe kept, bars found, then per bar found: pieces c, then c item
// indices].

import { Bar } from "./plan";
import { decodeCheckJob, rootLp, withBars } from "./prove-check";
import { ReducedCostCover, RC_FOUND, RC_TILT } from "./rc-cover";

/** Pivots that finishing the root LP may take (a safeguard, not a limit in practice). */
const CHECK_LP_PIVOTS: i32 = 1 << 24;

export function coverFlat(input: Float64Array, k: i32, maxWork: f64, maxGap: f64, maxPatterns: i32, firstWork: f64, tilts: i32): Float64Array {
  const job = decodeCheckJob(input);
  if (job === null) return new Float64Array(0);
  const inst = job.inst;
  const mp = rootLp(inst, job.plan);
  const lp = mp.pivots;
  mp.solveToOptimum(inst.dem, inst.qty, Infinity, CHECK_LP_PIVOTS);
  const duals = new Float64Array(inst.nI);
  for (let r = 0; r < mp.m; r++) duals[mp.rowItem[r]] = mp.y[r];
  // With tilts > 0, the duals of that many tilted re-solves (as the search takes them) too.
  const others = tilts > 0 ? mp.tiltedDuals(inst.dem, inst.qty, tilts, RC_TILT, Infinity, CHECK_LP_PIVOTS) : new Array<Float64Array>();
  const rc = new ReducedCostCover(inst);
  const st = rc.run(duals, 0, k, maxGap, maxPatterns, maxWork, firstWork, others);
  const out = withBars(8, st == RC_FOUND ? rc.bars : new Array<Bar>());
  out[0] = <f64>st;
  out[1] = rc.gap;
  out[2] = <f64>rc.patterns;
  out[3] = <f64>rc.nodes;
  out[4] = rc.work;
  out[5] = <f64>mp.pivots;
  out[6] = <f64>(mp.pivots - lp);
  out[7] = <f64>rc.kept;
  return out;
}
