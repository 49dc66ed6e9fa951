// Plan -> flat output (declared in linear/format.ts, which the service's boundary imports too):
//   [0] status (0 ok, 1 bad input), [1] groups, [2] lower bound, [3] proven optimal (0/1),
//   [4] LP value (-1 unknown), [5] time to best ms, [6] stopped by deadline, [7] nI,
//   [8] dives, [9] LP pivots, [10] root LP ms (-1 not solved), [11] pricing rounds, [12] pivots of the root LP, [13] LP solves from scratch after the first, [14] proof nodes, then nI unplaced counts, then per group of identical bars:
//   stock row, bars, items k, then k item indices in cut order.

import { Instance } from "./instance";
import { Search } from "./search";
import { F64Vec } from "../common/arrays";
import * as F from "./format";

export function encodeError(status: i32): Float64Array {
  const a = new Float64Array(F.OUT_HEADER);
  a[F.O_STATUS] = status;
  return a;
}

export function encodeResult(inst: Instance, s: Search): Float64Array {
  const out = new F64Vec(256);
  for (let k = 0; k < F.OUT_HEADER; k++) out.push(0);
  const plan = s.best!;
  const placed = new Int32Array(inst.nI);
  for (let b = 0; b < plan.bars.length; b++) {
    const bar = plan.bars[b];
    for (let j = 0; j < bar.n; j++) placed[bar.items[j]]++;
  }
  for (let i = 0; i < inst.nI; i++) out.push(<f64>(inst.want[i] - placed[i]));
  let groups: i32 = 0;
  let b: i32 = 0;
  while (b < plan.bars.length) {
    const bar = plan.bars[b];
    let e = b + 1;
    while (e < plan.bars.length && plan.bars[e].samePattern(bar)) e++;
    out.push(<f64>bar.t);
    out.push(<f64>(e - b));
    out.push(<f64>bar.n);
    for (let j = 0; j < bar.n; j++) out.push(<f64>bar.items[j]);
    groups++;
    b = e;
  }
  const a = out.toArray();
  a[F.O_STATUS] = 0;
  a[F.O_NGROUPS] = groups;
  a[F.O_LOWER_BOUND] = s.lowerBound;
  a[F.O_OPTIMAL] = s.optimal() ? 1 : 0;
  a[F.O_LP_VALUE] = s.lpValue;
  a[F.O_TIME_TO_BEST] = s.timeToBest;
  a[F.O_DEADLINE] = s.stoppedByDeadline ? 1 : s.wentOnPastStall ? 2 : 0;
  a[F.O_NPARTS] = inst.nI;
  a[F.O_DIVES] = s.dives;
  a[F.O_PIVOTS] = s.master.pivots;
  a[F.O_ROOT_MS] = s.rootMs;
  a[F.O_PRICINGS] = s.master.pricings;
  a[F.O_ROOT_PIVOTS] = s.rootPivots;
  a[F.O_COLD_SOLVES] = s.master.coldSolves;
  a[F.O_PROOF_NODES] = s.proofNodes;
  a[F.O_COVER_NODES] = s.coverNodes;
  return a;
}
