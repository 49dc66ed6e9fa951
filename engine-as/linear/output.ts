// Plan -> flat output (mirrors src/engine/linear.ts, change both together):
//   [0] status (0 ok, 1 bad input), [1] groups, [2] lower bound, [3] proven optimal (0/1),
//   [4] LP value (-1 unknown), [5] time to best ms, [6] stopped by deadline, [7] nI,
//   [8] dives, [9] LP pivots, [10] root LP ms (-1 not solved), [11] pricing rounds, [12] pivots of the root LP, then nI unplaced counts, then per group of identical bars:
//   stock row, bars, items k, then k item indices in cut order.

import { Instance } from "./instance";
import { Search } from "./search";
import { F64Vec } from "../common/arrays";

export const OUT_HEADER: i32 = 13;

export function encodeError(status: i32): Float64Array {
  const a = new Float64Array(OUT_HEADER);
  a[0] = status;
  return a;
}

export function encodeResult(inst: Instance, s: Search): Float64Array {
  const out = new F64Vec(256);
  for (let k = 0; k < OUT_HEADER; k++) out.push(0);
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
  a[0] = 0;
  a[1] = groups;
  a[2] = s.lowerBound;
  a[3] = s.optimal() ? 1 : 0;
  a[4] = s.lpValue;
  a[5] = s.timeToBest;
  a[6] = s.stoppedByDeadline ? 1 : 0;
  a[7] = inst.nI;
  a[8] = s.dives;
  a[9] = s.master.pivots;
  a[10] = s.rootMs;
  a[11] = s.master.pricings;
  a[12] = s.rootPivots;
  return a;
}
