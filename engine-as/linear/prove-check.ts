// For tests and the proof's bench only, not the service: runs the proof of prove.ts on a
// decoded job directly, with k bars and a node budget, from a best-fit plan and the columns
// of the root LP solved from it (as the search seeds it), without the search's dives, so
// that a test can hold its answer against an exhaustive search.
// Output (empty when the input is not a job with one stock row): [status (prove.ts PROOF_*), tree nodes, pivots, bars found, then per bar found:
// pieces c, then c item indices].

import { decode, Instance } from "./instance";
import { Bar } from "./plan";
import { bestFitDecreasing, sizeOrder } from "./heuristic";
import { Prover, PROOF_FOUND, PROOF_OPEN } from "./prove";
import { Master } from "./master";

/** Knapsack nodes the proof's pricing may take in all (a safeguard; the node budget is the limit). */
const CHECK_PRICING_NODES: f64 = 1e9;

export function proveFlat(input: Float64Array, k: i32, maxNodes: i32): Float64Array {
  const job = decodeCheckJob(input);
  if (job === null) return new Float64Array(0);
  const inst = job.inst;
  const pr = new Prover(inst, 0, Prover.pieces(inst));
  pr.seedFromPool(rootLp(inst, job.plan));
  const st = pr.run(job.plan, k, maxNodes, CHECK_PRICING_NODES, Infinity);
  const out = withBars(3, st == PROOF_FOUND ? pr.found : new Array<Bar>());
  out[0] = pr.timedOut ? <f64>PROOF_OPEN : <f64>st;
  out[1] = <f64>pr.nodes;
  out[2] = <f64>pr.pivots;
  return out;
}

/** A decoded job with one stock row and its best-fit plan: where the checks start. */
export class CheckJob {
  constructor(public inst: Instance, public plan: Array<Bar>) {}
}

/** The job of a check's input with its best-fit plan, null unless it has one stock row. */
export function decodeCheckJob(input: Float64Array): CheckJob | null {
  const inst = decode(input);
  if (inst === null || inst.nT != 1) return null;
  const dr = inst.dem.slice();
  const qr = new Int32Array(1);
  qr[0] = -1;
  const plan = new Array<Bar>();
  bestFitDecreasing(inst, dr, qr, sizeOrder(inst), plan, false);
  return new CheckJob(inst, plan);
}

/** A check's output: `head` slots for the caller, the bar count, then per bar its pieces c and c item indices. */
export function withBars(head: i32, bars: Array<Bar>): Float64Array {
  let len = head + 1;
  for (let b = 0; b < bars.length; b++) len += 1 + bars[b].n;
  const out = new Float64Array(len);
  out[head] = <f64>bars.length;
  let at = head + 1;
  for (let b = 0; b < bars.length; b++) {
    const bar = bars[b];
    out[at++] = <f64>bar.n;
    for (let j = 0; j < bar.n; j++) out[at++] = <f64>bar.items[j];
  }
  return out;
}

/** The root LP solved from the plan's patterns (the search's start too). */
export function rootLp(inst: Instance, plan: Array<Bar>): Master {
  const nb = plan.length;
  const types = new Int32Array(nb);
  const starts = new Int32Array(nb + 1);
  for (let b = 0; b < nb; b++) starts[b + 1] = starts[b] + plan[b].n;
  const items = new Int32Array(starts[nb]);
  for (let b = 0; b < nb; b++) for (let j = 0; j < plan[b].n; j++) items[starts[b] + j] = plan[b].items[j];
  const mp = new Master(inst);
  mp.solveFrom(types, starts, items, nb, inst.dem, inst.qty, Infinity);
  return mp;
}
