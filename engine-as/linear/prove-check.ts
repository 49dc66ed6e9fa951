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
  const inst = decode(input);
  if (inst === null || inst.nT != 1) return new Float64Array(0);
  const dr = inst.dem.slice();
  const qr = new Int32Array(1);
  qr[0] = -1;
  const plan = new Array<Bar>();
  bestFitDecreasing(inst, dr, qr, sizeOrder(inst), plan, false);
  const pr = new Prover(inst, 0, Prover.pieces(inst));
  pr.seedFromPool(rootLp(inst, plan));
  const st = pr.run(plan, k, maxNodes, CHECK_PRICING_NODES, Infinity);
  const found = st == PROOF_FOUND ? pr.found : new Array<Bar>();
  let len = 4;
  for (let b = 0; b < found.length; b++) len += 1 + found[b].n;
  const out = new Float64Array(len);
  out[0] = pr.timedOut ? <f64>PROOF_OPEN : <f64>st;
  out[1] = <f64>pr.nodes;
  out[2] = <f64>pr.pivots;
  out[3] = <f64>found.length;
  let at = 4;
  for (let b = 0; b < found.length; b++) {
    const bar = found[b];
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
